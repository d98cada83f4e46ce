"""Owns the score-matrix heatmap panel: queries × keys, scores or softmax weights, its controls
and the colour scale that holds still through a drag. It wires three parts it does not reach
into: the canvas (canvas.py) draws, the pointer (readout.py) reports the cells pointed at,
and scale mode (scale_mode.py) draws random Q, K up to T = 4096 from its own worker.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QRect, QSignalBlocker, QSize, Qt

from app.i18n import tr
from app.model.nice import HeldRange
from app.model.scale import SCALE_TS, ScaleResult, score_levels
from app.model.scoring import SCORERS
from app.state.document import Document
from app.state.scale_worker import ScaleWorker
from app.ui.fonts import points, restrain, ui_font
from app.ui.format import name_tip, shown_name, token_glosses, with_gloss
from app.ui.look import diverging_map, sequential_map
from app.ui.panels.base import Panel
from app.ui.panels.heatmap.canvas import HeatmapCanvas
from app.ui.panels.heatmap.cells import DESK_CELL_PT, CellLayer
from app.ui.panels.heatmap.choices import HeatmapChoices, lesson_info
from app.ui.panels.heatmap.figure import HeatmapFigure
from app.ui.panels.heatmap.fit import LINE_FONTS, ROOMY_PLOT_HEIGHT, fit_lines
from app.ui.panels.heatmap.large import Picture, needs_image, scores_shown, show_image
from app.ui.panels.heatmap.readout import (
    PERCENT,
    CellPointer,
    cell_text,
    cell_texts,
    readout_text,
)
from app.ui.panels.heatmap.scale_mode import ScaleMode
from app.ui.qt_known import layout_of
from app.ui.widgets.live_label import LiveLabel
from app.ui.widgets.stage_text import kept_whole, least_pt, unbroken
from app.ui.widgets.text_fit import wrapped_height
from app.ui.widgets.tips import set_tip

PICTURE_SIDE = 260
"""Pixels at 100 %: scale mode's or a large import's picture on the stage, at the least."""


@dataclass(frozen=True, eq=False)
class _Matrix:
    """The lesson's matrix as drawn: what a resize or the end of a drag draws again."""

    values: np.ndarray
    wanted: tuple[float, float]
    """The colour range these values ask for; `levels` may be wider while a drag holds it."""
    meaning: object
    levels: tuple[float, float]
    cmap: pg.ColorMap
    unit: str
    names: dict[str, Sequence[str]]
    allowed: np.ndarray
    texts: list[list[str]]
    """Each cell's number, [row][column]; the cells print them when they hold them."""


class HeatmapPanel(Panel):
    """Rows are queries, columns are keys; clicking a cell selects that pair everywhere."""

    name = "heatmap"
    depends_on = ("world", "scorer", "dialogue_q", "dialogue_keys", "teaching_q", "teaching_k",
                  "query", "key", "positions", "options", "imported", "teaching_tokens")
    """Every field: the matrix is the view of the active world's vectors (positions turn
    them under RoPE), the scorer and options choose what it shows, the selection outlines a
    cell, and the tokens name the axes. A change that is no change skips the refresh."""

    def __init__(self, document: Document, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.picture = Picture()  # past the cell grid: the block image and its factor
        self._matrix: _Matrix | None = None  # None: scale mode is drawn
        # during a drag the colour scale only widens: cells keep their colours unless a score
        # outgrows the bar; it refits when the drag ends (`gesture_finished`)
        self._levels = HeldRange()
        self._build_controls()
        self.canvas = HeatmapCanvas(self)
        self.pointer = CellPointer(
            self.canvas, lambda: (self.document.state.query, self.document.state.key), self)
        self.pointer.picked.connect(lambda row, col: self.document.select(query=row, key=col))
        self.pointer.hovered.connect(lambda _cell: self._update_readout())
        self.scale = ScaleMode(document, self.canvas, self)
        self.scale.info_changed.connect(lambda text: self.info.setText(self._wrapped(text)))
        self.scale.readout_changed.connect(self.readout.setText)
        self.scale.drawn.connect(self._fit_lines)
        self.canvas.resized.connect(self._on_view_resized)
        document.gesture_finished.connect(self._on_gesture_finished)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self._controls)
        layout.addWidget(self.canvas.graphics, 1)
        for label in (self.readout, self.info):
            layout.addWidget(label.holder)
        self.apply_look()
        self.retranslate()
        self.refresh()

    def _build_controls(self) -> None:
        self.scores_button = QtWidgets.QPushButton(objectName="heatmap_scores", checkable=True)  # type: ignore[call-overload]
        self.weights_button = QtWidgets.QPushButton(objectName="heatmap_weights", checkable=True)  # type: ignore[call-overload]
        self._modes = QtWidgets.QButtonGroup(self)
        for index, button in enumerate((self.scores_button, self.weights_button)):
            self._modes.addButton(button, index)
        self._modes.idClicked.connect(
            lambda index: self.document.set_options(heatmap_mode=("scores", "weights")[index]))
        self.causal_box = QtWidgets.QCheckBox(objectName="heatmap_causal")  # type: ignore[call-overload]
        self.causal_box.toggled.connect(lambda on: self.document.set_options(causal=on))
        self.scale_box = QtWidgets.QCheckBox(objectName="heatmap_scale")  # type: ignore[call-overload]
        self.scale_box.toggled.connect(lambda on: self.document.set_options(scale_mode=on))
        self.t_combo = QtWidgets.QComboBox(objectName="heatmap_scale_t")  # type: ignore[call-arg]
        self.t_combo.addItems([f"T = {t:,}" for t in SCALE_TS])
        self.t_combo.currentIndexChanged.connect(
            lambda i: self.document.set_options(scale_T=SCALE_TS[i]) if i >= 0 else None)
        for widget in (self.scores_button, self.weights_button, self.causal_box,
                       self.scale_box, self.t_combo):
            restrain(widget)  # past 150 % the zoom goes to the cells, not the buttons
        self.choices = HeatmapChoices(self.document, self)
        self._switches = (self.scores_button, self.weights_button, self.causal_box,
                          self.scale_box, self.t_combo)
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

    # --- the parts, by the names tests and the benchmark look at ---------------------------

    @property
    def graphics(self) -> pg.GraphicsLayoutWidget:
        return self.canvas.graphics

    @property
    def plot(self) -> pg.PlotItem:
        return self.canvas.plot

    @property
    def image(self) -> pg.ImageItem:
        return self.canvas.image

    @property
    def colorbar(self) -> pg.ColorBarItem:
        return self.canvas.colorbar

    @property
    def mask_item(self) -> QtWidgets.QGraphicsPathItem:
        return self.canvas.mask_item

    @property
    def band_over(self) -> QtWidgets.QGraphicsPathItem:
        return self.canvas.band_over

    @property
    def cell_box(self) -> QtWidgets.QGraphicsPathItem:
        return self.canvas.cell_box

    @property
    def cells(self) -> CellLayer:
        return self.canvas.cells

    @property
    def worker(self) -> ScaleWorker:
        return self.scale.worker

    @property
    def stale(self) -> bool:
        """Scale mode shows an older picture while the new one is computed."""
        return self.scale.stale

    @property
    def scale_result(self) -> ScaleResult | None:
        return self.scale.result

    @property
    def values(self) -> np.ndarray:
        """The lesson's matrix on screen (empty in scale mode, which shows random Q, K)."""
        return np.zeros((0, 0)) if self._matrix is None else self._matrix.values

    # --- look, words, layout ---------------------------------------------------------------

    def apply_look(self) -> None:
        """On the stage the scene has chosen the matrix: the switches, the T box and the
        choices' row give the room to the cells."""
        self.canvas.apply_look(self.look)
        for widget in self._switches:
            widget.setHidden(self.look.stage)

    def retranslate(self) -> None:
        self.scores_button.setText(tr("heatmap.mode_scores"))
        self.weights_button.setText(tr("heatmap.mode_weights"))
        self.causal_box.setText(tr("heatmap.causal"))
        self.scale_box.setText(tr("heatmap.scale"))
        self.t_combo.setToolTip(tr("heatmap.scale_t_tip"))
        self.choices.retranslate()
        self.canvas.set_axis_titles(tr("heatmap.query_axis"), tr("heatmap.key_axis"))

    def figure(self) -> HeatmapFigure | None:
        """The matrix as drawn, for export without the buttons and hints; None in scale
        mode, whose picture is computed at the plot's size."""
        matrix = self._matrix
        if matrix is None:
            return None
        mode = self.document.state.options.heatmap_mode
        heading = tr("heatmap.mode_weights") if mode == "weights" else tr("heatmap.title")
        return HeatmapFigure(
            matrix.values, matrix.texts, matrix.levels, matrix.cmap, matrix.unit,
            list(matrix.names["left"]), list(matrix.names["top"]),
            (tr("heatmap.query_axis"), tr("heatmap.key_axis")),
            f"{heading} — {tr(f'scorer.{self.document.state.scorer}')}")

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_lines()

    def _fit_lines(self) -> None:
        layout = layout_of(self)
        margins = layout.contentsMargins()
        room = (self.height() - self._controls.sizeHint().height() - margins.top()
                - margins.bottom() - 3 * layout.spacing())
        stage = self.look.stage
        roomy = self.canvas.readable_plot(self._picture_side()).height() if stage else (
            self.look.px(ROOMY_PLOT_HEIGHT))
        fit_lines(self.readout, self.info, self.document.state.options.scale_mode,
                  self.width() - margins.left() - margins.right(), room,
                  self.canvas.graphics.minimumHeight(), roomy,
                  least_pt(stage, 0.0))

    def _picture_side(self) -> float:
        return self.look.px(PICTURE_SIDE)

    def focus_rect(self) -> QRect | None:
        """The selected query's row: the one the lesson's notes read out."""
        if self._matrix is None or needs_image(self._matrix.values.shape):
            return None
        rows, columns = self._matrix.values.shape
        row = self.document.state.query
        if not 0 <= row < rows:
            return None
        graphics = self.canvas.graphics
        rect = self.canvas.row_rect(row, columns)
        return QRect(graphics.mapTo(self, rect.topLeft()), rect.size())

    def readable_size(self) -> QSize:
        """Every cell's number at a readable size (the stage's least size on the stage,
        DESK_CELL_PT at the desk; a picture at its least side), the row and column names
        around them (at the desk the axis titles give way in a short dock), the controls
        above, and under them the line this mode is about (the readout) wrapped to that
        width, which on the stage is at least that line's length at the least size; the
        other line shows when there is room for it too. A dock shorter than this squeezes
        the cells past printing their numbers."""
        stage = self.look.stage
        margins, spacing = layout_of(self).contentsMargins(), layout_of(self).spacing()
        plot = (self.canvas.readable_plot(self._picture_side()) if stage else
                self.canvas.readable_plot(self.look.px(ROOMY_PLOT_HEIGHT), points(DESK_CELL_PT)))
        plot = plot.expandedTo(QSize(0, self.canvas.graphics.minimumHeight()))
        scale_mode = self.document.state.options.scale_mode
        label, (size, bold) = (self.info, LINE_FONTS[1]) if scale_mode else (
            self.readout, LINE_FONTS[0])
        font = ui_font(points(size), bold)
        first = "" if scale_mode or not stage else label.text().split("   ")[0]  # may wrap
        least = ui_font(least_pt(True, 0.0), bold)
        controls = self._controls.sizeHint()
        inner = max(plot.width(),
                    math.ceil(QtGui.QFontMetricsF(least).horizontalAdvance(first)))
        if not stage:  # the switches' rows are not cut either
            inner = max(inner, self._controls.minimumSize().width())
        line = math.ceil(wrapped_height(label.text(), font, inner)) if label.text() else 0
        height = plot.height() + line + controls.height() + 3 * spacing
        whole = QSize(inner + margins.left() + margins.right(),
                      height + margins.top() + margins.bottom())
        return whole if stage else whole.expandedTo(super().readable_size())

    def sizeHint(self) -> QSize:
        """Modest, so the term-by-term dock below gets room at 1280×720; it grows from there."""
        return QSize(int(self.look.px(480)), int(self.look.px(330)))

    # --- repainting ------------------------------------------------------------------------

    def inputs(self) -> tuple[object, ...] | None:
        """In scale mode the picture is of random Q and K: the lesson's vectors and selection
        are not on it, so a drag in the editor leaves it as it is (drawing the same picture
        again cost about a millisecond a step). What the controls read stays in the key:
        the world, its tokens and size (whether it has embeddings), the scorer, the options."""
        state = self.document.state
        if not state.options.scale_mode:
            return super().inputs()
        return (self.document.data, state.world, state.scorer, state.options,
                state.teaching_tokens, state.teaching_q.shape)

    def refresh(self) -> None:
        self._sync_controls()
        if self.document.state.options.scale_mode:
            self._matrix = None
            self.pointer.set_grid(None)
            self.scale.show()
        else:
            self.scale.cancel()
            self._show_lesson()
        if not self.document.dragging:  # the lines' fonts hold still until the drag ends:
            self._fit_lines()  # wrapping both lines to measure them took a tenth of a step

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
        self.choices.sync(self.document.state, self.document.view, self.look.stage)
        embeddings = self.choices.shows_embeddings(self.document.state, self.document.view)
        for button in (self.scores_button, self.weights_button):
            button.setEnabled(not embeddings)  # the embeddings' cosine has no weights here
        self.t_combo.setEnabled(options.scale_mode)

    def _show_lesson(self) -> None:
        view, state = self.document.view, self.document.state
        embeddings = self.choices.shows_embeddings(state, view)
        if embeddings:
            assert view.embeddings is not None  # on screen only when the view has them
            values, wanted, signed = (np.ma.filled(view.embeddings.cos.astype(np.float64),
                                                   np.nan), (-1.0, 1.0), True)
        elif state.options.heatmap_mode == "weights":
            values, wanted, signed = PERCENT * view.weights, (0.0, PERCENT), False
        else:
            values = scores_shown(view)  # a masked score is −∞: no colour, hatched
            sample = (self.picture.of(self.canvas, values, view.serial, view.patch,
                                      view.shown_reduced)
                      if needs_image(values.shape) else values)
            wanted, signed = score_levels(state.scorer, sample), SCORERS[state.scorer].signed
        meaning = (state.scorer, state.options.heatmap_mode, embeddings, values.shape)
        levels = self._levels.fit(wanted, meaning, hold=self.document.dragging)
        self.pointer.set_grid(values.shape)
        names: dict[str, Sequence[str]]
        if needs_image(values.shape):  # an imported capture: past the cell grid's reach
            names = {"left": view.query_names, "top": view.key_names}
        else:
            glosses = token_glosses(self.document.data, state.world)  # English: beside a row
            names = {  # (only the rows: glossed column names would collide)
                "left": [with_gloss(name, glosses) for name in view.query_names],
                "top": [shown_name(name) for name in view.key_names]}
        texts = ([] if needs_image(values.shape)  # a picture: no cell to print in
                 else cell_texts(state, view, embeddings, values.shape))
        self._matrix = _Matrix(values, wanted, meaning, levels,
                               diverging_map() if signed else sequential_map(),
                               "%" if state.options.heatmap_mode == "weights" else "", names,
                               view.allowed, texts)
        self._draw()
        self.canvas.cells.spotlight((state.query, state.key), values.shape)
        self.canvas.set_outlines((state.query, state.key), values.shape, self.look.spotlight)
        value = cell_text(state, view, embeddings, values.shape, state.query, state.key)
        self.info.setText(self._wrapped(lesson_info(state, view, embeddings, value)))
        self._update_readout()

    def _draw(self) -> None:
        """The matrix's colours, numbers, axes and hatching (each only redrawn if changed)."""
        matrix, canvas = self._matrix, self.canvas
        assert matrix is not None  # drawn only once the lesson's matrix is made
        if needs_image(matrix.values.shape):
            show_image(canvas, self.picture, matrix.values, matrix.levels, matrix.cmap,
                       matrix.unit, matrix.names, self.document.view.masking)
            return
        canvas.set_scale(matrix.values.shape, matrix.levels, matrix.cmap, 1, matrix.unit)
        canvas.hide_image()
        canvas.cells.set_token_axes(matrix.names)
        canvas.set_lesson_mask(matrix.allowed)
        canvas.cells.paint(matrix.values, matrix.levels, matrix.cmap, matrix.texts)
        canvas.show_colorbar(canvas.cells.keyed)

    def _on_gesture_finished(self) -> None:
        """A drag ended: the colour range it held refits to the matrix drawn, and only the
        colours are drawn again, only if the range changed (end_drag has already flushed the
        last step, so the matrix drawn is the final one); the lines fit their final texts."""
        self._fit_lines()
        matrix = self._matrix
        if matrix is None:
            return
        levels = self._levels.fit(matrix.wanted, matrix.meaning, hold=False)
        if levels != matrix.levels:
            self._matrix = replace(matrix, levels=levels)
            self._draw()

    def _on_view_resized(self) -> None:
        """Cell labels refit to the new cell size; scale mode asks for a fitting picture."""
        if self.document.state.options.scale_mode:
            self.scale.show()
        elif self._matrix is not None and needs_image(self._matrix.values.shape):
            factor = self.picture.factor
            self.picture.of(self.canvas, self._matrix.values)
            if self.picture.factor != factor:  # a picture sized to the new plot
                self._draw()
        else:
            self.canvas.cells.fit()
            self.canvas.show_colorbar(self.canvas.cells.keyed)

    # --- what a cell says ------------------------------------------------------------------

    def cell_text(self, row: int, col: int) -> str:
        """The number the cell at (row, col) prints."""
        state, view = self.document.state, self.document.view
        return cell_text(state, view, self.choices.shows_embeddings(state, view),
                         self.values.shape, row, col)

    def _update_readout(self) -> None:
        state = self.document.state
        if state.options.scale_mode:
            return
        view = self.document.view
        row, col = self.pointer.hover or (state.query, state.key)
        text = readout_text(state, view, self.choices.shows_embeddings(state, view),
                            (row, col), self.cell_text)
        self.readout.setText(self._unbroken(text))
        # on the holder: the line's own tooltip is fit_lines' (the line it had to hide)
        set_tip(self.readout.holder, name_tip(view.query_names[row], view.key_names[col]))

    def _unbroken(self, text: str) -> str:
        """On the stage a line never breaks inside a token's name or a number."""
        if not self.look.stage:
            return text
        return self._names_whole(unbroken(text))

    def _wrapped(self, text: str) -> str:
        """The note under the matrix wraps in a narrow dock too: never inside a token's name
        (on the stage, nor inside a number)."""
        return self._names_whole(unbroken(text) if self.look.stage else text)

    def _names_whole(self, text: str) -> str:
        view = self.document.view
        return kept_whole(text, (*view.query_names, *view.key_names))
