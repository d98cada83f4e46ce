"""Owns painting one edit's new picture in one pass of the window's backing store.

A QGraphicsView hands its window the pending update request as soon as its own scene has
processed its changed items, so an edit that changes three plots (the heatmap, the edited
vector's chart, the term-by-term bars) painted and flushed the window three times: 3.35
passes a drag step, measured. From the document's `changed` until the events that change
posted have all been delivered, the gate holds the windows' update requests; then it sends
each window one, and everything that changed is painted together.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QWidget
from shiboken6 import isValid

from app.state.document import Document

FRAME_END = QEvent.Type(QEvent.registerEventType())
"""Posted at low priority when a frame opens: it arrives after everything the refresh
posted at normal priority (the scenes' processing of their changed items among it)."""


class FrameGate(QObject):
    """Holds the update requests of `windows` while a document change is being delivered."""

    def __init__(self, document: Document, windows: Iterable[QWidget],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._open = False
        self._held: list[QObject] = []  # the windows whose repaint waits
        for window in windows:
            window.installEventFilter(self)
        document.changed.connect(self._on_changed)

    def _on_changed(self, _fields: object = None) -> None:
        if not self._open:
            self._open = True
            QCoreApplication.postEvent(self, QEvent(FRAME_END),
                                       Qt.EventPriority.LowEventPriority.value)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self._open and event.type() == QEvent.Type.UpdateRequest:
            if watched not in self._held:
                self._held.append(watched)
            return True  # painted with the rest when the frame ends
        return False

    def event(self, event: QEvent) -> bool:
        if event.type() != FRAME_END:
            return super().event(event)
        self._open = False
        held, self._held = self._held, []
        for window in held:
            if isValid(window):  # not closed and deleted while the frame ran
                QCoreApplication.sendEvent(window, QEvent(QEvent.Type.UpdateRequest))
        return True
