"""Owns the landscapes' q-length control: buttons that make q half, once or twice as long as in
the lesson (its direction kept), the one that matches marked, and |q| beside them; a press
asks the panel to edit q, so every map redraws."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from app.i18n import tr
from app.model.stretch import Q_LENGTHS
from app.ui.fonts import READING, STRONG, emphasize
from app.ui.format import format_score


def factor_text(factor: float) -> str:
    """×0.5, ×1, ×2: a multiple of the lesson's |q|."""
    return f"×{factor:g}"


class QLength(QWidget):
    """"Length of q: ×0.5 ×1 ×2   |q| = 3.61"; `picked(factor)` when a button is pressed."""

    picked = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("landscapes_q_length")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(objectName="landscapes_q_length_title")  # type: ignore[call-overload]
        emphasize(self.title, READING, bold=True)
        row.addWidget(self.title)
        self.buttons: dict[float, QPushButton] = {}
        for factor in Q_LENGTHS:
            button = QPushButton(factor_text(factor), checkable=True,  # type: ignore[call-overload]
                                 objectName=f"landscapes_q_{factor:g}")
            emphasize(button, READING, bold=True)
            button.clicked.connect(lambda _checked=False, f=factor: self._on_clicked(f))
            self.buttons[factor] = button
            row.addWidget(button)
        self.norm = QLabel(objectName="landscapes_q_norm")  # type: ignore[call-overload]
        self.norm.setTextFormat(Qt.TextFormat.PlainText)
        emphasize(self.norm, STRONG)
        row.addWidget(self.norm)
        row.addStretch(1)

    def _on_clicked(self, factor: float) -> None:
        self.picked.emit(factor)

    def retranslate(self) -> None:
        self.title.setText(tr("landscapes.q_length"))
        self.setToolTip(tr("landscapes.q_length_tip"))

    def show_length(self, norm: float, factor: float | None) -> None:
        """|q| as the model computed it, the button of its multiple checked (none if q has
        another length, all disabled for a zero q, which has no direction to stretch)."""
        self.norm.setText(tr("landscapes.q_norm", norm=format_score(norm)))
        for value, button in self.buttons.items():
            with QSignalBlocker(button):
                button.setChecked(value == factor)
            button.setEnabled(norm > 0)
