"""Owns the card that invites the class to the poll: the QR code, the address to type and
the room code, large enough to read and scan from the back of the room."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPixmap, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from app.i18n import tr
from app.poll.classpoll import ClassPoll
from app.poll.qr import qr_image
from app.ui.fonts import DISPLAY, HEADING, emphasize

__all__ = ["PollCard"]

ADDRESS_PT = 22.0
ROOM_PT = 34.0
QR_SHARE = 0.45
"""The QR code's most of the card's width; the words take the rest."""


def _label(name: str, size: float, bold: bool = False) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    emphasize(label, size, bold)
    return label


class PollCard(QFrame):
    """QR code on the left; title, address and room code on the right. Off: one line."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("poll_card")
        self._url = ""
        self.qr = QLabel()
        self.qr.setObjectName("poll_qr")
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.qr.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.title = _label("poll_title", DISPLAY, bold=True)
        self.scan = _label("poll_scan", HEADING)
        self.address = _label("poll_address", ADDRESS_PT, bold=True)
        self.address.setWordWrap(False)
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.room_label = _label("poll_room_label", HEADING)
        self.room = _label("poll_room", ROOM_PT, bold=True)
        self.room.setWordWrap(False)
        self.off = _label("poll_off", HEADING)
        words = QVBoxLayout()
        for widget in (self.title, self.scan, self.address, self.room_label, self.room):
            words.addWidget(widget)
        words.addStretch(1)
        words.addWidget(self.off)
        layout = QHBoxLayout(self)
        layout.addWidget(self.qr, 1)
        layout.addLayout(words, 1)
        self._retranslate()
        self.show_off()

    def bind(self, poll: ClassPoll) -> None:
        """Follow `poll`: the code and address while it runs, the off line when it stops."""
        def follow(running: bool) -> None:
            if running:
                self.show_poll(poll.join_url, poll.address, poll.room)
            else:
                self.show_off()

        poll.running_changed.connect(follow)
        follow(poll.running)

    def show_poll(self, join_url: str, address: str, room: str) -> None:
        """Show how to join: `join_url` in the QR code, `address` to type, the room code."""
        self._url = join_url
        self.address.setText(address)
        self.room.setText(" ".join(room))  # spaced digits read better across a room
        for widget in (self.qr, self.title, self.scan, self.address, self.room_label,
                       self.room):
            widget.setVisible(True)
        self.off.setVisible(False)
        self._draw_code()

    def show_off(self) -> None:
        self._url = ""
        for widget in (self.qr, self.title, self.scan, self.address, self.room_label,
                       self.room):
            widget.setVisible(False)
        self.off.setVisible(True)

    def minimumSizeHint(self) -> QSize:
        return QSize(320, 200)

    def _draw_code(self) -> None:
        if not self._url:
            return
        side = max(64, min(self.qr.height(), int(self.width() * QR_SHARE)))
        ratio = self.devicePixelRatioF()
        pixmap = QPixmap.fromImage(qr_image(self._url, round(side * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        self.qr.setPixmap(pixmap)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._draw_code()

    def _retranslate(self) -> None:
        self.title.setText(tr("poll.card.title"))
        self.scan.setText(tr("poll.card.scan"))
        self.room_label.setText(tr("poll.card.room"))
        self.off.setText(tr("poll.card.off"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        super().changeEvent(event)
