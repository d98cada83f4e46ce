"""Owns running start-up work that the first screen does not show after that screen's first
paint, so the window appears as soon as what it shows is ready.

The work runs from a zero timer once the window's first paint event has been delivered, or
after `FALLBACK_MS` if no paint comes (a window started minimised still starts its autosave).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

FALLBACK_MS = 1000
"""The latest the work waits for a paint that never comes."""


class _AfterFirstPaint(QObject):
    """Watches one window for its first paint, then runs its work once."""

    def __init__(self, window: QWidget, work: Callable[[], object]) -> None:
        super().__init__(window)
        self._window = window
        self._work: Callable[[], object] | None = work
        window.installEventFilter(self)
        QTimer.singleShot(FALLBACK_MS, self, self.run)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._work is not None:
            # a zero timer: the whole paint pass (the children's too) returns first
            QTimer.singleShot(0, self, self.run)
        return False

    def run(self) -> None:
        """Do the work now, unless it was done already."""
        work, self._work = self._work, None
        if work is None:
            return
        self._window.removeEventFilter(self)
        self.deleteLater()
        work()


def after_first_paint(window: QWidget, work: Callable[[], object]) -> None:
    """Run `work` once `window` has been painted for the first time (show it afterwards)."""
    _AfterFirstPaint(window, work)
