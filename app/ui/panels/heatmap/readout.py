"""Owns what the heatmap says about one cell and how a student points at it: the number a
cell prints, the readout line under the plot (the hovered or selected pair), and the mouse
and keys that hover and select cells. A mixin of HeatmapPanel, which holds the state."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6 import QtGui
from PySide6.QtCore import QEvent, QObject, QPointF, Qt

from app.i18n import tr
from app.model.scoring import SCORERS
from app.ui.format import format_percent, format_score, name_tip, pair_formula, shown_name
from app.ui.panels.heatmap.choices import weights_formula

if TYPE_CHECKING:
    from app.ui.panels.heatmap.panel import HeatmapPanel

PERCENT = 100.0
"""Weights are drawn and printed in percent, as the lesson quotes them (32.5 %)."""


class CellReadout:
    """The cells' numbers, the readout line, hover and selection by mouse and arrow keys."""

    def _cell_text(self: HeatmapPanel, row: int, col: int) -> str:
        """The number printed in a cell: "—" undefined, "−∞" masked score, percent weights."""
        view, options = self.document.view, self.document.state.options
        decimals = 2 if max(self._values.shape) <= 6 else 1
        if self.choices.shows_embeddings(self.document.state, view):
            return format_score(round(float(view.embeddings.cos[row, col]), decimals), decimals)
        if options.heatmap_mode == "weights":
            weight = float(view.weights[row, col])
            return "0" if weight == 0 else "100" if weight >= 0.9995 else f"{PERCENT * weight:.1f}"
        if not view.allowed[row, col]:
            return "−∞"
        value = view.active[row, col]  # rounded first: rounding noise prints as 0, not 6e−17
        return format_score(None if value is np.ma.masked else round(float(value), decimals),
                            decimals)

    def _update_readout(self: HeatmapPanel) -> None:
        if self.document.state.options.scale_mode:
            return
        view, state = self.document.view, self.document.state
        row, col = self._hover or (state.query, state.key)
        query, key = shown_name(view.query_names[row]), shown_name(view.key_names[col])
        if self.choices.shows_embeddings(state, view):
            formula, value = f"cos(e_{query}, e_{key})", self._cell_text(row, col)
        elif state.options.heatmap_mode == "weights":
            formula = weights_formula(state, query, key)
            value = format_percent(float(view.weights[row, col]))
        else:
            formula = pair_formula(SCORERS[state.scorer].formula, query, key)
            value = self._cell_text(row, col)
        note = "   " + tr("heatmap.masked_note") if not view.allowed[row, col] else (
            "   " + tr("heatmap.undefined_note") if value == "—" else "")
        self.readout.setText(tr("heatmap.readout", formula=formula, value=value) + note)
        # on the holder: the line's own tooltip is fit_lines' (the line it had to hide)
        self.readout.holder.setToolTip(name_tip(view.query_names[row], view.key_names[col]))

    def _cell_at(self: HeatmapPanel, scene_pos: QPointF) -> tuple[int, int] | None:
        if self.document.state.options.scale_mode:
            return None
        point = self.plot.vb.mapSceneToView(scene_pos)  # the view range is exactly the matrix
        row, col = round(point.y()), round(point.x())
        rows, cols = self._values.shape
        return (row, col) if 0 <= row < rows and 0 <= col < cols else None

    def _on_clicked(self: HeatmapPanel, event: object) -> None:
        cell = self._cell_at(event.scenePos())
        if cell is not None:
            event.accept()
            self.document.select(query=cell[0], key=cell[1])

    def _on_moved(self: HeatmapPanel, scene_pos: QPointF) -> None:
        if (cell := self._cell_at(scene_pos)) != self._hover:
            self._hover = cell
            self._update_readout()

    def eventFilter(self: HeatmapPanel, watched: QObject, event: QEvent) -> bool:
        if watched is self.graphics and event.type() == QEvent.Type.Leave:
            self._hover = None
            self._update_readout()
        if watched is self.graphics and event.type() == QEvent.Type.KeyPress:
            return self._on_key(event)
        return super().eventFilter(watched, event)

    def _on_key(self: HeatmapPanel, event: QtGui.QKeyEvent) -> bool:
        """Arrow keys move the selected cell: left/right change the key, up/down the query."""
        steps = {Qt.Key.Key_Left: (0, -1), Qt.Key.Key_Right: (0, 1),
                 Qt.Key.Key_Up: (-1, 0), Qt.Key.Key_Down: (1, 0)}
        step = steps.get(Qt.Key(event.key()))
        if step is None or self.document.state.options.scale_mode:
            return False
        state, (rows, cols) = self.document.state, self._values.shape
        self.document.select(query=min(max(state.query + step[0], 0), rows - 1),
                             key=min(max(state.key + step[1], 0), cols - 1))
        return True
