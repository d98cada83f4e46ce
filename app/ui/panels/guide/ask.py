"""Owns the guide's question box: type a question, record it to the atomic Markdown log in the
user's data folder, and list what was recorded so far."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.questions import (
    MAX_QUESTION_CHARS,
    TIME_FORMAT,
    Question,
    QuestionList,
    append_question,
    log_target,
    read_questions,
)
from app.ui.fonts import TITLE, emphasize
from app.ui.widgets.rich_label import rich_label


class AskBox(QWidget):
    """A line to type a question, a Record button, and every question recorded so far."""

    recorded = Signal(object)
    """A `Question` was written to the log."""

    def __init__(self, log: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guide_ask")
        self.log = log
        self.title = QLabel()
        emphasize(self.title, TITLE, bold=True)
        self.edit = QLineEdit()
        self.edit.setObjectName("guide_ask_edit")
        self.edit.setMaxLength(MAX_QUESTION_CHARS)
        self.edit.returnPressed.connect(self.record)
        self.button = QPushButton()
        self.button.setObjectName("guide_ask_record")
        self.button.clicked.connect(self.record)
        self.status = QLabel()
        self.status.setObjectName("guide_ask_status")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # it names files: never markup
        self.status.setWordWrap(True)
        self.listing = rich_label("guide_ask_list", selectable=True)
        row = QHBoxLayout()
        row.addWidget(self.edit, 1)
        row.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.listing)

    def record(self) -> None:
        """Append the typed question; on any problem say why and keep the text."""
        text = self.edit.text()
        if not text.strip():
            self.status.setText(tr("guide.ask.empty"))
            return
        try:
            recorded = append_question(self.log, text)
        except ValueError:
            self.status.setText(tr("guide.ask.too_long", limit=MAX_QUESTION_CHARS))
            return
        except OSError as error:
            self.status.setText(tr("guide.ask.failed", reason=error.strerror or str(error)))
            return
        self.edit.clear()
        saved = tr("guide.ask.saved", time=recorded.question.asked_at.strftime(TIME_FORMAT))
        if recorded.diverted_from is not None:
            saved += " " + tr("guide.ask.diverted", log=str(recorded.diverted_from),
                              new=str(recorded.path))
        self.status.setText(saved)
        self.show_questions()
        self.recorded.emit(recorded.question)

    def questions(self) -> list[Question]:
        """What the listing shows: the questions of the file new ones go to."""
        try:
            return read_questions(log_target(self.log))
        except OSError:
            return []

    def show_questions(self) -> None:
        """The recorded questions, with a note for entries that could not be read; never raises
        for a damaged or odd log, because a student's hand edit must not stop the app."""
        parts: list[str] = []
        try:
            path = log_target(self.log)
            questions = read_questions(path)
        except OSError as error:
            path, questions = self.log, QuestionList()
            parts.append(tr("guide.ask.unreadable", file=str(self.log),
                            reason=error.strerror or str(error)))
        if path != self.log:
            parts.append(tr("guide.ask.diverted", log=str(self.log), new=str(path)))
        if questions.notes:
            parts.append(tr("guide.ask.skipped", count=len(questions.notes), file=str(path)))
        notes = "".join(f"<p>{html.escape(part)}</p>" for part in parts)
        if questions.notes:
            notes += "<ul>" + "".join(f"<li>{html.escape(note)}</li>"
                                      for note in questions.notes) + "</ul>"
        if not questions:
            none = html.escape(tr("guide.ask.none", path=str(path)))
            self.listing.setText(f"{notes}<p>{none}</p>")
            return
        items = "".join(
            f"<li><b>{q.asked_at.strftime(TIME_FORMAT)}</b> "
            f"{html.escape(q.text).replace(chr(10), '<br>')}</li>" for q in questions)
        heading = html.escape(tr("guide.ask.recorded", count=len(questions), path=str(path)))
        self.listing.setText(f"{notes}<p>{heading}</p><ul>{items}</ul>")

    def retranslate(self) -> None:
        self.title.setText(tr("guide.ask.title"))
        self.edit.setPlaceholderText(tr("guide.ask.placeholder"))
        self.button.setText(tr("guide.ask.button"))
        self.status.setText("")
        self.show_questions()
