"""Owns the timeline's RoPE page: the 2-D sample's positions, the rotation's frequency, and
every key's score with RoPE off beside the rotated one, so a turn is never read as a new match.

Edits go through the document (positions, the `rope_step` option); the numbers come from
`document.view` (its `baseline` is the RoPE-off matrix of the same vectors).
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.state import POSITION_LIMIT, ROPE_STEP_RANGE
from app.state.document import Document
from app.ui.figure_table import TableFigure, TableRow
from app.ui.format import format_number, format_score, name_tip, plain_tip, shown_name
from app.ui.widgets.number_box import NumberBox, WholeBox
from app.ui.widgets.rich_label import rich_label

POSITION_RANGE = (-POSITION_LIMIT, POSITION_LIMIT)
"""What a position box holds: exactly what the document and a scenario accept."""
STEP_DECIMALS = 2


class RopePage(QWidget):
    """Positions, frequency and the score table of the RoPE stage."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._shift_from: tuple[np.ndarray, np.ndarray] | None = None
        self.caption = rich_label("timeline_rope_caption")
        grid = QGridLayout()
        self.position_boxes: list[WholeBox] = []
        self.names: list[QLabel] = []
        for index in range(len(document.state.positions)):
            name, box = QLabel(), WholeBox()
            name.setTextFormat(Qt.TextFormat.PlainText)  # a token name, never markup
            box.setObjectName(f"timeline_position_{index}")
            box.setRange(*POSITION_RANGE)
            box.valueChanged.connect(self._on_position_edited)
            self.names.append(name)
            self.position_boxes.append(box)
            row, column = divmod(index, 2)  # two to a row: the page is half a dock wide
            grid.addWidget(name, row, 2 * column)
            grid.addWidget(box, row, 2 * column + 1)
        self.step_label, self.step_unit = QLabel(), QLabel()
        self.step_box = NumberBox()
        self.step_box.setObjectName("timeline_rope_step")
        self.step_box.setRange(*ROPE_STEP_RANGE)
        self.step_box.setDecimals(STEP_DECIMALS)
        self.step_box.setSingleStep(0.05)
        self.step_box.valueChanged.connect(self._on_step_edited)
        step_row = QHBoxLayout()
        for widget in (self.step_label, self.step_box, self.step_unit):
            step_row.addWidget(widget)
        step_row.addStretch(1)
        self.shift_button = QPushButton()
        self.shift_button.setObjectName("timeline_rope_shift")
        self.shift_button.clicked.connect(self._on_shift)
        self.scores = rich_label("timeline_rope_scores")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addLayout(grid)
        layout.addLayout(step_row)
        layout.addWidget(self.shift_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.scores, 1)

    # ---- edits ------------------------------------------------------------------------

    def _on_position_edited(self, _value: int) -> None:
        self.document.set_positions([box.value() for box in self.position_boxes])

    def _on_step_edited(self, value: float) -> None:
        self.document.set_options(rope_step=round(value, STEP_DECIMALS))

    def _on_shift(self) -> None:
        view = self.document.view
        if view.world != "dialogue":
            return
        positions = np.array(self.document.state.positions)
        self._shift_from = (positions, np.ma.filled(view.scores["dot"][0], np.nan).copy())
        self.document.set_positions(positions + 1)

    # ---- repaint ----------------------------------------------------------------------

    def retranslate(self) -> None:
        self.shift_button.setText(tr("timeline.rope.shift"))
        self.step_label.setText(tr("timeline.rope.step"))
        self.step_box.setToolTip(tr("timeline.rope.step_tip"))

    def refresh(self) -> None:
        state, view = self.document.state, self.document.view
        dialogue = self.document.data.dialogue
        tokens = [dialogue.query_token, *dialogue.key_tokens]
        for index, (box, label) in enumerate(zip(self.position_boxes, self.names, strict=True)):
            with QSignalBlocker(box):
                box.setValue(int(state.positions[index]))
            label.setText(shown_name(tokens[index]))
            label.setToolTip(name_tip(tokens[index]))
            box.setToolTip(plain_tip(  # tooltips are rich text: escape the name
                tr("timeline.rope.position_tip", token=tokens[index])))
        step = state.options.rope_step
        with QSignalBlocker(self.step_box):
            self.step_box.setValue(step)
        self.step_unit.setText(tr("timeline.rope.degrees",
                                  degrees=format_number(math.degrees(step), 1)))
        in_world = view.world == "dialogue"
        on = state.options.rope and in_world
        self.caption.setText(f"<b>{html.escape(self._caption())}</b>" if in_world
                             else html.escape(tr("timeline.rope.need_dialogue")))
        self.shift_button.setEnabled(in_world)
        self.step_box.setEnabled(in_world)
        self.scores.setText(self._table(on) if in_world else "")

    def score_table(self) -> tuple[list[str], list[list[str]], list[str]]:
        """The score table the page and its figure print: its header, a row per key (key,
        signed offset, |k|, the RoPE-off score, before a shift the score then, the rotated
        one) and, right after a shift, whether any score changed."""
        state, view = self.document.state, self.document.view
        now = np.ma.filled(view.scores["dot"][0], np.nan)
        baseline = view.baseline if view.baseline is not None else view.scores
        off = np.ma.filled(baseline["dot"][0], np.nan)
        before = None
        if self._shift_from is not None and np.array_equal(self._shift_from[0] + 1,
                                                           state.positions):
            before = self._shift_from[1]
        header = [tr("timeline.rope.col_key"), tr("timeline.rope.col_offset"), "|k|",
                  tr("timeline.rope.col_off")]
        header += [tr("timeline.rope.col_before")] if before is not None else []
        header.append(tr("timeline.rope.col_after"))
        rows = []
        lengths = np.linalg.norm(view.k, axis=1)
        for j, name in enumerate(view.key_names):
            cells = [shown_name(name), format_number(state.positions[j + 1] - state.positions[0]),
                     format_score(float(lengths[j])), format_score(float(off[j]))]
            cells += [format_score(float(before[j]))] if before is not None else []
            rows.append([*cells, format_score(float(now[j]))])
        notes = []
        if before is not None:
            same = np.allclose(before, now, rtol=0, atol=1e-9)
            notes.append(tr("timeline.rope.unchanged") if same else tr("timeline.rope.changed"))
        return header, rows, notes

    def figure(self) -> TableFigure | None:
        """The score table under the caption, with the turn per position it was made with;
        the explanation of why lengths stay is a paragraph, left to the page. None outside
        the dialogue sample, where the page only says where RoPE is shown."""
        if self.document.view.world != "dialogue":
            return None
        header, rows, notes = self.score_table()
        step = f"{self.step_label.text()} {self.step_box.text()} {self.step_unit.text()}"
        return TableFigure(self._caption(), header, [TableRow(row) for row in rows],
                           [False, *(True for _ in header[1:])], tr("timeline.rope.table"),
                           [step, *notes])

    def _caption(self) -> str:
        on = self.document.state.options.rope
        return tr("timeline.rope.caption", state=tr("timeline.on") if on else tr("timeline.off"))

    def _table(self, on: bool) -> str:
        """The score table as HTML, the rotated score bold, and the notes under it."""
        state, view = self.document.state, self.document.view
        header, rows, notes = self.score_table()
        lines = ["<tr>" + "".join(f"<th>{html.escape(h)}&nbsp;</th>" for h in header) + "</tr>"]
        for cells in rows:
            shown = [html.escape(cells[0]), *cells[1:-1], f"<b>{cells[-1]}</b>"]
            lines.append("<tr>" + "".join(f"<td align=center>{c}</td>" for c in shown) + "</tr>")
        if on:
            notes.append(tr("timeline.rope.keeps",
                            q_len=format_score(float(np.linalg.norm(view.q[0]))),
                            step=format_number(state.options.rope_step, STEP_DECIMALS)))
        text = "".join(f"<p>{html.escape(note)}</p>" for note in notes)
        caption = html.escape(tr("timeline.rope.table"))
        return f"<p>{caption}</p><table cellspacing=4>{''.join(lines)}</table>{text}"
