"""Owns the score-matrix heatmap: queries × keys, scores or softmax weights, the causal mask,
cell values, hover readout, click-to-select, and scale mode (random Q, K up to T = 4096).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, QSignalBlocker, QSize, Qt

from app.i18n import tr
from app.model.nice import HeldRange
from app.model.scale import SCALE_TS, ScaleRequest, ScaleResult, downsample_factor, score_levels
from app.model.scoring import SCORERS
from app.state.document import Document
from app.state.scale_worker import ScaleWorker
from app.ui.fonts import READING, chrome_font, restrain
from app.ui.format import (
    format_bytes,
    format_percent,
    format_score,
    pair_formula,
    token_glosses,
    with_gloss,
)
from app.ui.look import diverging_map, sequential_map
from app.ui.panels.base import Panel
from app.ui.panels.heatmap.cells import CellLayer
from app.ui.panels.heatmap.fit import ROOMY_PLOT_HEIGHT, fit_colorbar, fit_lines
from app.ui.widgets.live_label import LiveLabel

NO_VALUE = {"light": "#D9D9D9", "dark": "#3C3C3C"}
"""Cells without a number (undefined cosine, masked score) show the background in this grey."""
MIN_PLOT_HEIGHT = 60
"""Pixels at 100 %: the plot gives way first in a short dock, the readout lines never."""
PERCENT = 100.0
"""Weights are drawn and printed in percent, as the lesson quotes them (32.5 %)."""
STALE_OPACITY = 0.3
"""Scale mode's previous picture, faded while the one for the new request is computed."""


def _meaning(request: ScaleRequest) -> tuple[str, str, bool]:
    """What a scale picture shows: another seed or size is the same kind of picture (a drag
    redraws it many times a second), another scorer or mode is not, and must not pass for it."""
    return request.scorer, request.mode, request.causal


class HeatmapPanel(Panel):
    """Rows are queries, columns are keys; clicking a cell selects that pair everywhere."""

    name = "heatmap"
    title_key = "heatmap.title"

    def __init__(self, document: Document, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.worker = ScaleWorker(self)
        self.worker.finished.connect(self._on_scale_finished)
        self.worker.failed.connect(lambda why: self.info.setText(tr("heatmap.scale_failed",
                                                                       reason=why)))
        self.scale_result: ScaleResult | None = None
        self.stale = False  # scale mode shows an older picture while the new one is computed
        self._requested: ScaleRequest | None = None  # the newest request sent to the worker
        self._hover: tuple[int, int] | None = None
        self._values = np.zeros((0, 0))  # the matrix shown, for hover and keys
        self._mask: np.ndarray | None = None  # the hatched cells' mask, None: scale mode's
        self._extent: tuple[int, int, int] | None = None  # rows, columns, downsampling
        # during a drag the colour scale only widens: cells keep their colours unless a score
        # outgrows the bar; it refits when the drag ends (`gesture_finished`)
        self._levels = HeldRange()
        self._build_controls()
        self._build_plot()
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self._controls)
        layout.addWidget(self.graphics, 1)
        for label in (self.readout, self.info):
            layout.addWidget(label.holder)
        self.apply_look()
        self.retranslate()

    def _build_controls(self) -> None:
        self.scores_button = QtWidgets.QPushButton(objectName="heatmap_scores", checkable=True)
        self.weights_button = QtWidgets.QPushButton(objectName="heatmap_weights", checkable=True)
        self._modes = QtWidgets.QButtonGroup(self)
        for index, button in enumerate((self.scores_button, self.weights_button)):
            self._modes.addButton(button, index)
        self._modes.idClicked.connect(
            lambda index: self.document.set_options(heatmap_mode=("scores", "weights")[index]))
        self.causal_box = QtWidgets.QCheckBox(objectName="heatmap_causal")
        self.causal_box.toggled.connect(lambda on: self.document.set_options(causal=on))
        self.scale_box = QtWidgets.QCheckBox(objectName="heatmap_scale")
        self.scale_box.toggled.connect(lambda on: self.document.set_options(scale_mode=on))
        self.t_combo = QtWidgets.QComboBox(objectName="heatmap_scale_t")
        self.t_combo.addItems([f"T = {t:,}" for t in SCALE_TS])
        self.t_combo.currentIndexChanged.connect(
            lambda i: i >= 0 and self.document.set_options(scale_T=SCALE_TS[i]))
        for widget in (self.scores_button, self.weights_button, self.causal_box,
                       self.scale_box, self.t_combo):
            restrain(widget)  # past 150 % the zoom goes to the cells, not the buttons
        self._controls = QtWidgets.QVBoxLayout()
        for widgets in ((self.scores_button, self.weights_button, self.causal_box),
                        (self.scale_box, self.t_combo)):
            row = QtWidgets.QHBoxLayout()
            for widget in widgets:
                row.addWidget(widget)
            row.addStretch(1)
            self._controls.addLayout(row)
        self.readout = LiveLabel("heatmap_readout")
        self.readout.setTextFormat(Qt.TextFormat.PlainText)
        self.info = LiveLabel("heatmap_info")

    def _build_plot(self) -> None:
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("heatmap_graphics")
        self.graphics.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.graphics.installEventFilter(self)
        self.plot = self.graphics.addPlot()
        self.plot.invertY(True)
        self.plot.setMouseEnabled(False, False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.showAxes((True, True, False, False), showValues=(True, True, False, False))
        self.image = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self.colorbar = pg.ColorBarItem(values=(-1.0, 1.0), colorMap=diverging_map(),
                                        interactive=False, colorMapMenu=False, width=18)
        self.colorbar.setImageItem(self.image, insert_in=self.plot)
        # below the image: grey for cells with no number; above: hatching, row/column, cell
        self.backdrop, self.mask_item = QtWidgets.QGraphicsRectItem(), QtWidgets.QGraphicsPathItem()
        self.band_under, self.band_over, self.cell_box, self.cell_inner = (
            QtWidgets.QGraphicsPathItem() for _ in range(4))
        self._outlines = (self.band_under, self.band_over, self.cell_box, self.cell_inner)
        for z, item in ((-10, self.backdrop), (5, self.mask_item), *enumerate(self._outlines, 20)):
            item.setZValue(z)
            self.plot.addItem(item)
        scene = self.graphics.scene()
        scene.sigMouseClicked.connect(self._on_clicked)
        scene.sigMouseMoved.connect(self._on_moved)
        self.plot.vb.sigResized.connect(self._on_view_resized)
        self.cells = CellLayer(self.plot)

    def apply_look(self) -> None:
        look, theme = self.look, self.look.theme
        self.graphics.setBackground(theme.background)
        self.graphics.setMinimumHeight(int(look.px(MIN_PLOT_HEIGHT)))
        self.backdrop.setBrush(QtGui.QColor(NO_VALUE.get(theme.name, NO_VALUE["light"])))
        for side in ("left", "top"):
            axis = self.plot.getAxis(side)
            axis.enableAutoSIPrefix(False)  # token indices, never "×0.001"
            axis.setTextPen(theme.foreground)
            axis.setPen(theme.foreground)
            axis.label.setFont(chrome_font(READING))  # the cells get the zoom's room
        self.cells.set_look(look)  # the tick names' font, fitted with the cells
        fit_colorbar(self.colorbar, self.plot.vb.height())
        self.colorbar.axis.setTextPen(theme.foreground)
        self.mask_item.setBrush(QtGui.QBrush(QtGui.QColor(theme.muted), Qt.BrushStyle.BDiagPattern))
        for item in (self.backdrop, self.mask_item):
            item.setPen(QtGui.QPen(Qt.PenStyle.NoPen))
        for item, colour, width, style in (
            (self.band_under, "#FFFFFF", 3, Qt.PenStyle.SolidLine),
            (self.band_over, "#000000", 3, Qt.PenStyle.DashLine),
            (self.cell_box, "#000000", 6, Qt.PenStyle.SolidLine),
            (self.cell_inner, "#FFFFFF", 2.5, Qt.PenStyle.SolidLine),
        ):
            pen = QtGui.QPen(QtGui.QColor(colour), look.px(width), style)
            pen.setCosmetic(True)
            item.setPen(pen)

    def retranslate(self) -> None:
        self.scores_button.setText(tr("heatmap.mode_scores"))
        self.weights_button.setText(tr("heatmap.mode_weights"))
        self.causal_box.setText(tr("heatmap.causal"))
        self.scale_box.setText(tr("heatmap.scale"))
        self.t_combo.setToolTip(tr("heatmap.scale_t_tip"))
        self.plot.getAxis("left").setLabel(tr("heatmap.query_axis"))
        self.plot.getAxis("top").setLabel(tr("heatmap.key_axis"))
        self.cells.fit_axes()  # the titles' height differs between languages
        self.refresh()

    def refresh(self) -> None:
        self._sync_controls()
        if self.document.state.options.scale_mode:
            self._show_scale()
        else:
            self.worker.cancel()
            self._requested = None
            self._show_lesson()
        self._fit_lines()

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_lines()

    def _fit_lines(self) -> None:
        layout, margins = self.layout(), self.layout().contentsMargins()
        room = (self.height() - self._controls.sizeHint().height() - margins.top()
                - margins.bottom() - 3 * layout.spacing())
        fit_lines(self.readout, self.info, self.document.state.options.scale_mode,
                  self.width() - margins.left() - margins.right(), room,
                  self.graphics.minimumHeight(), self.look.px(ROOMY_PLOT_HEIGHT))

    def sizeHint(self) -> QSize:
        """Modest, so the term-by-term dock below gets room at 1280×720; it grows from there."""
        return QSize(int(self.look.px(480)), int(self.look.px(330)))

    def _sync_controls(self) -> None:
        options = self.document.state.options
        mode = options.heatmap_mode
        for widget, checked in ((self.scores_button, mode == "scores"),
                                (self.weights_button, mode == "weights"),
                                (self.causal_box, options.causal),
                                (self.scale_box, options.scale_mode)):
            with QSignalBlocker(widget):
                widget.setChecked(checked)
        with QSignalBlocker(self.t_combo):
            self.t_combo.setCurrentIndex(
                SCALE_TS.index(options.scale_T) if options.scale_T in SCALE_TS else -1)
        self.causal_box.setEnabled(self.document.state.world == "teaching" or options.scale_mode)
        self.t_combo.setEnabled(options.scale_mode)

    def _show_lesson(self) -> None:
        view, state = self.document.view, self.document.state
        if state.options.heatmap_mode == "weights":
            values, levels, signed = PERCENT * view.weights, (0.0, PERCENT), False
        else:
            values = np.ma.filled(view.active.astype(np.float64), np.nan)
            values[~view.allowed] = np.nan  # a masked score is −∞: no colour, hatched
            levels, signed = score_levels(state.scorer, values), SCORERS[state.scorer].signed
        levels = self._levels.fit(levels, (state.scorer, state.options.heatmap_mode,
                                           values.shape), hold=self.document.dragging)
        self._hover = self._hover if values.shape == self._values.shape else None
        self._values = values
        cmap = diverging_map() if signed else sequential_map()
        self._set_scale(values.shape, levels, cmap, factor=1)
        self.image.setVisible(False)  # the cell grid paints the colours (and far faster)
        rows, cols = values.shape
        glosses = token_glosses(self.document.data)  # English: the meaning beside each row
        self.cells.set_token_axes({  # (only the rows: glossed column names would collide)
            "left": [with_gloss(name, glosses) for name in view.query_names],
            "top": list(view.key_names)})
        self._set_lesson_mask(view.allowed)
        self._show_colorbar(not self.cells.paint(values, levels, cmap, self._cell_text))
        self.cells.spotlight((state.query, state.key), values.shape)
        bands, cell = QtGui.QPainterPath(), QtGui.QPainterPath()
        bands.addRect(QRectF(-0.5, state.query - 0.5, cols, 1))
        bands.addRect(QRectF(state.key - 0.5, -0.5, 1, rows))
        cell.addRect(QRectF(state.key - 0.5, state.query - 0.5, 1, 1))
        for item, outline in zip(self._outlines, (bands, bands, cell, cell), strict=True):
            item.setPath(outline)
            item.setVisible(outline is cell or not self.look.spotlight)  # one pair, no bands
        self.info.setText(tr("heatmap.lesson_info", rows=rows, cols=cols, pairs=rows * cols))
        self._update_readout()

    def _set_lesson_mask(self, allowed: np.ndarray) -> None:
        """Hatch the cells the causal mask removes (redrawn only when the mask changes)."""
        mask = ~allowed
        if np.array_equal(mask, self._mask):
            return
        self._mask = mask
        path = QtGui.QPainterPath()
        for row, col in zip(*np.nonzero(mask), strict=True):
            path.addRect(QRectF(col - 0.5, row - 0.5, 1.0, 1.0))
        self.mask_item.setPath(path)

    def _set_scale(self, shape: tuple[int, int], levels: tuple[float, float],
                   cmap: pg.ColorMap, factor: int) -> None:
        """The colour bar, its label and the view range, each only when it changes: every one
        of them makes pyqtgraph regenerate an axis (a few ms per drag step)."""
        if cmap.name != self.colorbar.colorMap().name:  # re-colouring the bar costs a frame
            self.colorbar.setColorMap(cmap)
        unit = "%" if self.document.state.options.heatmap_mode == "weights" else ""
        if self.colorbar.axis.labelText != unit:
            self.colorbar.axis.setLabel(unit)
        if tuple(self.colorbar.levels()) != tuple(levels):
            self.colorbar.setLevels(levels)
        rows, cols = shape[0] * factor, shape[1] * factor
        extent = (rows, cols, factor)
        if extent != self._extent:
            self._extent = extent
            self.backdrop.setRect(QRectF(-0.5, -0.5, cols, rows))
            self.image.setTransform(
                QtGui.QTransform().translate(-0.5, -0.5).scale(factor, factor))
            self.plot.vb.setRange(xRange=(-0.5, cols - 0.5), yRange=(-0.5, rows - 0.5),
                                  padding=0)

    def _show_colorbar(self, on: bool) -> None:
        """The colour bar only where no cell prints its number (scale mode, a long sequence):
        there it is the only key to the colours; beside printed numbers it repeats them, and
        its room is better spent on larger cells."""
        if on == self.colorbar.isVisible():
            return
        if on:
            self.plot.layout.addItem(self.colorbar, 2, 5)
        else:
            self.plot.layout.removeItem(self.colorbar)
        self.colorbar.setVisible(on)

    def _cell_text(self, row: int, col: int) -> str:
        """The number printed in a cell: "—" undefined, "−∞" masked score, percent weights."""
        view, options = self.document.view, self.document.state.options
        decimals = 2 if max(self._values.shape) <= 6 else 1
        if options.heatmap_mode == "weights":
            weight = float(view.weights[row, col])
            return "0" if weight == 0 else "100" if weight >= 0.9995 else f"{PERCENT * weight:.1f}"
        if not view.allowed[row, col]:
            return "−∞"
        value = view.active[row, col]  # rounded first: rounding noise prints as 0, not 6e−17
        return format_score(None if value is np.ma.masked else round(float(value), decimals),
                            decimals)

    def _update_readout(self) -> None:
        if self.document.state.options.scale_mode:
            return
        view, state = self.document.view, self.document.state
        row, col = self._hover or (state.query, state.key)
        query, key = view.query_names[row], view.key_names[col]
        if state.options.heatmap_mode == "weights":
            formula = f"softmax(q_{query}·K/√d)[{key}]"
            value = format_percent(float(view.weights[row, col]))
        else:
            formula = pair_formula(SCORERS[state.scorer].formula, query, key)
            value = self._cell_text(row, col)
        note = "   " + tr("heatmap.masked_note") if not view.allowed[row, col] else (
            "   " + tr("heatmap.undefined_note") if value == "—" else "")
        self.readout.setText(tr("heatmap.readout", formula=formula, value=value) + note)

    def _show_scale(self) -> None:
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

    def _mark_stale(self, stale: bool) -> None:
        """While the new picture is computed (up to a minute at T = 4,096) the old one stays,
        faded, and the readout names the scorer being computed, so the old scorer's picture
        never passes for the new one's."""
        self.stale = stale
        self.image.setOpacity(STALE_OPACITY if stale else 1.0)
        if stale:
            self.readout.setText(tr("heatmap.scale_pending",
                                    scorer=tr(f"scorer.{self._requested.scorer}")))

    def _on_scale_finished(self, result: ScaleResult) -> None:
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

    def _on_view_resized(self) -> None:
        """Cell labels refit to the new cell size; scale mode asks for a fitting picture."""
        fit_colorbar(self.colorbar, self.plot.vb.height())
        if self.document.state.options.scale_mode:
            self._show_scale()
        else:
            self.cells.fit()

    def _cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        if self.document.state.options.scale_mode:
            return None
        point = self.plot.vb.mapSceneToView(scene_pos)  # the view range is exactly the matrix
        row, col = round(point.y()), round(point.x())
        rows, cols = self._values.shape
        return (row, col) if 0 <= row < rows and 0 <= col < cols else None

    def _on_clicked(self, event: object) -> None:
        cell = self._cell_at(event.scenePos())
        if cell is not None:
            event.accept()
            self.document.select(query=cell[0], key=cell[1])

    def _on_moved(self, scene_pos: QPointF) -> None:
        if (cell := self._cell_at(scene_pos)) != self._hover:
            self._hover = cell
            self._update_readout()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.graphics and event.type() == QEvent.Type.Leave:
            self._hover = None
            self._update_readout()
        if watched is self.graphics and event.type() == QEvent.Type.KeyPress:
            return self._on_key(event)
        return super().eventFilter(watched, event)

    def _on_key(self, event: QtGui.QKeyEvent) -> bool:
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

