"""A wheel that scrolls the page, not the value: spin boxes and sliders inside a scrolling
panel change only once the student has clicked into them."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QAbstractSlider, QAbstractSpinBox, QWidget


class WheelOnlyWhenFocused(QObject):
    """Install on each control; an unfocused control ignores the wheel, which Qt then hands
    to its parents (the scroll area under it scrolls on)."""

    def guard(self, *controls: QWidget) -> None:
        for control in controls:
            control.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.Wheel
                and isinstance(watched, (QAbstractSpinBox, QAbstractSlider))
                and not watched.hasFocus()):
            event.ignore()
            return True
        return False
