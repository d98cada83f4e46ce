"""Owns the scroll area that lets a dense panel shrink inside a small dock without clipping."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QApplication, QFrame, QScrollArea, QWidget


class FittedScrollArea(QScrollArea):
    """A frameless, resizable scroll area that refits its content whenever the content's
    layout changes (wrapped labels, a table resized to its rows), not only when it resizes.

    QScrollArea re-reads heightForWidth only while it handles its own resize, before wrapped
    labels inside have their final width, and a layout request from the content reaches the
    viewport instead of the area. Both leave the content with a stale height; posting the
    area a layout request afterwards makes it recompute.
    """

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWidget(content)
        content.installEventFilter(self)

    def refit(self) -> None:
        """Recompute the content's size once the event loop has settled pending layouts."""
        QApplication.postEvent(self, QEvent(QEvent.Type.LayoutRequest))

    def relayout(self) -> None:
        """Lay the content out again now: a child just changed its fixed size, which Qt may
        not report to a layout that is between activations."""
        content = self.widget()
        layout = content.layout() if content is not None else None
        if layout is not None:
            layout.invalidate()
            layout.activate()
        self.refit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.refit()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.refit()  # wrapped labels settle only after this resize has laid them out
