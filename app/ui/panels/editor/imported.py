"""Owns the vector editor's page for the imported world: the selected pair's q and k.

A capture has up to 1024 dimensions and 4096 tokens, so a bar chart per token (the 4-D page)
cannot work. This page shows the selected query's q and key's k only, as bars over the
dimensions that move their dot product most (largest |qᵢ·kᵢ|, the term-by-term panel's own
choice), and a dimension box that reaches any other one. Each drag is one undo step and each
typed number one more, through the same document intent as the 4-D editor.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QGraphicsLineItem,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.capture import VALUE_LIMIT
from app.model.capture.view import largest_terms
from app.model.state import Role
from app.state.document import Document
from app.ui.fonts import READING, SMALL, emphasize
from app.ui.format import name_tip, plain_tip, shown_name
from app.ui.look import OKABE_ITO, Look
from app.ui.panels.editor.bars import BarColumns, EntryBox
from app.ui.panels.editor.charts import ROLES, ChartView
from app.ui.widgets.number_box import WholeBox

DECIMALS = 4
"""Captured entries are often a few hundredths: two decimals would hide the value dragged."""
DRAG_PLACES = 3
HEADROOM = 1.15
MIN_CHART_WIDTH = 120
OF_KEYS = {"q": "editor.imported.q_of", "k": "editor.imported.k_of"}


def shown_dims(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Dimensions to draw, in order: all of them when few, else the largest |qᵢ·kᵢ| first."""
    top = largest_terms(np.asarray(q, np.float64) * np.asarray(k, np.float64))
    return np.arange(len(q)) if top is None else top


class ImportedEditor(QWidget):
    """The selected pair's q and k of a capture, editable by dragging or typing."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("editor_imported")
        self.look = Look()
        self.dims = np.zeros(0, dtype=int)  # the dimension under each bar column
        self._reach = 0.0
        self._pair: tuple[object, ...] | None = None
        self.pair_line = QLabel(objectName="editor_imported_pair")  # type: ignore[call-overload]
        self.pair_line.setTextFormat(Qt.TextFormat.PlainText)  # token names from a file
        self.pair_line.setWordWrap(True)
        self.order_line = QLabel(objectName="editor_imported_order")  # type: ignore[call-overload]
        self.order_line.setWordWrap(True)
        self.plots: dict[str, ChartView] = {}
        self.bars: dict[str, BarColumns] = {}
        self.ticks: dict[str, list[QLabel]] = {role: [] for role in ROLES}
        self.role_labels = {role: QLabel(objectName=f"editor_imported_{role}_role")  # type: ignore[call-overload]
                            for role in ROLES}
        self._tick_rows = {role: QHBoxLayout() for role in ROLES}
        self._charts = QGridLayout()
        self._charts.setHorizontalSpacing(6)
        self._charts.setVerticalSpacing(2)
        self.dim_label = QLabel(objectName="editor_imported_dim_label")  # type: ignore[call-overload]
        self.dim_spin = WholeBox()
        self.dim_spin.setObjectName("editor_imported_dim")
        self.dim_label.setBuddy(self.dim_spin)
        self.boxes = {role: EntryBox() for role in ROLES}
        self.box_labels = {role: QLabel(f"{role}:") for role in ROLES}
        for role, box in self.boxes.items():
            box.setObjectName(f"editor_imported_{role}_entry")
            box.setRange(-VALUE_LIMIT, VALUE_LIMIT)
            box.setDecimals(DECIMALS)
            box.setSingleStep(0.01)
        self.fixed_note = QLabel(objectName="editor_imported_fixed")  # type: ignore[call-overload]
        self.fixed_note.setWordWrap(True)
        self._lay_out()
        self.dim_spin.valueChanged.connect(lambda _value: self._show_entries())
        for role, box in self.boxes.items():
            box.valueChanged.connect(lambda value, r=role: self._on_typed(r, value))

    def _lay_out(self) -> None:
        entry = QGridLayout()  # the dimension, then its q and k: narrow enough for a dock
        entry.addWidget(self.dim_label, 0, 0)
        entry.addWidget(self.dim_spin, 0, 1)
        for row, role in enumerate(ROLES, start=1):
            entry.addWidget(self.box_labels[role], row, 0)
            entry.addWidget(self.boxes[role], row, 1)
        entry.setColumnStretch(2, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(2, 2, 2, 2)
        column.setSpacing(6)
        column.addWidget(self.pair_line)
        column.addWidget(self.order_line)
        column.addLayout(self._charts)
        column.addLayout(entry)
        column.addWidget(self.fixed_note)
        column.addStretch(1)
        emphasize(self.pair_line, READING, bold=True)
        for widget in (*self.role_labels.values(), *self.box_labels.values()):
            emphasize(widget, READING, bold=True)
        for box in self.boxes.values():
            emphasize(box, READING)

    def _build_charts(self, count: int) -> None:
        """A bar chart per role with `count` columns, and a dimension number under each."""
        for role in ROLES:
            if role in self.plots:
                self._charts.removeWidget(self.plots[role])
                self.plots[role].deleteLater()
            for label in self.ticks[role]:
                self._tick_rows[role].removeWidget(label)
                label.deleteLater()
            plot = ChartView(count)
            plot.setObjectName(f"editor_imported_{role}_chart")
            plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            plot.setMinimumWidth(MIN_CHART_WIDTH)  # never wider than a projector's dock
            plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            zero = QGraphicsLineItem(-0.5, 0.0, count - 0.5, 0.0)
            zero.setPen(pg.mkPen("#777777", width=1))
            zero.setParentItem(plot.canvas)
            colour = OKABE_ITO[ROLES.index(role) + 1]
            bars = BarColumns(count, colour)
            bars.setParentItem(plot.canvas)
            bars.started.connect(self._on_drag_started)
            bars.moved.connect(lambda column, value, _free, r=role:
                               self._on_dragged(r, column, value))
            bars.finished.connect(lambda _column: self.document.end_drag())
            self.plots[role], self.bars[role] = plot, bars
            self.ticks[role] = [QLabel(alignment=Qt.AlignmentFlag.AlignCenter)
                                for _ in range(count)]
            row = self._tick_rows[role]
            row.setSpacing(0)
            row.setContentsMargins(0, 0, 0, 0)
            for label in self.ticks[role]:
                emphasize(label, SMALL)
                row.addWidget(label, 1)
            top = 3 * ROLES.index(role)
            self._charts.addWidget(self.role_labels[role], top, 0, 1, 1)
            self._charts.addWidget(plot, top + 1, 0)
            self._charts.addLayout(row, top + 2, 0)
        self.apply_look(self.look)

    # --- look and language -----------------------------------------------------------------

    def apply_look(self, look: Look) -> None:
        self.look = look
        muted = f"color: {look.theme.muted};"
        self.order_line.setStyleSheet(muted)
        self.fixed_note.setStyleSheet(muted)
        for plot in self.plots.values():
            plot.setBackground(look.theme.background)
            plot.setFixedHeight(int(look.px(48)))
        for bars in self.bars.values():
            bars.set_edge_width(look.px(2.5))
        for labels in self.ticks.values():
            for label in labels:
                label.setStyleSheet(muted)

    def retranslate(self) -> None:
        self.dim_label.setText(tr("editor.imported.dim"))
        self.fixed_note.setText(tr("editor.imported.fixed"))
        self.fixed_note.setToolTip(plain_tip(tr("editor.imported.fixed_tip")))
        self.refresh()

    # --- repaint from the document ---------------------------------------------------------

    def refresh(self) -> None:
        state = self.document.state
        capture = state.imported
        if state.world != "imported" or capture is None:
            return
        q, k = capture.queries[state.query], capture.keys[state.key]
        names = {"q": capture.query_names[state.query], "k": capture.key_names[state.key]}
        width = len(q)
        pair = (state.query, state.key, capture.source, capture.head,
                capture.queries.shape, capture.keys.shape)  # not the values: an edit keeps it
        if pair != self._pair or not len(self.dims) or self.dims.max() >= width:
            self.dims = shown_dims(q, k)  # chosen per pair: an edited bar never leaves it
        if "q" not in self.bars or len(self.bars["q"].values) != len(self.dims):
            self._build_charts(len(self.dims))
        self.pair_line.setText(tr(
            "editor.imported.pair", query=shown_name(names["q"]), qi=state.query + 1,
            tq=len(capture.queries), key=shown_name(names["k"]), ki=state.key + 1,
            tk=len(capture.keys)))
        self.pair_line.setToolTip(name_tip(names["q"], names["k"]))
        self.order_line.setText(tr("editor.imported.largest" if len(self.dims) < width
                                   else "editor.imported.all", count=len(self.dims), d=width))
        values = {"q": np.asarray(q, np.float64), "k": np.asarray(k, np.float64)}
        reach = HEADROOM * max(float(np.max(np.abs(values[r][self.dims]))) for r in ROLES)
        reach = max(reach, 1e-6)
        if not self.document.dragging or reach > self._reach:
            self._reach = reach  # a drag only grows the scale, so the bar stays under the hand
        for role in ROLES:
            self.bars[role].set_reach(self._reach)
            self.plots[role].set_reach(self._reach)
            self.bars[role].set_values(values[role][self.dims])
            self.role_labels[role].setText(tr(OF_KEYS[role], name=shown_name(names[role])))
            self.role_labels[role].setToolTip(name_tip(names[role]))
            self.plots[role].setToolTip(plain_tip(tr("editor.imported.chart_tip", role=role,
                                                     name=names[role])))
            for label, dim in zip(self.ticks[role], self.dims, strict=True):
                label.setText(str(dim + 1))
        with QSignalBlocker(self.dim_spin):
            self.dim_spin.setRange(1, width)
            if pair != self._pair:
                self.dim_spin.setValue(int(self.dims[0]) + 1)  # a new pair: its largest term
        self._pair = pair
        self.dim_spin.setToolTip(plain_tip(tr("editor.imported.dim_tip", d=width)))
        self._show_entries()

    def _show_entries(self) -> None:
        """The chosen dimension's exact q and k in the two boxes."""
        state = self.document.state
        if state.world != "imported" or state.imported is None:
            return
        dim = self.dim_spin.value() - 1
        rows = {"q": state.imported.queries[state.query], "k": state.imported.keys[state.key]}
        names = {"q": state.imported.query_names[state.query],
                 "k": state.imported.key_names[state.key]}
        for role, box in self.boxes.items():
            with QSignalBlocker(box):
                box.setValue(float(rows[role][dim]))
            box.setToolTip(plain_tip(tr("editor.entry_tip", role=role, name=names[role],
                                        dim=dim + 1, step=f"{box.singleStep():g}")))

    # --- edits -----------------------------------------------------------------------------

    def _edit(self, role: Role, dim: int, value: float) -> None:
        state = self.document.state
        if state.world != "imported" or state.imported is None:
            return
        index = state.query if role == "q" else state.key
        matrix = state.imported.queries if role == "q" else state.imported.keys
        values = np.array(matrix[index], dtype=np.float64)
        values[dim] = value
        self.document.set_vector(role, index, values)

    def _on_drag_started(self, column: int) -> None:
        with QSignalBlocker(self.dim_spin):
            self.dim_spin.setValue(int(self.dims[column]) + 1)  # its exact value shows below
        self.document.begin_drag()

    def _on_dragged(self, role: Role, column: int, value: float) -> None:
        self._edit(role, int(self.dims[column]), round(value, DRAG_PLACES))

    def _on_typed(self, role: Role, value: float) -> None:
        self._edit(role, self.dim_spin.value() - 1, value)
