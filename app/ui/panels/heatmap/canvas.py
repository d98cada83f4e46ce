"""Owns the heatmap's drawing surface: the plot, its image and colour bar, the grey backdrop,
the mask's hatching, the selection outlines and the cell layer, each changed only through a
method here, so the panel, scale mode and the large-matrix image draw without knowing how."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import QObject, QPointF, QRectF, Qt, Signal

from app.ui.fonts import READING, chrome_font
from app.ui.look import Look, diverging_map
from app.ui.panels.heatmap.cells import CellLayer
from app.ui.panels.heatmap.fit import fit_colorbar
from app.ui.panels.heatmap.image import StripImage
from app.ui.widgets.axes import cache_axes

NO_VALUE = {"light": "#D9D9D9", "dark": "#3C3C3C"}
"""Cells without a number (undefined cosine, masked score) show the background in this grey."""
MIN_PLOT_HEIGHT = 60
"""Pixels at 100 %: the plot gives way first in a short dock, the readout lines never."""
STALE_OPACITY = 0.3
"""Scale mode's previous picture, faded while the one for the new request is computed."""
OUTLINE_PENS = (("#FFFFFF", 3, Qt.PenStyle.SolidLine), ("#000000", 3, Qt.PenStyle.DashLine),
                ("#000000", 6, Qt.PenStyle.SolidLine), ("#FFFFFF", 2.5, Qt.PenStyle.SolidLine))
"""Colour, width at 100 % and style of the row/column band (under, over) and the cell's box
(outer, inner): a light and a dark stroke, so the selection shows on every colour."""


class HeatmapCanvas(QObject):
    """The plot of a queries × keys matrix; rows are queries (top down), columns keys."""

    resized = Signal()
    """The plot's view box changed size (the colour bar's numbers are already refitted)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName("heatmap_graphics")
        self.graphics.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.plot = self.graphics.addPlot()
        self.plot.invertY(True)
        self.plot.setMouseEnabled(False, False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.showAxes((True, True, False, False), showValues=(True, True, False, False))
        self.image = StripImage(axisOrder="row-major")
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
        self._mask: np.ndarray | None = None  # the hatched cells' mask, None: a drawn path's
        self._extent: tuple[int, int, int] | None = None  # rows, columns, downsampling
        self.plot.vb.sigResized.connect(self._on_resized)
        self.cells = CellLayer(self.plot)
        cache_axes(self.graphics)

    def _on_resized(self) -> None:
        fit_colorbar(self.colorbar, self.plot_height(), self.cells.floor)
        self.resized.emit()

    # --- look and words --------------------------------------------------------------------

    def apply_look(self, look: Look) -> None:
        """Background, axes, hatching and outline pens in the look's theme and scale."""
        theme = look.theme
        self.graphics.setBackground(theme.background)
        self.graphics.setMinimumHeight(int(look.px(MIN_PLOT_HEIGHT)))
        self.backdrop.setBrush(QtGui.QColor(NO_VALUE.get(theme.name, NO_VALUE["light"])))
        for side in ("left", "top"):
            axis = self.plot.getAxis(side)
            axis.enableAutoSIPrefix(False)  # token indices, never "×0.001"
            # no tick marks: pointing in (pyqtgraph's default) they cut the edge cells'
            # numbers; pointing out they push the names off the axis, which then drops some
            axis.setStyle(tickLength=0)
            axis.setTextPen(theme.foreground)
            axis.setPen(theme.foreground)
            axis.label.setFont(chrome_font(READING))  # the cells get the zoom's room
        self.cells.set_look(look)  # the tick names' font, fitted with the cells
        fit_colorbar(self.colorbar, self.plot_height(), self.cells.floor)
        self.colorbar.axis.setTextPen(theme.foreground)
        self.mask_item.setBrush(QtGui.QBrush(QtGui.QColor(theme.muted), Qt.BrushStyle.BDiagPattern))
        for item in (self.backdrop, self.mask_item):
            item.setPen(QtGui.QPen(Qt.PenStyle.NoPen))
        for item, (colour, width, style) in zip(self._outlines, OUTLINE_PENS, strict=True):
            pen = QtGui.QPen(QtGui.QColor(colour), look.px(width), style)
            pen.setCosmetic(True)
            item.setPen(pen)

    def set_axis_titles(self, left: str, top: str) -> None:
        """The axes' titles; the tick room is measured again, as their heights differ."""
        self.plot.getAxis("left").setLabel(left)
        self.plot.getAxis("top").setLabel(top)
        self.cells.fit_axes()

    # --- sizes -----------------------------------------------------------------------------

    def plot_height(self) -> float:
        """The view box's height, which the colour bar's and the ticks' fonts follow."""
        return self.plot.vb.height()

    def readable_plot(self, image_side: float, point: float | None = None) -> QtCore.QSize:
        """The plot's least size: the cells' numbers at the floor size (or, for a picture or
        cells past NUMBERS_NEEDED, a view box `image_side` square beside its colour bar), the
        axes' names and titles around it. At the desk (a `point` for the cells' numbers) the
        axis titles give way to the cells in a short dock (`CellLayer._fit_titles`), so they
        are not counted."""
        cells, titles = self.cells, point is None
        if cells.needs_numbers:
            box = cells.readable_cells(point)
            width, height = box.width(), box.height()
            if titles:
                height = max(height, cells.title_length())
        else:  # the colour bar is in the layouts' margins measured below
            width, height = image_side, image_side
        vb, graphics = self.plot.vb, self.graphics
        left, top = self.plot.getAxis("left"), self.plot.getAxis("top")
        spare_w = graphics.width() - vb.width() - left.width()  # the layouts' own margins
        spare_h = graphics.height() - vb.height() - top.height()
        return QtCore.QSize(
            math.ceil(width + cells.axis_room("left", titles) + max(0.0, spare_w)),
            math.ceil(height + cells.axis_room("top", titles) + max(0.0, spare_h)))

    def row_rect(self, row: int, columns: int) -> QtCore.QRect:
        """Where row `row` of a matrix `columns` wide is drawn, in the graphics widget's own
        coordinates (the view range is exactly the matrix, each cell centred on its index)."""
        band = QRectF(QPointF(-0.5, row - 0.5), QPointF(columns - 0.5, row + 0.5))
        scene = self.plot.vb.mapViewToScene(band).boundingRect()
        return self.graphics.mapFromScene(scene).boundingRect()

    def view_px(self) -> int:
        """Device pixels along the plot's longer side (at least 64): what a picture needs."""
        vb = self.plot.vb
        return int(max(vb.width(), vb.height(), 64) * self.graphics.devicePixelRatioF())

    # --- colours ---------------------------------------------------------------------------

    def set_scale(self, shape: tuple[int, int], levels: tuple[float, float],
                  cmap: pg.ColorMap, factor: int, unit: str) -> None:
        """The colour bar, its label and the view range of a `shape` picture drawn `factor`
        cells per pixel, each only when it changes: every one of them makes pyqtgraph
        regenerate an axis (a few ms per drag step)."""
        if cmap.name != self.colorbar.colorMap().name:  # re-colouring the bar costs a frame
            self.colorbar.setColorMap(cmap)
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

    def show_colorbar(self, on: bool) -> None:
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

    def show_image(self, image: np.ndarray, levels: tuple[float, float]) -> None:
        """A picture in place of the cell grid, at full opacity (it is the current one);
        a picture that changed in one strip is coloured only there."""
        self.image.show_picture(image, levels)
        self.image.setOpacity(1.0)
        self.image.setVisible(True)

    def hide_image(self) -> None:
        """The cell grid paints the colours (and far faster)."""
        self.image.setVisible(False)

    def fade_image(self, faded: bool) -> None:
        """An older picture stays, faded, while the one asked for is computed."""
        self.image.setOpacity(STALE_OPACITY if faded else 1.0)

    # --- the mask and the selection --------------------------------------------------------

    def set_lesson_mask(self, allowed: np.ndarray) -> None:
        """Hatch the cells the causal mask removes (redrawn only when the mask changes)."""
        mask = ~allowed
        if self._mask is not None and np.array_equal(mask, self._mask):
            return
        self._mask = mask
        path = QtGui.QPainterPath()
        for row, col in zip(*np.nonzero(mask), strict=True):
            path.addRect(QRectF(col - 0.5, row - 0.5, 1.0, 1.0))
        self.mask_item.setPath(path)

    def set_mask_path(self, path: QtGui.QPainterPath) -> None:
        """Hatch `path` (a picture's causal triangle); the lesson's hatching is redrawn from
        its mask when the grid comes back. The same path is not set again: that would repaint
        the whole triangle on every drag step."""
        if self._mask is None and path == self.mask_item.path():
            return
        self.mask_item.setPath(path)
        self._mask = None

    def set_outlines(self, cell: tuple[int, int], shape: tuple[int, int],
                     spotlight: bool) -> None:
        """Outline the selected cell and its row and column (only the cell under the
        spotlight: one pair, no bands)."""
        (row, col), (rows, cols) = cell, shape
        bands, box = QtGui.QPainterPath(), QtGui.QPainterPath()
        bands.addRect(QRectF(-0.5, row - 0.5, cols, 1))
        bands.addRect(QRectF(col - 0.5, -0.5, 1, rows))
        box.addRect(QRectF(col - 0.5, row - 0.5, 1, 1))
        for item, outline in zip(self._outlines, (bands, bands, box, box), strict=True):
            item.setPath(outline)
            item.setVisible(outline is box or not spotlight)

    def hide_outlines(self) -> None:
        """The selection belongs to the lesson's tokens, not to scale mode's random ones."""
        for item in self._outlines:
            item.setVisible(False)

    def cell_at(self, scene_pos: QPointF, shape: tuple[int, int]) -> tuple[int, int] | None:
        """The (row, column) of a `shape` matrix under a scene point, or None outside it."""
        point = self.plot.vb.mapSceneToView(scene_pos)  # the view range is exactly the matrix
        row, col = round(point.y()), round(point.x())
        rows, cols = shape
        return (row, col) if 0 <= row < rows and 0 <= col < cols else None
