"""Owns the label for text that changes at every drag step (a score, a sum, a formula).

Each new text makes a QLabel ask for a new layout, and that request climbs through the
panel, the dock and the main window, which then lays out every dock again: measured, a third
of a drag step's frame. A live label sits in a holder that passes the request on only when
the label's height for the holder's width really changed (its width comes from the layout it
stretches in), and it remembers its height per width, since a layout pass asks several times.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class LiveLabel(QLabel):
    """A word-wrapped label; put `holder` in layouts, and use the label as any QLabel."""

    def __init__(self, object_name: str, wrap: bool = True) -> None:
        super().__init__()
        self.setObjectName(object_name)
        self.setWordWrap(wrap)
        self._heights: dict[int, int] = {}
        self.holder = _Holder(self)

    def setText(self, text: str) -> None:
        if text != self.text():
            self._heights.clear()
            super().setText(text)

    def heightForWidth(self, width: int) -> int:
        if width not in self._heights:
            self._heights[width] = super().heightForWidth(width)
        return self._heights[width]

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
        super().changeEvent(event)


class _Holder(QWidget):
    """Lays its one label over its whole rectangle, shows and hides with it, and stops the
    label's layout requests that would not change the holder's height."""

    def __init__(self, label: LiveLabel) -> None:
        super().__init__()
        self.setObjectName(f"{label.objectName()}_holder")
        self._label = label
        label.setParent(self)
        policy = label.sizePolicy()
        policy.setHeightForWidth(label.wordWrap())
        self.setSizePolicy(policy)
        label.installEventFilter(self)
        self._height = self._label_height()

    def _label_height(self) -> int:
        """The one hint a new text can change for a label stretched across its layout (the
        minimum size of wrapped rich text costs a layout of its own, and is not needed)."""
        label = self._label
        return (label.heightForWidth(self.width()) if label.wordWrap()
                else label.sizeHint().height())

    def hasHeightForWidth(self) -> bool:
        return self._label.wordWrap()

    def heightForWidth(self, width: int) -> int:
        return self._label.heightForWidth(width)

    def sizeHint(self) -> QSize:
        return self._label.sizeHint()

    def minimumSizeHint(self) -> QSize:
        return self._label.minimumSizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._label.setGeometry(self.rect())
        self._height = self._label_height()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            height = self._label_height()
            if height != self._height:
                self._height = height
                self.updateGeometry()
            return True
        return super().event(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.HideToParent:
            self.hide()
        elif event.type() == QEvent.Type.ShowToParent:
            self.show()
        return False
