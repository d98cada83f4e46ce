"""Owns the heatmap's scale mode: random Q, K up to T = 4096 computed by its own background
worker, the request sent per real change, the faded older picture while a new one is made,
and the finished picture drawn into the canvas; its two lines go out as signals."""

from __future__ import annotations

from PySide6 import QtGui
from PySide6.QtCore import QObject, Signal

from app.i18n import tr
from app.model.scale import ScaleRequest, ScaleResult, downsample_factor
from app.model.scoring import SCORERS
from app.state.document import Document
from app.state.scale_worker import ScaleWorker
from app.ui.format import format_bytes
from app.ui.look import diverging_map, sequential_map
from app.ui.panels.heatmap.canvas import HeatmapCanvas
from app.ui.panels.heatmap.large import causal_triangle
from app.ui.panels.heatmap.readout import PERCENT


def _meaning(request: ScaleRequest) -> tuple[str, str, bool]:
    """What a scale picture shows: another seed or size is the same kind of picture (a drag
    redraws it many times a second), another scorer or mode is not, and must not pass for it."""
    return request.scorer, request.mode, request.causal


class ScaleMode(QObject):
    """Scale mode's request, its stale picture and the finished one, for one canvas."""

    info_changed = Signal(str)
    """The size line under the plot: computing, the finished picture's cost, or a failure."""
    readout_changed = Signal(str)
    """The readout line: the scorer being computed, or the finished picture's seed."""
    drawn = Signal()
    """A finished picture is on the canvas (with both lines said): they may need refitting."""

    def __init__(self, document: Document, canvas: HeatmapCanvas,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.canvas = canvas
        self.worker = ScaleWorker(self)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(
            lambda why: self.info_changed.emit(tr("heatmap.scale_failed", reason=why)))
        self.result: ScaleResult | None = None
        """The newest finished picture (shown, or faded while the next is computed)."""
        self.stale = False
        """An older picture is shown while the new one is computed."""
        self._requested: ScaleRequest | None = None  # the newest request sent to the worker
        self._drawn: ScaleResult | None = None
        """The result last drawn into the canvas: a resize that asks for the same picture
        while it is still shown draws nothing."""

    def show(self) -> None:
        """Ask the worker for the picture at this view size; one request per real change."""
        canvas, state = self.canvas, self.document.state
        options = state.options
        canvas.hide_outlines()
        canvas.cells.clear()
        canvas.cells.spotlight(None, (0, 0))
        canvas.cells.fit_scale_axes(options.scale_T)
        T = options.scale_T
        try:
            target = -(-T // downsample_factor(T, canvas.view_px()))
            request = ScaleRequest(T=T, d=options.scale_d, seed=options.scale_seed,
                                   scorer=state.scorer, mode=options.heatmap_mode,
                                   causal=options.causal, target_px=target)
        except (TypeError, ValueError) as error:
            self.info_changed.emit(tr("heatmap.scale_failed", reason=str(error)))
            return
        if request != self._requested:
            self._requested = request
            self.worker.request(request)
            shown = self.result
            self._mark_stale(shown is not None and _meaning(shown.request) != _meaning(request))
            if shown is None or (shown.request.T, shown.request.d) != (request.T, request.d):
                # a new seed or scorer keeps the size line, which still holds: flipping it to
                # "computing" and back would resize the plot (and redraw its axes) twice
                self.info_changed.emit(tr("heatmap.computing", T=f"{request.T:,}"))
        elif (self.result is not None and self.result.request == request
              and not (self._drawn is self.result and self.canvas.image.isVisible())):
            self._on_finished(self.result)  # back from the lesson's grid: draw it again

    def cancel(self) -> None:
        """Scale mode is off: stop the running job; the next `show` asks afresh."""
        self.worker.cancel()
        self._requested = None

    def _mark_stale(self, stale: bool) -> None:
        """While the new picture is computed (up to a minute at T = 4,096) the old one stays,
        faded, and the readout names the scorer being computed, so the old scorer's picture
        never passes for the new one's."""
        self.stale = stale
        self.canvas.fade_image(stale)
        if stale and self._requested is not None:  # (stale only ever after a request)
            self.readout_changed.emit(tr("heatmap.scale_pending",
                                         scorer=tr(f"scorer.{self._requested.scorer}")))

    def _on_finished(self, result: ScaleResult) -> None:
        self.result = result
        request = result.request
        if not self.document.state.options.scale_mode:
            return
        self._mark_stale(False)
        cmap = sequential_map() if request.mode == "weights" else (
            diverging_map() if SCORERS[request.scorer].signed else sequential_map())
        unit = PERCENT if request.mode == "weights" else 1.0
        levels = (result.levels[0] * unit, result.levels[1] * unit)
        self.canvas.show_image(result.image * unit, levels)
        self.canvas.show_colorbar(True)
        label = "%" if self.document.state.options.heatmap_mode == "weights" else ""
        self.canvas.set_scale(result.image.shape, levels, cmap, result.factor, label)
        self.canvas.set_mask_path(causal_triangle(request.T, request.T) if request.causal
                                  else QtGui.QPainterPath())
        cost = result.cost
        self.info_changed.emit(tr("heatmap.scale_info", T=f"{cost.T:,}", d=request.d,
                                  pairs=f"{cost.pairs:,}", bytes=format_bytes(cost.score_bytes),
                                  additive=format_bytes(cost.additive_bytes),
                                  pixels=result.image.shape[0], factor=result.factor))
        self.readout_changed.emit(tr("heatmap.scale_readout", seed=request.seed))
        self._drawn = result
        self.drawn.emit()

