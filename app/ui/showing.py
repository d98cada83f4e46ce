"""Owns naming what the imported world shows, for the window title and the status bar: a
model's name, the sentence's start, the layer and the head, or a capture file and its head.
A class looking at the projector then always knows which head of which model it sees."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QStatusBar

from app.i18n import tr
from app.state.document import Document
from app.state.model_run import ModelRun

TEXT_START = 24
"""Characters of the sentence named; a longer one ends in "…"."""


def sentence_start(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TEXT_START else text[:TEXT_START - 1].rstrip() + "…"


class Showing(QObject):
    """The words for the import on screen, kept in a status-bar label; `changed` when they
    change (the title follows)."""

    changed = Signal()

    def __init__(self, document: Document, run: ModelRun, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.document, self.run = document, run
        self.label = QLabel()
        self.label.setObjectName("status_showing")
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # names a file and tokens
        bar.addPermanentWidget(self.label)
        self._text = ""
        document.changed.connect(self.update)
        run.shown.connect(self.update)
        self.label.installEventFilter(self)
        self.update()

    def text(self) -> str:
        return self._text

    def _words(self) -> str:
        state = self.document.state
        capture = state.imported
        if state.world != "imported" or capture is None:
            return ""
        origin = self.run.origin(capture)
        if origin is not None:
            return tr("model_folder.showing", model=origin.model,
                      text=sentence_start(origin.text), layer=origin.layer, head=origin.head)
        return tr("import.showing", file=capture.source, head=capture.head,
                  heads=capture.heads)

    def update(self) -> None:
        words = self._words()
        if words != self._text:
            self._text = words
            self.label.setText(words)
            self.label.setVisible(bool(words))
            self.changed.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.label and event.type() == QEvent.Type.LanguageChange:
            self.update()
        return False
