"""Owns the shapes panel's controls: the lesson/anchor scale, the T slider and box, the dₐ box,
and the line that states T and dₐ where the controls are left out (the projector's stage).
They only mirror the values they are given and report what the teacher chose."""

from __future__ import annotations

import math

from PySide6.QtCore import QObject, QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from app.model.decoder_flow import SEQUENCE
from app.model.state import MAX_SHAPES_D_A
from app.ui.fonts import READING, STRONG, emphasize
from app.ui.format import format_number
from app.ui.widgets.number_box import WholeBox
from app.ui.widgets.stage_text import NBSP
from app.ui.widgets.wheel_guard import WheelOnlyWhenFocused

STEPS_PER_OCTAVE = 4
"""The T slider moves in quarter powers of two, so every power of two (4,096 …) is a stop."""


def slider_values(low: int, high: int) -> tuple[int, ...]:
    """T stops from low to high: low itself, then 2^(i/4) rounded, then high itself."""
    first = math.ceil(math.log2(low) * STEPS_PER_OCTAVE)
    last = math.floor(math.log2(high) * STEPS_PER_OCTAVE)
    stops = {round(2 ** (i / STEPS_PER_OCTAVE)) for i in range(first, last + 1)}
    return tuple(sorted({low, high, *(s for s in stops if low <= s <= high)}))


def stated_values(T: int, d_a: int) -> tuple[str, str]:
    """T and dₐ as the stage states them in words (and the panel's figure)."""
    return f"{SEQUENCE}{NBSP}={NBSP}{format_number(T)}", f"dₐ{NBSP}={NBSP}{format_number(d_a)}"


class ShapesControls(QObject):
    """The scale buttons, T and dₐ, laid out in `rows`; `T_chosen`, `d_a_chosen` and
    `scale_chosen` say what the teacher picked (the panel makes it the document's)."""

    T_chosen = Signal(int)
    d_a_chosen = Signal(int)
    scale_chosen = Signal(str)
    """"lesson" or "anchor"."""

    def __init__(self, stops: tuple[int, ...], parent: QWidget) -> None:
        super().__init__(parent)
        self.stops = stops
        self.lesson_button = QRadioButton(objectName="shapes_lesson_scale")  # type: ignore[call-overload]
        self.anchor_button = QRadioButton(objectName="shapes_anchor_scale")  # type: ignore[call-overload]
        self.group = QButtonGroup(self)
        self.group.addButton(self.lesson_button)
        self.group.addButton(self.anchor_button)
        self.lesson_button.toggled.connect(
            lambda lesson: self.scale_chosen.emit("lesson" if lesson else "anchor"))
        self.slider = QSlider(Qt.Orientation.Horizontal, objectName="shapes_T_slider")  # type: ignore[call-overload]
        self.slider.setRange(0, len(stops) - 1)
        self.slider.setPageStep(STEPS_PER_OCTAVE)
        self.slider.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.slider.valueChanged.connect(lambda i: self.T_chosen.emit(self.stops[i]))
        self.spin = WholeBox()
        self.spin.setObjectName("shapes_T_spin")
        self.spin.setRange(stops[0], stops[-1])
        self.spin.setGroupSeparatorShown(True)
        self.spin.valueChanged.connect(self.T_chosen.emit)
        self.T_label = QLabel(SEQUENCE)
        self.d_a_label = QLabel("dₐ")
        self.d_a_spin = WholeBox()
        self.d_a_spin.setObjectName("shapes_d_a_spin")
        self.d_a_spin.setRange(1, MAX_SHAPES_D_A)
        self.d_a_spin.valueChanged.connect(self.d_a_chosen.emit)
        self._wheel_guard = WheelOnlyWhenFocused(parent)  # scrolling the panel keeps T, dₐ
        self._wheel_guard.guard(self.slider, self.spin, self.d_a_spin)
        self.scale_label = QLabel(objectName="shapes_scale_shown")  # type: ignore[call-overload]
        self.values_label = QLabel(objectName="shapes_values")  # type: ignore[call-overload]
        for widget in (self.lesson_button, self.anchor_button, self.scale_label):
            emphasize(widget)
        for widget in (self.T_label, self.d_a_label, self.values_label):
            emphasize(widget, STRONG, bold=True)
        for widget in (self.spin, self.d_a_spin):
            emphasize(widget, READING)
        slider_row = QHBoxLayout()
        slider_row.addWidget(self.T_label)
        slider_row.addWidget(self.slider, 1)
        slider_row.addWidget(self.spin)
        d_a_row = QHBoxLayout()
        d_a_row.addWidget(self.d_a_label)
        d_a_row.addWidget(self.d_a_spin)
        d_a_row.addStretch(1)
        self.rows = QVBoxLayout()
        for widget in (self.lesson_button, self.anchor_button, self.scale_label):
            self.rows.addWidget(widget)
        self.rows.addLayout(slider_row)
        self.rows.addLayout(d_a_row)
        self.rows.addWidget(self.values_label)

    def show(self, T: int, d_a: int, scale: str, scale_text: str) -> None:
        """Mirror the values shown, with every control's signals held."""
        stop = min(range(len(self.stops)), key=lambda i: abs(math.log(self.stops[i] / T)))
        with QSignalBlocker(self.slider), QSignalBlocker(self.spin), \
                QSignalBlocker(self.d_a_spin), QSignalBlocker(self.lesson_button), \
                QSignalBlocker(self.anchor_button):
            (self.lesson_button if scale == "lesson" else self.anchor_button).setChecked(True)
            self.slider.setValue(stop)
            self.spin.setValue(T)
            self.d_a_spin.setValue(d_a)
        self.scale_label.setText(scale_text)
        self.values_label.setText("    ".join(stated_values(T, d_a)))

    def set_stage(self, stage: bool, mark: int) -> None:
        """On the stage the values in words replace the controls (the scene set them up)."""
        for widget in (self.lesson_button, self.anchor_button, self.T_label, self.slider,
                       self.spin, self.d_a_label, self.d_a_spin):
            widget.setHidden(stage)
        for widget in (self.scale_label, self.values_label):
            widget.setVisible(stage)
        for button in (self.lesson_button, self.anchor_button):
            button.setStyleSheet(
                f"QRadioButton::indicator {{ width: {mark}px; height: {mark}px; }}")
