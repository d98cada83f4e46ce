"""Owns the one-line note under texts that quote the lesson's own 4-D world (guide pages,
timeline cards): once the class has reshaped that world, those numbers are the lesson's for
its own tokens, not what the panels beside them show."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel, QWidget

from app.i18n import tr
from app.state.document import Document
from app.ui.fonts import READING, emphasize
from app.ui.format import format_number
from app.ui.look import SELECTION_COLOUR


def reshaped_note(document: Document) -> str:
    """The note's text while the teaching world is reshaped (`LabState.reshaped`), else ""."""
    if not document.state.reshaped:
        return ""
    return tr("lesson.reshaped_note", count=format_number(len(document.data.teaching.tokens)))


class ReshapedNote(QLabel):
    """Shown only while the world is reshaped; follows the document and the language."""

    def __init__(self, document: Document, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName(name)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setStyleSheet(f"color: {SELECTION_COLOUR};")
        emphasize(self, READING)
        document.changed.connect(self.update_note)
        self.update_note()

    def update_note(self) -> None:
        text = reshaped_note(self.document)
        if text != self.text():
            self.setText(text)
        self.setVisible(bool(text))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.update_note()
        super().changeEvent(event)
