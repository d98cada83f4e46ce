"""Owns what the heatmap says about one cell and how a student points at it: the number a
cell prints, the readout line under the plot (the hovered or selected pair), and the pointer,
an event filter on the canvas that turns the mouse and arrow keys into hovered and picked
cells (the panel decides what picking does)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import numpy as np
from PySide6 import QtGui
from PySide6.QtCore import QEvent, QObject, QPointF, Qt, Signal

from app.i18n import tr
from app.model.scoring import SCORERS
from app.model.state import LabState
from app.model.view import View
from app.ui.format import format_percent, format_score, pair_formula, shown_name
from app.ui.panels.heatmap.choices import weights_formula

if TYPE_CHECKING:
    from pyqtgraph.GraphicsScene.mouseEvents import MouseClickEvent  # untyped: documents it

    from app.ui.panels.heatmap.canvas import HeatmapCanvas

PERCENT = 100.0
"""Weights are drawn and printed in percent, as the lesson quotes them (32.5 %)."""
STEPS = {Qt.Key.Key_Left: (0, -1), Qt.Key.Key_Right: (0, 1),
         Qt.Key.Key_Up: (-1, 0), Qt.Key.Key_Down: (1, 0)}
"""Arrow keys move the selected cell: left/right change the key, up/down the query."""


def _decimals(shape: tuple[int, int]) -> int:
    return 2 if max(shape) <= 6 else 1


def _score_text(value: float | None, decimals: int) -> str:
    """Rounded first: rounding noise prints as 0, not 6e−17; None (masked) is undefined."""
    return format_score(None if value is None else round(value, decimals), decimals)


def _weight_text(weight: float) -> str:
    return "0" if weight == 0 else "100" if weight >= 0.9995 else f"{PERCENT * weight:.1f}"


def cell_text(state: LabState, view: View, embeddings: bool, shape: tuple[int, int],
              row: int, col: int) -> str:
    """The number a cell of the `shape` matrix prints: "—" undefined, "−∞" masked score,
    percent weights; `embeddings` when the embeddings' cosine is on screen."""
    decimals = _decimals(shape)
    if embeddings:
        assert view.embeddings is not None  # on screen only when the view has them
        value = view.embeddings.cos[row, col]
        return _score_text(None if value is np.ma.masked else float(value), decimals)
    if state.options.heatmap_mode == "weights":
        return _weight_text(float(view.weights[row, col]))
    if not view.allowed[row, col]:
        return "−∞"
    value = view.active[row, col]
    return _score_text(None if value is np.ma.masked else float(value), decimals)


def cell_texts(state: LabState, view: View, embeddings: bool,
               shape: tuple[int, int]) -> list[list[str]]:
    """`cell_text` of every cell of a `shape` matrix, [row][column], read from the arrays
    in one pass (a drag step prints every cell again; one lookup per cell cost more than
    the rest of the heatmap's refresh)."""
    decimals = _decimals(shape)
    if state.options.heatmap_mode == "weights" and not embeddings:
        return [[_weight_text(weight) for weight in line] for line in view.weights.tolist()]
    if embeddings:
        assert view.embeddings is not None  # on screen only when the view has them
        matrix = view.embeddings.cos
    else:
        matrix = view.active
    allowed = (np.ones(shape, dtype=bool) if embeddings else view.allowed).tolist()
    return [["−∞" if not free else _score_text(None if masked else value, decimals)
             for value, masked, free in zip(values, masks, frees, strict=True)]
            for values, masks, frees in zip(np.ma.getdata(matrix).astype(np.float64).tolist(),
                                             np.ma.getmaskarray(matrix).tolist(), allowed,
                                             strict=True)]


def readout_text(state: LabState, view: View, embeddings: bool, cell: tuple[int, int],
                 text_of: Callable[[int, int], str]) -> str:
    """The line under the plot for one cell: its formula, its value as the cell prints it
    (`text_of`), and why it has none when it has none."""
    row, col = cell
    query, key = shown_name(view.query_names[row]), shown_name(view.key_names[col])
    if embeddings:
        formula, value = f"cos(e_{query}, e_{key})", text_of(row, col)
    elif state.options.heatmap_mode == "weights":
        formula = weights_formula(state, query, key)
        value = format_percent(float(view.weights[row, col]))
    else:
        formula = pair_formula(SCORERS[state.scorer].formula, query, key)
        value = text_of(row, col)
    note = "   " + tr("heatmap.masked_note") if not view.allowed[row, col] else (
        "   " + tr("heatmap.undefined_note") if value == "—" else "")
    return tr("heatmap.readout", formula=formula, value=value) + note


class CellPointer(QObject):
    """The mouse over the canvas and the arrow keys on it, as cells of the grid shown."""

    picked = Signal(int, int)
    """(row, column): a cell was clicked, or an arrow key stepped to it from the selection."""
    hovered = Signal(object)
    """The cell under the pointer, (row, column), or None once it left the grid."""

    def __init__(self, canvas: HeatmapCanvas, selected: Callable[[], tuple[int, int]],
                 parent: QObject | None = None) -> None:
        """`selected` says where the arrow keys start: read at each key, since a second key
        may come before the first one's change has been shown."""
        super().__init__(parent)
        self._canvas = canvas
        self._selected = selected
        self._shape: tuple[int, int] | None = None
        self.hover: tuple[int, int] | None = None
        """The cell under the pointer, if any."""
        canvas.graphics.installEventFilter(self)
        scene = canvas.graphics.scene()
        scene.sigMouseClicked.connect(self._on_clicked)
        scene.sigMouseMoved.connect(self._on_moved)

    def set_grid(self, shape: tuple[int, int] | None) -> None:
        """The grid pointed at; None: none (scale mode's picture has no pairs to pick). A
        grid of another shape forgets the hovered cell (it may no longer exist)."""
        if shape != self._shape:
            self.hover = None
        self._shape = shape

    def _cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        return None if self._shape is None else self._canvas.cell_at(scene_pos, self._shape)

    def _on_clicked(self, event: MouseClickEvent) -> None:
        cell = self._cell_at(event.scenePos())
        if cell is not None:
            event.accept()
            self.picked.emit(*cell)

    def _on_moved(self, scene_pos: QPointF) -> None:
        if (cell := self._cell_at(scene_pos)) != self.hover:
            self.hover = cell
            self.hovered.emit(cell)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._canvas.graphics and event.type() == QEvent.Type.Leave:
            self.hover = None
            self.hovered.emit(None)
        if watched is self._canvas.graphics and event.type() == QEvent.Type.KeyPress:
            return self._on_key(cast(QtGui.QKeyEvent, event))  # a KeyPress event
        return super().eventFilter(watched, event)

    def _on_key(self, event: QtGui.QKeyEvent) -> bool:
        step = STEPS.get(Qt.Key(event.key()))
        if step is None or self._shape is None:
            return False
        (row, col), (rows, cols) = self._selected(), self._shape
        self.picked.emit(min(max(row + step[0], 0), rows - 1),
                         min(max(col + step[1], 0), cols - 1))
        return True
