"""Owns the heatmap's scale mode: random Q, K up to T = 4096 computed by a background
worker, the request sent per real change, the faded older picture while a new one is made,
and the finished picture with its size line. A mixin of HeatmapPanel, which holds the state."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6 import QtGui
from PySide6.QtCore import QPointF

from app.i18n import tr
from app.model.scale import ScaleRequest, ScaleResult, downsample_factor
from app.model.scoring import SCORERS
from app.ui.format import format_bytes
from app.ui.look import diverging_map, sequential_map
from app.ui.panels.heatmap.readout import PERCENT

if TYPE_CHECKING:
    from app.ui.panels.heatmap.panel import HeatmapPanel

STALE_OPACITY = 0.3
"""Scale mode's previous picture, faded while the one for the new request is computed."""


def _meaning(request: ScaleRequest) -> tuple[str, str, bool]:
    """What a scale picture shows: another seed or size is the same kind of picture (a drag
    redraws it many times a second), another scorer or mode is not, and must not pass for it."""
    return request.scorer, request.mode, request.causal


class ScaleMode:
    """Scale mode's request, its stale picture and the finished one."""

    def _show_scale(self: HeatmapPanel) -> None:
        """Ask the worker for the picture at this view size; one request per real change."""
        for item in self._outlines:  # the selection belongs to the lesson's tokens
            item.setVisible(False)
        self.cells.paint(np.zeros((0, 0)), (0.0, 1.0), sequential_map(), self._cell_text)
        self.cells.spotlight(None, (0, 0))
        state, options = self.document.state, self.document.state.options
        self.cells.fit_scale_axes(options.scale_T)
        T, view_px = options.scale_T, max(self.plot.vb.width(), self.plot.vb.height(), 64)
        try:
            target = -(-T // downsample_factor(T, int(view_px * self.devicePixelRatioF())))
            request = ScaleRequest(T=T, d=options.scale_d, seed=options.scale_seed,
                                   scorer=state.scorer, mode=options.heatmap_mode,
                                   causal=options.causal, target_px=target)
        except (TypeError, ValueError) as error:
            self.info.setText(tr("heatmap.scale_failed", reason=str(error)))
            return
        if request != self._requested:
            self._requested = request
            self.worker.request(request)
            shown = self.scale_result
            self._mark_stale(shown is not None and _meaning(shown.request) != _meaning(request))
            if shown is None or (shown.request.T, shown.request.d) != (request.T, request.d):
                # a new seed or scorer keeps the size line, which still holds: flipping it to
                # "computing" and back would resize the plot (and redraw its axes) twice
                self.info.setText(tr("heatmap.computing", T=f"{request.T:,}"))
        elif self.scale_result is not None and self.scale_result.request == request:
            self._on_scale_finished(self.scale_result)

    def _mark_stale(self: HeatmapPanel, stale: bool) -> None:
        """While the new picture is computed (up to a minute at T = 4,096) the old one stays,
        faded, and the readout names the scorer being computed, so the old scorer's picture
        never passes for the new one's."""
        self.stale = stale
        self.image.setOpacity(STALE_OPACITY if stale else 1.0)
        if stale:
            self.readout.setText(tr("heatmap.scale_pending",
                                    scorer=tr(f"scorer.{self._requested.scorer}")))

    def _on_scale_finished(self: HeatmapPanel, result: ScaleResult) -> None:
        self.scale_result = result
        request = result.request
        if not self.document.state.options.scale_mode:
            return
        self._mark_stale(False)
        cmap = sequential_map() if request.mode == "weights" else (
            diverging_map() if SCORERS[request.scorer].signed else sequential_map())
        unit, self._values = (PERCENT if request.mode == "weights" else 1.0), result.image
        levels = (result.levels[0] * unit, result.levels[1] * unit)
        self.image.setImage(result.image * unit, autoLevels=False, levels=levels)
        self.image.setVisible(True)
        self._show_colorbar(True)
        self._set_scale(result.image.shape, levels, cmap, result.factor)
        path = QtGui.QPainterPath()
        if request.causal:
            T = request.T
            path.addPolygon(QtGui.QPolygonF([QPointF(0.5, -0.5), QPointF(T - 0.5, -0.5),
                                       QPointF(T - 0.5, T - 1.5), QPointF(0.5, -0.5)]))
        self.mask_item.setPath(path)
        self._mask = None
        cost = result.cost
        self.info.setText(tr("heatmap.scale_info", T=f"{cost.T:,}", d=request.d,
                             pairs=f"{cost.pairs:,}", bytes=format_bytes(cost.score_bytes),
                             additive=format_bytes(cost.additive_bytes),
                             pixels=result.image.shape[0], factor=result.factor))
        self.readout.setText(tr("heatmap.scale_readout", seed=request.seed))
        self._fit_lines()
