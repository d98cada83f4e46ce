"""Owns the shapes panel: one head's score matrix at lesson and anchor scale, T² costs, the
dot product's T×T square beside additive attention's T×T×dₐ cube, and the anchor decoder
layer's data flow with each stage's shapes and parameter count."""

from __future__ import annotations

import math

from PySide6.QtCore import QSignalBlocker, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QButtonGroup,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.decoder_flow import SEQUENCE, STAGE_KEYS, Shape, Stage, decoder_stages
from app.model.memory import additive_intermediate_bytes, score_matrix_bytes
from app.state.document import Document
from app.ui.fonts import READING, STRONG, emphasize
from app.ui.format import format_bytes, format_number, format_shape
from app.ui.panels.base import Panel
from app.ui.panels.shapes.cube import CubeDiagram, Labels
from app.ui.panels.shapes.diagram import ShapesDiagram
from app.ui.panels.shapes.flow import FlowList
from app.ui.widgets.scroll import FittedScrollArea
from app.ui.widgets.wheel_guard import WheelOnlyWhenFocused

STEPS_PER_OCTAVE = 4
"""The T slider moves in quarter powers of two, so every power of two (4,096 …) is a stop."""
MAX_D_A = 1024
"""The widest additive hidden size offered: four times the anchor's head_dim."""



def slider_values(low: int, high: int) -> tuple[int, ...]:
    """T stops from low to high: low itself, then 2^(i/4) rounded, then high itself."""
    first = math.ceil(math.log2(low) * STEPS_PER_OCTAVE)
    last = math.floor(math.log2(high) * STEPS_PER_OCTAVE)
    stops = {round(2 ** (i / STEPS_PER_OCTAVE)) for i in range(first, last + 1)}
    return tuple(sorted({low, high, *(s for s in stops if low <= s <= high)}))


class ShapesPanel(Panel):
    """Log-scaled S = Q_h·K_hᵀ with a T slider, and a clickable decoder-layer flow."""

    name = "shapes"
    title_key = "shapes.title"
    depends_on = ("world", "scorer", "options", "teaching_tokens", "teaching_q.shape",
                  "imported.queries.shape", "imported.keys.shape")
    """Sizes and settings only (the capture's too, not its values): a drag of a vector
    neither refreshes nor repaints it."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        data = document.data
        self.anchor = data.anchor
        self.lesson_T, self.lesson_d = (int(n) for n in data.teaching.Q.shape)
        self.anchor_d = int(self.anchor.head_dim)
        self.max_T = int(self.anchor.max_position_embeddings)
        self.itemsize = int(self.anchor.dtype_bytes)
        self.stops = slider_values(self.lesson_T, self.max_T)
        self.stages: tuple[Stage, ...] = decoder_stages(self.anchor)
        self.T = self.lesson_T
        self.d_h = self.lesson_d
        self.d_a = self.anchor_d  # the lesson's example: dₐ = the anchor's head_dim

        self.diagram = ShapesDiagram()
        self.lesson_button = QRadioButton()
        self.lesson_button.setObjectName("shapes_lesson_scale")
        self.anchor_button = QRadioButton()
        self.anchor_button.setObjectName("shapes_anchor_scale")
        self.scale_group = QButtonGroup(self)
        self.scale_group.addButton(self.lesson_button)
        self.scale_group.addButton(self.anchor_button)
        self.lesson_button.setChecked(True)
        self.lesson_button.toggled.connect(self._on_scale_toggled)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("shapes_T_slider")
        self.slider.setRange(0, len(self.stops) - 1)
        self.slider.setPageStep(STEPS_PER_OCTAVE)
        self.slider.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.slider.valueChanged.connect(lambda i: self.set_T(self.stops[i]))
        self.spin = QSpinBox()
        self.spin.setObjectName("shapes_T_spin")
        self.spin.setRange(self.lesson_T, self.max_T)
        self.spin.setGroupSeparatorShown(True)
        self.spin.setKeyboardTracking(False)
        self.spin.valueChanged.connect(self.set_T)
        self.T_label = QLabel()
        self.d_a_label = QLabel("dₐ")
        self.d_a_spin = QSpinBox()
        self.d_a_spin.setObjectName("shapes_d_a_spin")
        self._wheel_guard = WheelOnlyWhenFocused(self)  # scrolling the panel keeps T and dₐ
        self._wheel_guard.guard(self.slider, self.spin, self.d_a_spin)
        self.d_a_spin.setRange(1, MAX_D_A)
        self.d_a_spin.setValue(self.d_a)
        self.d_a_spin.setKeyboardTracking(False)
        self.d_a_spin.valueChanged.connect(self.set_d_a)
        self.cube = CubeDiagram()
        self.cube_caption = QLabel()
        self.cube_caption.setObjectName("shapes_cube_caption")
        self.cube_caption.setWordWrap(True)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.bytes_note = QLabel()
        self.bytes_note.setWordWrap(True)
        self.import_note = QLabel(objectName="shapes_import_note")  # the imported world only
        self.import_note.setWordWrap(True)
        self.import_note.hide()
        self.bytes_note.setTextFormat(Qt.TextFormat.RichText)
        self.numbers: dict[str, tuple[QLabel, QLabel]] = {
            key: (QLabel(), QLabel()) for key in ("pairs", "scores", "additive")
        }
        for key, (name, value) in self.numbers.items():
            value.setObjectName(f"shapes_{key}")
            name.setTextFormat(Qt.TextFormat.RichText)
            name.setWordWrap(True)  # "T × T × d_h" names are long at 250 %: wrap, not widen
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.flow = FlowList(len(self.stages))
        self.flow.setObjectName("shapes_flow")
        self.flow.row_picked.connect(self._on_stage_picked)
        self.detail = QLabel()
        self.detail.setObjectName("shapes_stage_detail")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self._arrange_pending = False
        self.head_box = QGroupBox()
        self.flow_box = QGroupBox()
        self.flow_title = QLabel()  # a box title cannot wrap: at 200 % it set a minimum width
        self.flow_title.setWordWrap(True)
        self._build_layout()
        self._emphasize()
        self.flow.set_current_row(STAGE_KEYS.index("scores"))
        self.apply_look()
        self.retranslate()
        self._sync_controls()
        self.refresh()

    def _emphasize(self) -> None:
        """Box titles are bold, so everything inside a box says how it differs from them:
        the numbers larger and bold, shapes and parameter counts ≥ 12 pt, the rest plain."""
        for box in (self.head_box, self.flow_box, self.flow_title, self.import_note):
            emphasize(box, bold=True)
        for widget in (self.lesson_button, self.anchor_button, self.caption, self.flow,
                       self.bytes_note, self.cube_caption,
                       *(name for name, _ in self.numbers.values())):
            emphasize(widget)
        for widget in (self.T_label, self.d_a_label,
                       *(value for _, value in self.numbers.values())):
            emphasize(widget, STRONG, bold=True)
        for widget in (self.detail, self.spin, self.d_a_spin):
            emphasize(widget, READING)

    def _build_layout(self) -> None:
        slider_row = QHBoxLayout()
        slider_row.addWidget(self.T_label)
        slider_row.addWidget(self.slider, 1)
        slider_row.addWidget(self.spin)
        d_a_row = QHBoxLayout()
        d_a_row.addWidget(self.d_a_label)
        d_a_row.addWidget(self.d_a_spin)
        d_a_row.addStretch(1)
        grid = QGridLayout()
        for row, (name, value) in enumerate(self.numbers.values()):
            grid.addWidget(name, row, 0)
            grid.addWidget(value, row, 1)
        grid.setColumnStretch(0, 1)
        controls = self.controls = QVBoxLayout()
        controls.addWidget(self.import_note)
        controls.addWidget(self.lesson_button)
        controls.addWidget(self.anchor_button)
        controls.addLayout(slider_row)
        controls.addLayout(d_a_row)
        controls.addLayout(grid)
        controls.addWidget(self.bytes_note)
        controls.addStretch(1)
        self.picture = picture = QVBoxLayout()
        for pair in ((self.diagram, self.caption), (self.cube, self.cube_caption)):
            box = QWidget()
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            for widget in pair:
                column.addWidget(widget)
            picture.addWidget(box)
        self.qk_box, self.cube_box = (picture.itemAt(i).widget() for i in range(2))
        picture.addStretch(1)
        self.head_row = QBoxLayout(QBoxLayout.Direction.LeftToRight, self.head_box)
        self.head_row.addLayout(picture, 3)
        self.head_row.addLayout(controls, 2)
        flow = QVBoxLayout(self.flow_box)
        flow.addWidget(self.flow_title)
        flow.addWidget(self.flow)
        flow.addWidget(self.detail, 1)
        content = QWidget()
        self.main_row = QBoxLayout(QBoxLayout.Direction.LeftToRight, content)
        self.main_row.setContentsMargins(0, 0, 0, 0)
        self.main_row.addWidget(self.head_box, 3)
        self.main_row.addWidget(self.flow_box, 2)
        self.scroll = FittedScrollArea(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll)

    def refresh(self) -> None:
        """Lead with the picture the selected scorer is about: the cube for additive
        attention (whose cost it shows), else one head's Q·Kᵀ. In the imported world, say
        that these sizes are the lesson's and the anchor's, and what the capture's are."""
        self._show_import()
        first = self.cube_box if self.document.state.scorer == "additive" else self.qk_box
        if self.picture.indexOf(first) != 0:
            self.picture.removeWidget(first)
            self.picture.insertWidget(0, first)

    def _show_import(self) -> None:
        state = self.document.state
        capture = state.imported if state.world == "imported" else None
        if capture is not None:
            (tq, d), tk = capture.queries.shape, len(capture.keys)
            self.import_note.setText(tr(
                "shapes.import_note", tq=format_number(tq), tk=format_number(tk), d=d,
                pairs=format_number(tq * tk)))
        self.import_note.setVisible(capture is not None)

    def _schedule_arrange(self) -> None:
        """Arrange once pending layout requests have run: font changes reach the minimum
        sizes only after them, and measuring earlier would pick a layout that overflows."""
        if not self._arrange_pending:
            self._arrange_pending = True
            QTimer.singleShot(0, self, self._arrange)

    def _arrange(self) -> None:
        """The widest arrangement whose minimum width fits: all side by side, the diagram
        beside its controls above the flow, or everything stacked."""
        self._arrange_pending = False
        room = self.width() - self.scroll.verticalScrollBar().sizeHint().width()
        box = self.head_box.contentsMargins()
        head = (self.diagram.minimumSizeHint().width() + self.controls.minimumSize().width()
                + self.head_row.spacing() + box.left() + box.right())
        flow = self.flow_box.minimumSizeHint().width() + self.main_row.spacing()
        across, down = QBoxLayout.Direction.LeftToRight, QBoxLayout.Direction.TopToBottom
        main_dir, head_dir = (across, across) if head + flow <= room else (
            (down, across) if head <= room else (down, down))
        for row, direction in ((self.main_row, main_dir), (self.head_row, head_dir)):
            if row.direction() != direction:
                row.setDirection(direction)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()  # sizes are settled unless fonts just changed, which reschedules

    # --- T and the scale -------------------------------------------------------------------

    def set_T(self, T: int) -> None:
        """Show sequence length T (clamped to 5 … the anchor's context); costs follow."""
        T = min(self.max_T, max(self.lesson_T, int(T)))
        if T != self.T:
            self.T = T
            self._sync_controls()

    def set_d_a(self, d_a: int) -> None:
        """The additive scorer's hidden size dₐ: the cube's depth (1 … MAX_D_A)."""
        d_a = min(MAX_D_A, max(1, int(d_a)))
        if d_a != self.d_a:
            self.d_a = d_a
            self._sync_controls()

    def costs(self) -> dict[str, int]:
        """Pairs per head, score-matrix bytes and the naive additive tensor's bytes at T."""
        T = self.T
        return {
            "pairs": T * T,
            "scores": score_matrix_bytes(T, self.itemsize),
            "additive": additive_intermediate_bytes(T, self.d_a, self.itemsize),
        }

    def _show_cube(self, costs: dict[str, int]) -> None:
        """Square and cube with their bytes; the ratio is computed from those bytes."""
        ratio = format_number(costs["additive"] // costs["scores"])
        self.cube.set_content(Labels(
            square="T × T", square_size=format_bytes(costs["scores"]),
            cube="T × T × dₐ", cube_size=format_bytes(costs["additive"]),
            depth=f"dₐ = {format_number(self.d_a)}", times=f"× {ratio}"), self.d_a)
        self.cube_caption.setText(tr("shapes.cube_caption", ratio=ratio,
                                     additive=format_bytes(costs["additive"]),
                                     scores=format_bytes(costs["scores"])))

    def _on_scale_toggled(self, lesson: bool) -> None:
        self.d_h = self.lesson_d if lesson else self.anchor_d
        self.T = self.lesson_T if lesson else self.max_T
        self._sync_controls()

    def _sync_controls(self) -> None:
        """Slider, spin box, diagram and numbers from self.T, with the controls' signals held."""
        stop = min(range(len(self.stops)), key=lambda i: abs(math.log(self.stops[i] / self.T)))
        with QSignalBlocker(self.slider), QSignalBlocker(self.spin), \
                QSignalBlocker(self.d_a_spin):
            self.slider.setValue(stop)
            self.spin.setValue(self.T)
            self.d_a_spin.setValue(self.d_a)
        self.diagram.set_sizes(self.T, self.d_h)
        costs = self.costs()
        self._show_cube(costs)
        for key, count in costs.items():
            text = format_number(count) if key == "pairs" else format_bytes(count)
            self.numbers[key][1].setText(text)

    # --- the decoder flow ------------------------------------------------------------------

    def _on_stage_picked(self, row: int) -> None:
        self.detail.setText(self.stage_text(self.stages[row]) if row >= 0 else "")

    def stage_text(self, stage: Stage) -> str:
        """Name, what it does, tensors in and out with shapes, and learned parameters."""
        config = self.anchor
        heads, kv = config.num_attention_heads, config.num_key_value_heads
        note = tr(f"shapes.note.{stage.key}", rotary=config.rotary_dims,
                  head_dim=config.head_dim, heads=heads, kv=kv, group=heads // kv)

        def tensors(items: tuple[tuple[str, Shape], ...]) -> str:
            return "; ".join(f"{name} <b>({format_shape(shape)})</b>" for name, shape in items)

        lines = [
            f"<b>{tr(f'shapes.stage.{stage.key}')}</b> — {note}",
            tr("shapes.detail.in", tensors=tensors(stage.inputs)),
            tr("shapes.detail.out", tensors=tensors(stage.outputs)),
            tr("shapes.detail.params", count=f"<b>{format_number(stage.params)}</b>"),
        ]
        if stage.weights:
            lines.append(tensors(stage.weights))
        return "<br>".join(lines)

    # --- look and language -----------------------------------------------------------------

    def apply_look(self) -> None:
        look = self.look
        self.diagram.set_look(look.scale, look.theme)
        self.cube.set_look(look.scale, look.theme)
        mark = round(look.px(16))
        for button in (self.lesson_button, self.anchor_button):
            button.setStyleSheet(
                f"QRadioButton::indicator {{ width: {mark}px; height: {mark}px; }}")
        line, pad = max(1, round(look.px(1))), round(look.px(3))
        self.flow.setStyleSheet(
            f"QListView::item {{ border: {line}px solid palette(mid);"
            f" border-radius: {pad}px; padding: {pad}px; }}"
            " QListView::item:selected { background: palette(highlight);"
            " color: palette(highlighted-text); }")
        self.flow.fit_height()
        self._schedule_arrange()

    def retranslate(self) -> None:
        self.head_box.setTitle(tr("shapes.head_title"))
        self.flow_title.setText(tr("shapes.flow_title", model=self.anchor.display_name))
        self.lesson_button.setText(tr("shapes.lesson_scale", d=self.lesson_d))
        self.anchor_button.setText(tr("shapes.anchor_scale", d=self.anchor_d))
        self.slider.setToolTip(tr("shapes.tip.slider"))
        self.spin.setToolTip(tr("shapes.tip.slider"))
        self.T_label.setText(SEQUENCE)
        labels = {
            "pairs": tr("shapes.pairs"),
            "scores": tr("shapes.score_bytes"),
            "additive": tr("shapes.additive_bytes"),
        }
        self.bytes_note.setText(tr("shapes.bytes_note", bytes=self.itemsize, d_a=self.anchor_d))
        self.d_a_spin.setToolTip(tr("shapes.tip.d_a", head_dim=self.anchor_d))
        self._show_cube(self.costs())
        for key, text in labels.items():
            self.numbers[key][0].setText(text)
        self.caption.setText(tr("shapes.caption"))
        self._show_import()
        for row, stage in enumerate(self.stages):
            arrow = "" if row == len(self.stages) - 1 else "  →"
            self.flow.items.item(row).setText(tr(f"shapes.stage.{stage.key}") + arrow)
        self._on_stage_picked(self.flow.current_row())
        self.flow.fit_height()
