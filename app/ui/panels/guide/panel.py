"""Owns the lesson guide panel: the story in large type, measure-it-here, the checklist, Q&A.

Numbers come from `lesson_figures()` and the data through `lesson_values`; the checklist
ticks from the document's `changed` signal; questions go to an atomic Markdown log in the
user's data folder.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.questions import (
    LOG_NAME,
    MAX_QUESTION_CHARS,
    TIME_FORMAT,
    Question,
    QuestionList,
    append_question,
    log_target,
    read_questions,
)
from app.paths import user_data_dir
from app.state.document import Document
from app.ui.fonts import HEADING, READING, TITLE, emphasize
from app.ui.lesson_values import bold_values, lesson_values
from app.ui.panels.base import Panel
from app.ui.panels.guide.checklist import Checklist
from app.ui.panels.guide.measure import MeasureBox
from app.ui.panels.guide.sections import AFTER_MEASURE, BEFORE_MEASURE, CLOSING, section_html
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


class GuidePanel(Panel):
    """The lesson as a scrollable page, with the live parts embedded where the story needs them."""

    name = "guide"
    title_key = "guide.title"
    observes_while_hidden = True

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.figures = document.figures
        self.values: dict[str, str] = {}
        self.question = rich_label("guide_question", selectable=True)
        self.labels: dict[str, QLabel] = {}
        self.measure = MeasureBox()
        self.checklist_title = QLabel()
        self.checklist = Checklist(document.data)
        self.ask = AskBox(user_data_dir() / LOG_NAME)
        page = QWidget()
        page.setObjectName("guide_page")
        emphasize(page, READING)  # the lesson reads at 12 pt; the titles stand out further
        emphasize(self.question, HEADING, bold=True)
        emphasize(self.checklist_title, TITLE, bold=True)
        column = QVBoxLayout(page)
        column.setContentsMargins(10, 8, 10, 8)
        column.addWidget(self.question)
        self._add_sections(column, BEFORE_MEASURE)
        column.addWidget(self.measure)
        self._add_sections(column, AFTER_MEASURE)
        column.addWidget(self.checklist_title)
        column.addWidget(self.checklist)
        self._add_sections(column, CLOSING)
        column.addWidget(self.ask)
        column.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setObjectName("guide_scroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(page)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll)
        self.checklist.observe(document.state, document.view)
        self.retranslate()

    def _add_sections(self, column: QVBoxLayout, sections: tuple) -> None:
        for section in sections:
            label = rich_label(section.name, selectable=True)
            self.labels[section.name] = label
            column.addWidget(label)

    def refresh(self) -> None:
        self.checklist.observe(self.document.state, self.document.view)

    def retranslate(self) -> None:
        self.values = lesson_values(self.figures, self.document.data)
        bold = bold_values(self.values)
        self.question.setText(f"<h2>{html.escape(tr('guide.question'))}</h2>")
        for section in (*BEFORE_MEASURE, *AFTER_MEASURE, *CLOSING):
            self.labels[section.name].setText(section_html(section, bold))
        self.checklist_title.setText(tr("guide.try.title"))
        self.checklist.set_values(bold)
        self.measure.retranslate()
        self.ask.retranslate()
