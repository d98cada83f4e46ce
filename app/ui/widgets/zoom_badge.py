"""Owns the brief badge a zoom step shows over the window ("150 %"): on the stage there is
no status bar, and a zoom that changes nothing visible must still say what it did."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from app.ui.fonts import HEADING, emphasize

SHOWN_MS = 1500
"""How long the badge stays: long enough to read from the back row, gone before it is in
the way."""
INSET = 24
"""Pixels between the badge and the window's top edge."""


class ZoomBadge(QLabel):
    """A rounded label centred near the top of `host`, shown by `flash` for a moment."""

    def __init__(self, host: QWidget) -> None:
        super().__init__(host)
        self.setObjectName("zoom_badge")
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setStyleSheet("QLabel#zoom_badge { background: rgba(0, 0, 0, 200); color: white;"
                           " border-radius: 10px; padding: 8px 18px; }")
        emphasize(self, HEADING, bold=True)
        self._timer = QTimer(self, singleShot=True, interval=SHOWN_MS)
        self._timer.timeout.connect(self.hide)
        host.installEventFilter(self)
        self.hide()

    def flash(self, text: str) -> None:
        """Show `text` for SHOWN_MS, over whatever the window shows."""
        self.setText(text)
        self._place()
        self.show()
        self.raise_()
        self._timer.start()

    def _place(self) -> None:
        self.adjustSize()
        host = self.parentWidget()
        assert host is not None  # made over its host window
        self.move((host.width() - self.width()) // 2, INSET)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self._place()
        return False
