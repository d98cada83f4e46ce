"""Owns the page a panel shows while the other world is open: why it is empty, and a button
that switches worlds, both fitted to the dock at any presentation scale."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetricsF, QResizeEvent
from PySide6.QtWidgets import (
    QLabel,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui.fonts import HEADING, STRONG, points, ui_font
from app.ui.qt_known import layout_of
from app.ui.widgets.text_fit import largest_size, wrapped_height

HINT_PT, BUTTON_PT = HEADING, STRONG
BUTTON_PADDING = 3.0
"""The button's text may fill the page's width less this many of its own letter heights."""


def pages_with_hint(panel: QWidget, content: QWidget, hint: WorldHint,
                    minimum: tuple[int, int]) -> QStackedWidget:
    """Fill `panel` with a stack of its content and its other-world page.

    The panel gets a fixed minimum instead of its content's (which scrolls), so a small dock
    never forces the main window to grow, nor makes it jump when a layout turns sideways.
    """
    stack = QStackedWidget()
    stack.addWidget(content)
    stack.addWidget(hint)
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.addWidget(stack)
    panel.setMinimumSize(*minimum)
    return stack


class WorldHint(QWidget):
    """A centred message above a switch button; their fonts shrink (never below 11 pt) when
    a short or narrow dock at a large scale would otherwise clip the text. It refits itself
    when it resizes and when the zoom changes the font it inherits."""

    def __init__(self, name: str, on_switch: Callable[[], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hint = QLabel(objectName=f"{name}_hint")  # type: ignore[call-overload]
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.switch_button = QPushButton(objectName=f"{name}_switch_world")  # type: ignore[call-overload]
        self.switch_button.clicked.connect(on_switch)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.hint)
        layout.addWidget(self.switch_button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)

    def set_texts(self, hint: str, button: str) -> None:
        self.hint.setText(hint)
        self.switch_button.setText(button)
        self.fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.fit()

    def fit(self) -> None:
        """The largest sizes up to the look's that fit: the button's text in one line across
        the page, then the message, wrapped, in the height the button leaves."""
        margins = layout_of(self).contentsMargins()
        width = max(1, self.width() - margins.left() - margins.right())
        height = self.height() - margins.top() - margins.bottom() - layout_of(self).spacing()
        button = largest_size(points(BUTTON_PT),
                              lambda size: self._button_fits(size, width))
        self.switch_button.setFont(ui_font(button, bold=True))
        room = height - self.switch_button.sizeHint().height()
        hint = largest_size(points(HINT_PT), lambda size: wrapped_height(
            self.hint.text(), ui_font(size), width) <= room)
        self.hint.setFont(ui_font(hint))

    def _button_fits(self, size: float, width: int) -> bool:
        metrics = QFontMetricsF(ui_font(size, bold=True))
        text = self.switch_button.text()
        return metrics.horizontalAdvance(text) + BUTTON_PADDING * metrics.height() <= width
