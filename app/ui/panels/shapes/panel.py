"""Owns the shapes panel: one head's score matrix at lesson and anchor scale, T² costs, the
dot product's T×T square beside additive attention's T×T×dₐ cube, and the anchor decoder
layer's data flow with each stage's shapes and parameter count. T, dₐ and the scale are the
document's options (`shapes_T`, `shapes_d_a`, `shapes_scale`), so a scene sets them up."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.decoder_flow import STAGE_KEYS, LayerStep, decoder_stages
from app.model.memory import additive_intermediate_bytes, score_matrix_bytes
from app.model.state import MAX_SHAPES_D_A
from app.state.document import Document
from app.ui.figure_table import TableFigure
from app.ui.fonts import READING, STRONG, emphasize
from app.ui.format import format_bytes, format_number
from app.ui.panels.base import Panel
from app.ui.panels.shapes.controls import ShapesControls, slider_values, stated_values
from app.ui.panels.shapes.cube import CubeDiagram, Labels
from app.ui.panels.shapes.diagram import ShapesDiagram
from app.ui.panels.shapes.figure import number_names, shapes_figure
from app.ui.panels.shapes.flow import FlowList, stage_detail
from app.ui.qt_known import widget_at
from app.ui.widgets.scroll import FittedScrollArea
from app.ui.widgets.stage_text import font_px, legible_scripts, unbroken

ANSWERS = ("scores", "additive")
"""The numbers that answer "how large is it?": kept back while the panel withholds."""
NAME_EMS = 7
"""On the stage a number's name is at least this many characters wide before it wraps."""


class ShapesPanel(Panel):
    """Log-scaled S = Q_h·K_hᵀ with a T slider, and a clickable decoder-layer flow."""

    name = "shapes"
    scroll: FittedScrollArea  # type: ignore[assignment]  # the attribute hides QWidget.scroll()
    depends_on = ("world", "scorer", "options", "teaching_tokens", "teaching_q.shape",
                  "imported.queries.shape", "imported.keys.shape")
    """Sizes and settings only (the capture's too, not its values): a drag of a vector
    neither refreshes nor repaints it."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        data = document.data
        self.anchor = data.anchor
        # read with require_attention: the anchor has every attention shape
        assert self.anchor.head_dim is not None
        assert self.anchor.max_position_embeddings is not None
        self.lesson_T, self.lesson_d = (int(n) for n in data.teaching.Q.shape)
        self.anchor_d = int(self.anchor.head_dim)
        self.max_T = int(self.anchor.max_position_embeddings)
        self.itemsize = int(self.anchor.dtype_bytes)
        self.stops = slider_values(self.lesson_T, self.max_T)
        self.stages: tuple[LayerStep, ...] = decoder_stages(self.anchor)
        self._withheld = False

        self.diagram = ShapesDiagram()
        self.inputs_part = ShapesControls(self.stops, self)
        part = self.inputs_part
        self.lesson_button, self.anchor_button = part.lesson_button, part.anchor_button
        self.slider, self.spin, self.d_a_spin = part.slider, part.spin, part.d_a_spin
        part.T_chosen.connect(self.set_T)
        part.d_a_chosen.connect(self.set_d_a)
        part.scale_chosen.connect(self._on_scale_chosen)
        self.cube = CubeDiagram()
        self.cube_caption = QLabel()
        self.cube_caption.setObjectName("shapes_cube_caption")
        self.cube_caption.setWordWrap(True)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.bytes_note = QLabel()
        self.bytes_note.setWordWrap(True)
        self.import_note = QLabel(objectName="shapes_import_note")  # type: ignore[call-overload]  # the imported world only
        self.import_note.setWordWrap(True)
        self.import_note.hide()
        self.bytes_note.setTextFormat(Qt.TextFormat.RichText)
        self.numbers: dict[str, tuple[QLabel, QLabel]] = {
            key: (QLabel(), QLabel()) for key in ("pairs", *ANSWERS)
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
        self.refresh()

    # --- what the document asks for --------------------------------------------------------

    @property
    def scale(self) -> str:
        """"lesson" or "anchor": whose head is drawn."""
        return self.document.state.options.shapes_scale

    @property
    def T(self) -> int:
        """The sequence length shown: the option, else the scale's own (clamped to 5 … the
        anchor's context, the range the slider offers)."""
        chosen = self.document.state.options.shapes_T
        if chosen is None:
            chosen = self.lesson_T if self.scale == "lesson" else self.max_T
        return min(self.max_T, max(self.lesson_T, int(chosen)))

    @property
    def d_a(self) -> int:
        """The additive scorer's hidden size dₐ: the option, else the anchor's head_dim."""
        chosen = self.document.state.options.shapes_d_a
        return self.anchor_d if chosen is None else int(chosen)

    @property
    def d_h(self) -> int:
        return self.lesson_d if self.scale == "lesson" else self.anchor_d

    def _emphasize(self) -> None:
        """Box titles are bold, so everything inside a box says how it differs from them:
        the numbers larger and bold, shapes and parameter counts ≥ 12 pt, the rest plain."""
        for box in (self.head_box, self.flow_box, self.flow_title, self.import_note):
            emphasize(box, bold=True)
        for widget in (self.caption, self.flow, self.bytes_note, self.cube_caption,
                       *(name for name, _ in self.numbers.values())):
            emphasize(widget)
        for _, value in self.numbers.values():
            emphasize(value, STRONG, bold=True)
        emphasize(self.detail, READING)

    def _build_layout(self) -> None:
        grid = QGridLayout()
        for row, (name, value) in enumerate(self.numbers.values()):
            grid.addWidget(name, row, 0)
            grid.addWidget(value, row, 1)
        grid.setColumnStretch(0, 1)
        controls = self.controls = QVBoxLayout()
        controls.addWidget(self.import_note)
        controls.addLayout(self.inputs_part.rows)
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
        self.qk_box, self.cube_box = (widget_at(picture, i) for i in range(2))
        picture.addStretch(1)
        self.head_row = QBoxLayout(QBoxLayout.Direction.LeftToRight, self.head_box)
        self.head_row.addLayout(picture, 3)
        self.head_row.addLayout(controls, 2)
        flow = QVBoxLayout(self.flow_box)
        flow.addWidget(self.flow_title)
        flow.addWidget(self.flow)
        flow.addWidget(self.detail, 1)
        self.content = content = QWidget()
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
        first.show()  # the stage shows that one only: the numbers beside it say the rest
        (self.qk_box if first is self.cube_box else self.cube_box).setHidden(self.look.stage)
        self._sync_controls()

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

    def _widths(self) -> tuple[int, int]:
        """(the head box side by side, the flow box beside it) at their minimum widths."""
        box = self.head_box.contentsMargins()
        shown = ((self.diagram, self.qk_box), (self.cube, self.cube_box))
        pictures = [picture.minimumSizeHint().width() for picture, holder in shown
                    if not holder.isHidden()]
        head = (max(pictures, default=0) + self.controls.minimumSize().width()
                + self.head_row.spacing() + box.left() + box.right())
        flow = (self.flow_box.minimumSizeHint().width() + self.main_row.spacing()
                if not self.flow_box.isHidden() else 0)
        return head, flow

    def _arrange(self) -> None:
        """The widest arrangement whose minimum width fits: all side by side, the diagram
        beside its controls above the flow, or everything stacked. On the stage the picture
        is always beside its numbers: it is never given less than that needs."""
        self._arrange_pending = False
        room = self.width() - self.scroll.verticalScrollBar().sizeHint().width()
        head, flow = self._widths()
        across, down = QBoxLayout.Direction.LeftToRight, QBoxLayout.Direction.TopToBottom
        main_dir, head_dir = (across, across) if head + flow <= room or self.look.stage else (
            (down, across) if head <= room else (down, down))
        for row, direction in ((self.main_row, main_dir), (self.head_row, head_dir)):
            if row.direction() != direction:
                row.setDirection(direction)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()  # sizes are settled unless fonts just changed, which reschedules

    def readable_size(self) -> QSize:
        """On the stage: the picture beside its numbers at their least widths (the picture
        as wide as its painted labels need), as tall as that width makes them."""
        if not self.look.stage:
            return super().readable_size()
        self._arrange()
        width = self.content.minimumSizeHint().width()
        height = max(self.content.heightForWidth(width), self.content.minimumSizeHint().height())
        return QSize(width, height)

    # --- T and the scale -------------------------------------------------------------------

    def set_T(self, T: int) -> None:
        """Show sequence length T (clamped to 5 … the anchor's context); costs follow."""
        T = min(self.max_T, max(self.lesson_T, int(T)))
        if T != self.T:
            self.document.set_options(shapes_T=T)
            self._sync_controls()

    def set_d_a(self, d_a: int) -> None:
        """The additive scorer's hidden size dₐ: the cube's depth (1 … MAX_SHAPES_D_A)."""
        d_a = min(MAX_SHAPES_D_A, max(1, int(d_a)))
        if d_a != self.d_a:
            self.document.set_options(shapes_d_a=d_a)
            self._sync_controls()

    def withhold(self, on: bool) -> None:
        """Before the reveal the sizes that answer "how large?" (both tensors' bytes and
        their ratio) are question marks; the shapes and T, dₐ stay."""
        if bool(on) != self._withheld:
            self._withheld = bool(on)
            self._sync_controls()

    def costs(self) -> dict[str, int]:
        """Pairs per head, score-matrix bytes and the naive additive tensor's bytes at T."""
        T = self.T
        return {
            "pairs": T * T,
            "scores": score_matrix_bytes(T, self.itemsize),
            "additive": additive_intermediate_bytes(T, self.d_a, self.itemsize),
        }

    def _shown(self, text: str) -> str:
        """A number or sentence as this look writes it: on the stage no line breaks inside
        a number and its unit."""
        return unbroken(text) if self.look.stage else text

    def _show_cube(self, costs: dict[str, int]) -> None:
        """Square and cube with their bytes; the ratio is computed from those bytes."""
        ratio = format_number(costs["additive"] // costs["scores"])
        withheld = tr("shapes.withheld")
        sizes = {key: withheld if self._withheld else format_bytes(costs[key]) for key in ANSWERS}
        self.cube.set_content(Labels(
            square="T × T", square_size=sizes["scores"],
            cube="T × T × dₐ", cube_size=sizes["additive"],
            depth=f"dₐ = {format_number(self.d_a)}",
            times=f"× {withheld if self._withheld else ratio}"), self.d_a)
        self.cube_caption.setText(tr("shapes.cube_caption_withheld") if self._withheld else
                                  self._shown(tr("shapes.cube_caption", ratio=ratio,
                                                 additive=sizes["additive"],
                                                 scores=sizes["scores"])))

    def _on_scale_chosen(self, scale: str) -> None:
        """The other head: its d_h, and T back to that scale's own length."""
        self.document.set_options(shapes_scale=scale, shapes_T=None)
        self._sync_controls()

    def _sync_controls(self) -> None:
        """Controls, diagram and numbers from the document's options."""
        self.inputs_part.show(self.T, self.d_a, self.scale, self._scale_text())
        self.diagram.set_sizes(self.T, self.d_h)
        costs = self.costs()
        self._show_cube(costs)
        for key, count in costs.items():
            if key in ANSWERS and self._withheld:
                text = tr("shapes.withheld")
            else:
                text = format_number(count) if key == "pairs" else format_bytes(count)
            self.numbers[key][1].setText(text)

    def _scale_text(self) -> str:
        if self.scale == "lesson":
            return tr("shapes.lesson_scale", d=self.lesson_d)
        return tr("shapes.anchor_scale", d=self.anchor_d)

    def figure(self) -> TableFigure:
        """The numbers beside the picture as shown ("?" while withheld) and the cube's ratio,
        under the scale, T and dₐ: the drawings only restate them, and the decoder flow is a
        list to click through, so both stay on screen."""
        numbers = [(name, self.numbers[key][1].text()) for key, name in number_names().items()]
        numbers.append((tr("shapes.ratio"), self.cube.labels.times))
        setting = " · ".join((self._scale_text(), *stated_values(self.T, self.d_a)))
        return shapes_figure(setting, numbers, self._bytes_note())

    # --- the decoder flow ------------------------------------------------------------------

    def _on_stage_picked(self, row: int) -> None:
        self.detail.setText(stage_detail(self.stages[row], self.anchor) if row >= 0 else "")

    # --- look and language -----------------------------------------------------------------

    def apply_look(self) -> None:
        """On the stage the scene has set T, dₐ and the scale up: the buttons, slider and
        spin boxes give way to their values in words, and the decoder flow (a list to click
        through) stays on the teacher's desk."""
        look = self.look
        self.inputs_part.set_stage(look.stage, round(look.px(16)))
        self.flow_box.setHidden(look.stage)
        grow = QSizePolicy.Policy.Expanding if look.stage else QSizePolicy.Policy.Preferred
        for picture in (self.diagram, self.cube):  # the stage's room goes to the picture
            picture.set_look(look.scale, look.theme, look.stage)
            picture.setSizePolicy(QSizePolicy.Policy.Expanding, grow)
        self.picture.setStretch(self.picture.count() - 1, 0 if look.stage else 1)
        line, pad = max(1, round(look.px(1))), round(look.px(3))
        self.flow.setStyleSheet(
            f"QListView::item {{ border: {line}px solid palette(mid);"
            f" border-radius: {pad}px; padding: {pad}px; }}"
            " QListView::item:selected { background: palette(highlight);"
            " color: palette(highlighted-text); }")
        self.flow.fit_height()
        self._word_numbers()
        self._schedule_arrange()

    def _word_numbers(self) -> None:
        """The numbers' names and the note, their sub- and superscripts legible on the stage."""
        stage = self.look.stage
        for key, text in number_names().items():
            name = self.numbers[key][0]
            name.setText(legible_scripts(self._shown(text), name.font(), stage))
            # a wrapped Chinese name may break between any two characters: not one by one
            name.setMinimumWidth(round(NAME_EMS * font_px(name.font())) if stage else 0)
        self.bytes_note.setText(legible_scripts(self._bytes_note(), self.bytes_note.font(),
                                                stage))

    def _bytes_note(self) -> str:
        return tr("shapes.bytes_note", bytes=self.itemsize, d_a=self.anchor_d)

    def retranslate(self) -> None:
        self.head_box.setTitle(tr("shapes.head_title"))
        self.flow_title.setText(tr("shapes.flow_title", model=self.anchor.display_name))
        self.lesson_button.setText(tr("shapes.lesson_scale", d=self.lesson_d))
        self.anchor_button.setText(tr("shapes.anchor_scale", d=self.anchor_d))
        self.slider.setToolTip(tr("shapes.tip.slider"))
        self.spin.setToolTip(tr("shapes.tip.slider"))
        self.d_a_spin.setToolTip(tr("shapes.tip.d_a", head_dim=self.anchor_d))
        self._word_numbers()
        self.caption.setText(tr("shapes.caption"))
        self._show_import()
        for row, stage in enumerate(self.stages):
            arrow = "" if row == len(self.stages) - 1 else "  →"
            self.flow.items.item(row).setText(tr(f"shapes.stage.{stage.key}") + arrow)
        self._on_stage_picked(self.flow.current_row())
        self.flow.fit_height()
        self._sync_controls()
