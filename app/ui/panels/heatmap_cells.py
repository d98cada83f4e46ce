"""Owns the heatmap's per-cell layer: the number printed in each cell in a contrasting colour,
fonts fitted to the cell size, axis room measured from those fonts, and the spotlight veil."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QRectF, Qt

from app.ui.fonts import ui_font
from app.ui.look import SPOTLIGHT_VEIL, Look
from app.ui.panels.axes import reserve_room

CELL_TEXT_LIMIT = 12
"""Up to this many tokens every cell prints its value; beyond, the cells are too small."""
SMALLEST_CELL_PT = 7.0
"""Below this a cell's number is unreadable anyway: the label hides instead of spilling over."""


def text_colour(rgb: np.ndarray) -> str:
    """Black on light cells, white on dark ones, by the cell's relative luminance (WCAG)."""
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    luminance = float(linear[:3] @ np.array([0.2126, 0.7152, 0.0722]))
    return "#000000" if luminance > 0.179 else "#FFFFFF"


class CellLayer:
    """The text items over the heatmap's cells and the veil the spotlight lays over them."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.plot = plot
        self.look = Look()
        self.texts: list[list[pg.TextItem]] = []
        self.shape = (0, 0)
        self.names: dict[str, Sequence[str]] = {}
        """The tick names on the left and top axes, which `fit` makes room for."""
        self._tick_pt = 0.0
        self._title_room = 0.0
        self._fitted: tuple[float, bool, int] | None = None
        self._shown: dict[tuple[int, int], tuple[str, str]] = {}
        self.veil = QtWidgets.QGraphicsPathItem()
        """Above the numbers, below the selection outline: every cell but the pair fades."""
        self.veil.setZValue(15)
        self.veil.setPen(QtGui.QPen(Qt.PenStyle.NoPen))
        self.veil.setVisible(False)
        plot.addItem(self.veil)

    def set_look(self, look: Look) -> None:
        self.look = look
        self._tick_pt = 0.0
        self._fitted = None
        self._shown.clear()
        colour = QtGui.QColor(look.theme.background)
        colour.setAlphaF(SPOTLIGHT_VEIL)
        self.veil.setBrush(colour)

    def paint(self, values: np.ndarray, levels: tuple[float, float], cmap: pg.ColorMap,
              text_of: Callable[[int, int], str]) -> None:
        """One label per cell (T ≤ CELL_TEXT_LIMIT), black or white by the cell's colour."""
        rows, cols = values.shape
        show = max(rows, cols) <= CELL_TEXT_LIMIT
        if (rows, cols) != self.shape:
            for item in (item for line in self.texts for item in line):
                self.plot.removeItem(item)
            self._shown.clear()
            self._fitted = None
            self.shape = (rows, cols)
            self.texts = [[pg.TextItem(anchor=(0.5, 0.5)) for _ in range(cols)]
                          for _ in range(rows)] if show else []
            for (row, col), item in np.ndenumerate(np.array(self.texts, dtype=object)):
                item.setPos(col, row)
                item.setZValue(10)
                self.plot.addItem(item)
        if not show or not values.size:
            return
        self.fit()
        low, high = levels
        colours = cmap.map(np.clip((np.nan_to_num(values) - low) / (high - low), 0, 1),
                           mode=pg.ColorMap.FLOAT)
        for (row, col), value in np.ndenumerate(values):
            colour = self.look.theme.foreground if np.isnan(value) else text_colour(
                colours[row, col])
            shown = (text_of(row, col), colour)
            if self._shown.get((row, col)) != shown:  # setText re-lays out the label
                self._shown[(row, col)] = shown
                self.texts[row][col].setText(shown[0], color=colour)

    def fit(self) -> None:
        """As large as the presentation scale asks, but never wider or taller than a cell;
        the token names on the axes get the same fit, slightly smaller."""
        rows, cols = self.shape
        view_box = self.plot.vb
        cell_w, cell_h = view_box.width() / max(cols, 1), view_box.height() / max(rows, 1)
        fitted = 0.75 * min(cell_h * 0.6, cell_w / 3.4)  # pt: 0.75 px; "−3.76" ≈ 3.4 em wide
        size = max(SMALLEST_CELL_PT, min(self.look.pt(14), fitted))
        point, visible = round(size * 2) / 2, fitted >= SMALLEST_CELL_PT
        if (point, visible, len(self.texts)) != self._fitted:  # a drag step changes neither
            self._fitted = (point, visible, len(self.texts))
            font = ui_font(point, bold=True)
            for item in (item for line in self.texts for item in line):
                item.setFont(font)
                item.setVisible(visible)
        tick = round(min(size, self.look.pt(12)) * 2) / 2
        moved = abs(tick - self._tick_pt) >= 1.0  # hysteresis: the axes' room moves the cells,
        if moved:  # which must not move the axes back and forth
            self._tick_pt = tick
        if rows and (moved or view_box.height() != self._title_room):
            self.fit_axes()

    def fit_scale_axes(self, T: int) -> None:
        """Scale mode's numbered axes (0 … T): tick numbers sized to the plot's height, as
        pyqtgraph spaces about five of them along it whatever their size."""
        self.names = {"left": [str(T)], "top": [str(T)]}
        size = min(self.look.pt(12), max(SMALLEST_CELL_PT, 0.12 * self.plot.vb.height()))
        self._tick_pt = round(size * 2) / 2
        self.fit_axes()

    def fit_axes(self) -> None:
        """Tick names in the font `fit` chose, and each axis as wide as they and its title."""
        tick_font = ui_font(self._tick_pt or self.look.pt(12), True)
        for side in self.names:
            self.plot.getAxis(side).setStyle(tickFont=tick_font)
        self._fit_titles()
        for side, labels in self.names.items():
            reserve_room(self.plot.getAxis(side), tick_font, labels)

    def _fit_titles(self) -> None:
        """Both axis titles show only if the plot, with the top one, is still as tall as the
        rotated query title is long: past the plot's end it would run into the readout. In a
        cramped dock the cells' numbers matter more than the titles.
        """
        left, top = self.plot.getAxis("left"), self.plot.getAxis("top")
        title = top.label.boundingRect().height()
        with_titles = self.plot.vb.height() - (0.0 if top.label.isVisible() else title)
        fits = with_titles >= left.label.boundingRect().width()
        self._title_room = with_titles + (0.0 if fits else title)
        for axis in (left, top):
            if axis.labelText and axis.label.isVisible() != fits:
                axis.showLabel(fits)

    def spotlight(self, cell: tuple[int, int] | None, shape: tuple[int, int]) -> None:
        """Veil every cell of a `shape` matrix but `cell` while the look's spotlight is on."""
        rows, cols = shape
        on = self.look.spotlight and cell is not None and rows * cols > 0
        self.veil.setVisible(on)
        if not on:
            return
        row, col = cell
        path = QtGui.QPainterPath()
        path.setFillRule(Qt.FillRule.OddEvenFill)
        path.addRect(QRectF(-0.5, -0.5, cols, rows))
        path.addRect(QRectF(col - 0.5, row - 0.5, 1.0, 1.0))
        self.veil.setPath(path)
