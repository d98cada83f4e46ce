"""Owns the score-matrix heatmap: queries × keys, scores or softmax weights, the causal mask,
its controls, colours and outlines. What a cell says and how it is pointed at live in
readout.py; scale mode (random Q, K up to T = 4096) in scale_mode.py.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QRectF, QSignalBlocker, QSize, Qt

from app.i18n import tr
from app.model.nice import HeldRange
from app.model.scale import SCALE_TS, ScaleRequest, ScaleResult, score_levels
from app.model.scoring import SCORERS
from app.state.document import Document
from app.state.scale_worker import ScaleWorker
from app.ui.fonts import READING, chrome_font, restrain
from app.ui.format import (
    shown_name,
    token_glosses,
    with_gloss,
)
from app.ui.look import diverging_map, sequential_map
from app.ui.panels.base import Panel
from app.ui.panels.heatmap.cells import CellLayer
from app.ui.panels.heatmap.choices import HeatmapChoices, lesson_info
from app.ui.panels.heatmap.fit import ROOMY_PLOT_HEIGHT, fit_colorbar, fit_lines
from app.ui.panels.heatmap.large import Picture, needs_image, scores_shown, show_image
from app.ui.panels.heatmap.readout import PERCENT, CellReadout
from app.ui.panels.heatmap.scale_mode import ScaleMode
from app.ui.widgets.live_label import LiveLabel

NO_VALUE = {"light": "#D9D9D9", "dark": "#3C3C3C"}
"""Cells without a number (undefined cosine, masked score) show the background in this grey."""
MIN_PLOT_HEIGHT = 60
"""Pixels at 100 %: the plot gives way first in a short dock, the readout lines never."""


class HeatmapPanel(CellReadout, ScaleMode, Panel):
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
        self.picture = Picture()  # past the cell grid: the block image and its factor
        self._large: tuple | None = None  # how that image was last drawn, for a resize
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
        self.choices = HeatmapChoices(self.document, self)
        self._controls = QtWidgets.QVBoxLayout()
        for widgets in ((self.scores_button, self.weights_button, self.causal_box,
                         self.choices.e_button), (self.scale_box, self.t_combo)):
            row = QtWidgets.QHBoxLayout()
            for widget in widgets:
                row.addWidget(widget)
            row.addStretch(1)
            self._controls.addLayout(row)
            if widgets[0] is self.scores_button:
                self._controls.addLayout(self.choices.length_row)
        self.readout = LiveLabel("heatmap_readout")
        self.readout.setTextFormat(Qt.TextFormat.PlainText)
        self.info = LiveLabel("heatmap_info")
        self.info.setTextFormat(Qt.TextFormat.PlainText)  # it quotes token names

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
        self.choices.retranslate()
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
        self.causal_box.setEnabled(self.document.state.world in ("teaching", "imported")
                                   or options.scale_mode)
        self.choices.sync(self.document.state, self.document.view)
        embeddings = self.choices.shows_embeddings(self.document.state, self.document.view)
        for button in (self.scores_button, self.weights_button):
            button.setEnabled(not embeddings)  # the embeddings' cosine has no weights here
        self.t_combo.setEnabled(options.scale_mode)

    def _show_lesson(self) -> None:
        view, state = self.document.view, self.document.state
        embeddings = self.choices.shows_embeddings(state, view)
        if embeddings:
            values, levels, signed = (np.ma.filled(view.embeddings.cos.astype(np.float64),
                                                   np.nan), (-1.0, 1.0), True)
        elif state.options.heatmap_mode == "weights":
            values, levels, signed = PERCENT * view.weights, (0.0, PERCENT), False
        else:
            values = scores_shown(view)  # a masked score is −∞: no colour, hatched
            sample = self.picture.of(self, values) if needs_image(values.shape) else values
            levels, signed = score_levels(state.scorer, sample), SCORERS[state.scorer].signed
        levels = self._levels.fit(levels, (state.scorer, state.options.heatmap_mode, embeddings,
                                           values.shape), hold=self.document.dragging)
        self._hover = self._hover if values.shape == self._values.shape else None
        self._values = values
        cmap = diverging_map() if signed else sequential_map()
        rows, cols = values.shape
        if needs_image(values.shape):  # an imported capture: past the cell grid's reach
            self._large = (levels, cmap, {"left": view.query_names, "top": view.key_names},
                           not view.allowed.all())
            show_image(self, values, *self._large)
        else:
            self._set_scale(values.shape, levels, cmap, factor=1)
            self.image.setVisible(False)  # the cell grid paints the colours (and far faster)
            glosses = token_glosses(self.document.data)  # English: the meaning beside a row
            self.cells.set_token_axes({  # (only the rows: glossed column names would collide)
                "left": [with_gloss(name, glosses) for name in view.query_names],
                "top": [shown_name(name) for name in view.key_names]})
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
        self.info.setText(lesson_info(state, view, embeddings))
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

    def _on_view_resized(self) -> None:
        """Cell labels refit to the new cell size; scale mode asks for a fitting picture."""
        fit_colorbar(self.colorbar, self.plot.vb.height())
        if self.document.state.options.scale_mode:
            self._show_scale()
        elif needs_image(self._values.shape) and self._large is not None:
            factor = self.picture.factor
            self.picture.of(self, self._values)
            if self.picture.factor != factor:  # a picture sized to the new plot
                show_image(self, self._values, *self._large)
        else:
            self.cells.fit()
