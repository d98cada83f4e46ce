"""Owns the heatmap's per-cell layer: each lesson cell's colour and the number printed in it
in a contrasting colour, fonts fitted to the cell size, axis room measured from those fonts,
and the spotlight veil."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QRectF, QSizeF, Qt

from app.ui.fonts import HEADING, READING, SMALL, points, ui_font
from app.ui.look import SPOTLIGHT_VEIL, Look
from app.ui.widgets.axes import axis_depth, reserve_room
from app.ui.widgets.stage_text import least_pt

NUMBERS_NEEDED = 12
"""Up to this many tokens the numbers are the figure: a dock whose cells cannot print them is
below the heatmap's readable size. Past it the colour bar keys the colours, and the cells
print their numbers only when they hold them at a readable size."""
DESK_CELL_PT = SMALL
"""Points at 100 %: a cell's number at the desk is readable from this size up (the crowded
chart's value labels); below it the numbers hide instead of shrinking further (on the stage
the floor is STAGE_MIN_PX: `CellLayer.floor`), and a dock shorter than that is below the
heatmap's readable size."""
CELL_MOST = HEADING
"""Points at 100 %: a big cell's number grows no larger, scaled with the zoom."""
CELL_FILL = 0.86
"""The share of a cell's width its number may take: a gap keeps cells apart (a line's
height, leading included, may fill the cell's height: digits take about half of it)."""
MEASURE_PT = 20.0
"""Cell labels are measured at this size; their width scales with the point size."""
READABLE_PAD = 0.3
"""Lines' heights a column adds around its number at the least readable size: a projected
number needs a visible gap from the next, and from the selection's outline."""
WIDEST_USUAL = "−0.00"
"""The fit never counts a label narrower than this, so one drag step (4.40 → 0.67) does not
resize every number."""

WIDTHS_KEPT = 4096
"""Cell numbers whose measured width is remembered before the memo starts again."""


def text_colours(rgb: np.ndarray) -> np.ndarray:
    """Black on light cells, white on dark ones, by each cell's relative luminance (WCAG);
    `rgb` is (..., 3 or 4) floats in 0…1."""
    rgb = rgb[..., :3]
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    luminance = linear @ np.array([0.2126, 0.7152, 0.0722])
    return np.where(luminance > 0.179, "#000000", "#FFFFFF")


class CellGrid(pg.GraphicsObject):
    """Every lesson cell's colour and number, painted by one item in one call.

    One pyqtgraph TextItem per cell plus a scaled ImageItem cost more per drag step than a
    whole frame may take; filled rectangles and drawText in device pixels cost a fraction.
    Cells without a number (NaN) are left unfilled, so the grey backdrop shows through.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(self.GraphicsItemFlag.ItemUsesExtendedStyleOption)  # the exposed part
        self.values = np.zeros((0, 0))
        """The matrix whose colours are painted, [row, column]."""
        self.labels: list[list[str]] = []
        """Each cell's number, printed when the cells hold it (`labels_visible`)."""
        self.label_colours: list[list[str]] = []
        self.font = ui_font(DESK_CELL_PT, bold=True)
        self._metrics = QtGui.QFontMetricsF(self.font)
        self._advances: dict[str, float] = {}
        """Each number's width in `font`, for the cells only partly repainted."""
        self.labels_visible = True
        self._rgba = np.zeros((0, 0, 4))
        self._colours: list[list[tuple[float, float, float, float] | None]] = []
        """Each cell's fill as painted, None for a cell left unfilled (NaN)."""

    def set_cells(self, values: np.ndarray, rgba: np.ndarray, labels: list[list[str]],
                  label_colours: list[list[str]]) -> None:
        """New cells; only the cells whose colour or number changed are repainted (a drag
        step moves one key's column of the grid)."""
        reshaped = values.shape != self.values.shape
        if reshaped:
            self.prepareGeometryChange()
        changed = None if reshaped or bool(labels) != bool(self.labels) else (
            self._changed(values, rgba, labels, label_colours))
        self.values, self.labels, self.label_colours = values, labels, label_colours
        self._rgba = rgba
        self._colours = [[None if blank else tuple(colour)
                          for colour, blank in zip(colours, blanks, strict=True)]
                         for colours, blanks in zip(rgba.tolist(), np.isnan(values).tolist(),
                                                    strict=True)]
        if changed is None:
            self.update()
        elif changed.any():
            rows, cols = np.nonzero(changed)
            self.update(QRectF(cols.min() - 0.5, rows.min() - 0.5,
                               cols.max() - cols.min() + 1.0, rows.max() - rows.min() + 1.0))

    def _changed(self, values: np.ndarray, rgba: np.ndarray, labels: list[list[str]],
                 label_colours: list[list[str]]) -> np.ndarray:
        """Which cells look different from those painted: colour, number or its colour."""
        changed = np.any(rgba != self._rgba, axis=-1) | (
            np.isnan(values) != np.isnan(self.values))
        if labels:
            changed |= np.array(labels, dtype=object) != np.array(self.labels, dtype=object)
            changed |= (np.array(label_colours, dtype=object)
                        != np.array(self.label_colours, dtype=object))
        return changed

    def set_font(self, font: QtGui.QFont, visible: bool) -> None:
        self.font, self.labels_visible = font, visible
        self._metrics, self._advances = QtGui.QFontMetricsF(font), {}
        self.update()

    def boundingRect(self) -> QRectF:
        rows, cols = self.values.shape
        return QRectF(-0.5, -0.5, cols, rows)

    def paint(self, painter: QtGui.QPainter, option: QtWidgets.QStyleOptionGraphicsItem,
              *_args: object) -> None:
        rows, cols = self._exposed(option.exposedRect)  # a drag step exposes one column
        painter.save()
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)  # no seams
        for row in rows:
            line = self._colours[row]
            for col in cols:
                if (rgba := line[col]) is not None:
                    painter.fillRect(QRectF(col - 0.5, row - 0.5, 1.0, 1.0),
                                     QtGui.QColor.fromRgbF(*rgba))
        if self.labels_visible and self.labels:
            to_device = painter.transform()
            exposed = to_device.mapRect(option.exposedRect)
            painter.resetTransform()  # numbers keep their point size however large a cell is
            painter.setFont(self.font)
            for row in rows:
                for col in cols:
                    cell = to_device.mapRect(QRectF(col - 0.5, row - 0.5, 1.0, 1.0))
                    text = self.labels[row][col]
                    if not exposed.contains(cell) and not exposed.intersects(
                            self._text_box(cell, text)):
                        continue  # only the cell's edge is repainted, away from its number
                    painter.setPen(QtGui.QColor(self.label_colours[row][col]))
                    painter.drawText(cell, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()

    def _text_box(self, cell: QRectF, text: str) -> QRectF:
        """Where a cell's number is drawn (centred on the cell, in device pixels), with a
        margin for any ink past the glyphs' advances: a drag step repaints one column, and
        the edges of the columns beside it need their colour but not their numbers."""
        width = self._advances.get(text)
        if width is None:
            if len(self._advances) > WIDTHS_KEPT:
                self._advances.clear()
            width = self._advances[text] = self._metrics.horizontalAdvance(text)
        height = self._metrics.height()
        pad = height / 4
        centre = cell.center()
        return QRectF(centre.x() - width / 2 - pad, centre.y() - height / 2 - pad,
                      width + 2 * pad, height + 2 * pad)

    def _exposed(self, exposed: QRectF) -> tuple[range, range]:
        """The rows and columns of the cells that overlap `exposed` (cell (r, c) spans
        c ± 0.5 across and r ± 0.5 down, as its rectangle's `intersects` counts overlap)."""
        rows, cols = self.values.shape

        def span(low: float, high: float, count: int) -> range:
            return range(max(0, math.floor(low - 0.5) + 1), min(count, math.ceil(high + 0.5)))

        return (span(exposed.top(), exposed.bottom(), rows),
                span(exposed.left(), exposed.right(), cols))


class CellLayer:
    """The painted cells, the axes' room for their fonts, and the veil of the spotlight."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.plot = plot
        self.look = Look()
        self.floor = DESK_CELL_PT
        """The least point size of a cell's number and a tick name (larger on the stage)."""
        self._steps: dict[str, int] = {}
        """Every how many names each axis shows: 1 unless the names would run into each
        other (a reshaped world's many tokens in a small dock)."""
        self.grid = CellGrid()
        self.grid.setZValue(1)
        plot.addItem(self.grid)
        self.names: dict[str, Sequence[str]] = {}
        """The tick names on the left and top axes, which `fit` makes room for."""
        self._tick_pt = 0.0
        self._title_room = (0.0, 0.0)
        self._fitted: tuple[float, bool] | None = None
        self._measure_font = QtGui.QFont()
        self._measure_metrics = QtGui.QFontMetricsF(self._measure_font)
        self._name_room: tuple[tuple[object, ...], tuple[float, float]] | None = None
        """The tick font and top names `_thin_names` last measured, with the widest name's
        room and a line's height (a drag step keeps both)."""
        self._widths: dict[str, float] = {}
        """Each cell number's width at MEASURE_PT in `_measure_font` (a drag step prints
        the same few numbers again and again)."""
        self.veil = QtWidgets.QGraphicsPathItem()
        """Above the numbers, below the selection outline: every cell but the pair fades."""
        self.veil.setZValue(15)
        self.veil.setPen(QtGui.QPen(Qt.PenStyle.NoPen))
        self.veil.setVisible(False)
        plot.addItem(self.veil)

    def set_look(self, look: Look) -> None:
        self.look = look
        self.floor = least_pt(True, DESK_CELL_PT) if look.stage else points(DESK_CELL_PT)
        self._tick_pt = 0.0
        self._fitted = None
        colour = QtGui.QColor(look.theme.background)
        colour.setAlphaF(SPOTLIGHT_VEIL)
        self.veil.setBrush(colour)

    def paint(self, values: np.ndarray, levels: tuple[float, float], cmap: pg.ColorMap,
              texts: list[list[str]]) -> None:
        """Colour every cell and give it its number from `texts` ([row][column]), black or
        white by the cell's colour; `fit` prints the numbers when the cells hold them at a
        readable size. An empty matrix clears the grid (scale mode draws an image instead)."""
        rows, cols = values.shape
        low, high = levels
        rgba = cmap.map(np.clip((np.nan_to_num(values) - low) / (high - low), 0, 1),
                        mode=pg.ColorMap.FLOAT).reshape(rows, cols, 4)
        labels: list[list[str]] = []
        label_colours: list[list[str]] = []
        if texts:
            contrast = text_colours(rgba)
            labels = texts
            label_colours = np.where(np.isnan(values), self.look.theme.foreground,
                                     contrast.astype(object)).tolist()
        self.grid.set_cells(values, rgba, labels, label_colours)
        if values.size:
            self.fit()

    @property
    def needs_numbers(self) -> bool:
        """Whether the panel is readable only with its numbers printed (see NUMBERS_NEEDED)."""
        return bool(self.grid.labels) and max(self.grid.values.shape) <= NUMBERS_NEEDED

    @property
    def keyed(self) -> bool:
        """Whether the colours need the colour bar as their key: no number printed, and none
        required (a dock that cannot print required numbers is below the panel's readable
        size; a bar taking their room would keep them from ever printing)."""
        return not (self.needs_numbers or (bool(self.grid.labels) and self.grid.labels_visible))

    def clear(self) -> None:
        """No cells: a picture (scale mode, a large import) shows the colours instead."""
        self.grid.set_cells(np.zeros((0, 0)), np.zeros((0, 0, 4)), [], [])

    def fit(self) -> None:
        """As large as the presentation scale asks, but never wider or taller than a cell;
        the token names on the axes keep one size (`names_pt`), thinned where they crowd."""
        rows, cols = self.grid.values.shape
        view_box = self.plot.vb
        cell_w, cell_h = view_box.width() / max(cols, 1), view_box.height() / max(rows, 1)
        widest, line = self._measured()
        fitted = MEASURE_PT * min(CELL_FILL * cell_w / widest, cell_h / line)
        size = max(self.floor, min(points(CELL_MOST), fitted))
        point, visible = round(size * 2) / 2, fitted >= self.floor
        if (point, visible) != self._fitted:  # a drag step changes neither
            self._fitted = (point, visible)
            self.grid.set_font(ui_font(point, bold=True), visible)
        tick = self.names_pt()  # fixed: names that followed the cells would move the axes,
        moved = tick != self._tick_pt  # and so the cells, back and forth with the titles
        if moved:
            self._tick_pt = tick
        if rows and (moved or self._span() != self._title_room):
            self.fit_axes()
        if rows and not self.look.stage:
            self._thin_names(cell_w, cell_h)
        elif rows:  # the stage gives every name its room instead, a desk's thinning undone
            for side, step in self._steps.items():
                if step != 1 and side in self.names:
                    self._set_names(side, 1)

    def _measured(self) -> tuple[float, float]:
        """The widest cell number (never narrower than WIDEST_USUAL, so a drag step does not
        resize every number) and a line's height, at MEASURE_PT."""
        font = ui_font(MEASURE_PT, bold=True)
        if font != self._measure_font or len(self._widths) > WIDTHS_KEPT:
            self._measure_font, self._widths = font, {}  # another family, or a long drag
            self._measure_metrics = QtGui.QFontMetricsF(font)
        metrics, widths = self._measure_metrics, self._widths
        for text in {WIDEST_USUAL, *(text for line in self.grid.labels for text in line)}:
            if text not in widths:
                widths[text] = metrics.horizontalAdvance(text)
        widest = max(widths[text] for line in ([WIDEST_USUAL], *self.grid.labels)
                     for text in line)
        return widest, metrics.height()

    def readable_cells(self, point: float | None = None) -> QSizeF:
        """The view box that prints every number at `point` (the floor size on the stage):
        each column the widest number's width (and its gap) and as wide as its key's name,
        each row a line's height and as tall as its query's name."""
        rows, cols = self.grid.values.shape
        widest, line = self._measured()
        share = (self.floor if point is None else point) / MEASURE_PT
        names = QtGui.QFontMetricsF(ui_font(self.names_pt(), True))
        across = max((names.horizontalAdvance(name) for name in self.names.get("top", ())),
                     default=0.0) + READABLE_PAD * names.height()
        cell_w = max(share * (widest / CELL_FILL + READABLE_PAD * line), across)
        cell_h = max(share * line, names.height()) + 1
        return QSizeF(cols * math.ceil(cell_w), rows * math.ceil(cell_h))

    def names_pt(self) -> float:
        """The one point size the token names on the axes take, on the stage and at the
        desk: the zoom's chart-tick size (SMALL), at least the floor, whatever the cells'
        size (a font that followed the cells moved the axes, which moved the cells back).
        The readable size counts the rows and columns at it, so a dock at that size holds
        every name (names printed larger would be thinned off it)."""
        return max(self.floor, round(points(SMALL) * 2) / 2)

    def axis_room(self, side: str, title: bool = True) -> float:
        """How deep an axis is with its names (`names_pt`) and (`title`) its title."""
        axis = self.plot.getAxis(side)
        return axis_depth(axis, ui_font(self.names_pt(), True), self.names.get(side, ()),
                          title and bool(axis.labelText))

    def title_length(self) -> float:
        """The rotated query title's length: the plot is at least this tall to show it."""
        left = self.plot.getAxis("left")
        return left.label.boundingRect().width() if left.labelText else 0.0

    def fit_scale_axes(self, T: int) -> None:
        """Scale mode's numbered axes (0 … T): tick numbers sized to the plot's height, as
        pyqtgraph spaces about five of them along it whatever their size. Refits only when
        T or the size changes: refitting regenerates both axes."""
        names: dict[str, Sequence[str]] = {"left": [str(T)], "top": [str(T)]}
        size = min(max(points(READING), self.floor), max(self.floor, 0.12 * self.plot.vb.height()))
        tick = round(size * 2) / 2
        if (names, tick) != (self.names, self._tick_pt):
            if names != self.names:  # numbered ticks in place of the token names
                for side in names:
                    self.plot.getAxis(side).setTicks(None)
            self.names, self._tick_pt = names, tick
            self.fit_axes()

    def set_token_axes(self, names: dict[str, Sequence[str]]) -> None:
        """The lesson's token names as ticks, set only when they change: new ticks make
        pyqtgraph regenerate the axes, a frame's worth of time."""
        if names != self.names:
            self.names = names
            for side in names:
                self._set_names(side, self._steps.get(side, 1))
            self.fit_axes()

    def _set_names(self, side: str, step: int) -> None:
        """Every `step`-th token name on `side`'s axis, from the first."""
        labels = self.names[side]
        self.plot.getAxis(side).setTicks([[(i, labels[i]) for i in range(0, len(labels), step)],
                                          []])
        self._steps[side] = step

    def _thin_names(self, cell_w: float, cell_h: float) -> None:
        """Each axis shows every name where they fit side by side (a column as wide as the
        widest name, a row a line tall), else every second, third … so none runs into the
        next at a readable size. The axes keep their room for every name, so thinning never
        moves the cells."""
        font = ui_font(self._tick_pt or self.names_pt(), True)
        top = tuple(self.names.get("top", ()))
        if self._name_room is None or self._name_room[0] != (font, top):
            metrics = QtGui.QFontMetricsF(font)
            widest = max((metrics.horizontalAdvance(name) + metrics.height() / 2
                          for name in top), default=0.0)
            self._name_room = (font, top), (widest, metrics.height())
        widest, line = self._name_room[1]
        room = {"top": (cell_w, widest), "left": (cell_h, line)}
        for side, (cell, name) in room.items():
            if side in self.names and len(self.names[side]) in self.grid.values.shape:
                step = max(1, math.ceil(name / cell)) if cell > 0 else 1
                if step != self._steps.get(side, 1):
                    self._set_names(side, step)

    def set_placed_axes(self, ticks: dict[str, list[tuple[int, str]]], point: float) -> None:
        """Ticks at chosen rows and columns (a large import's thinned names) in a `point`-size
        font, set only when they change: new ticks regenerate an axis."""
        labels: dict[str, Sequence[str]] = {side: [text for _, text in pairs]
                                            for side, pairs in ticks.items()}
        if (labels, point) == (self.names, self._tick_pt):
            return
        for side, pairs in ticks.items():
            self.plot.getAxis(side).setTicks([pairs, []])
        self.names, self._tick_pt, self._steps = labels, point, {}
        self.fit_axes()

    def fit_axes(self) -> None:
        """Tick names in the font `fit` chose, and each axis as wide as they and its title."""
        tick_font = ui_font(self._tick_pt or self.names_pt(), True)
        for side in self.names:
            self.plot.getAxis(side).setStyle(tickFont=tick_font)
        self._fit_titles(tick_font)
        for side, labels in self.names.items():
            reserve_room(self.plot.getAxis(side), tick_font, labels)

    def _span(self) -> tuple[float, float]:
        """The plot's room for the view box and its top axis (down), and for the view box and
        its left axis (across): the same whichever of the axes' depths was last laid out."""
        vb = self.plot.vb
        return (vb.height() + self.plot.getAxis("top").height(),
                vb.width() + self.plot.getAxis("left").width())

    def _fit_titles(self, tick_font: QtGui.QFont) -> None:
        """Both axis titles show only if the plot, with them, is still as tall as the rotated
        query title is long (past the plot's end it would run into the readout) and still
        holds the numbers the cells must print: in a cramped dock the numbers matter more
        than the titles. Measured from the plot's whole room, not the view box's last size,
        which a title shown or hidden moves (deciding on that would flip them back and forth).
        """
        left, top = self.plot.getAxis("left"), self.plot.getAxis("top")
        down, across = self._span()
        tall = down - axis_depth(top, tick_font, self.names.get("top", ()), True)
        wide = across - axis_depth(left, tick_font, self.names.get("left", ()), True)
        # the stage's readable size counts the titles; at the desk they give way
        cells = self.readable_cells() if self.needs_numbers and not self.look.stage else QSizeF()
        fits = tall >= max(left.label.boundingRect().width(), cells.height()) and (
            wide >= cells.width())
        self._title_room = (down, across)
        for axis in (left, top):
            if axis.labelText and axis.label.isVisible() != fits:
                axis.showLabel(fits)

    def spotlight(self, cell: tuple[int, int] | None, shape: tuple[int, int]) -> None:
        """Veil every cell of a `shape` matrix but `cell` while the look's spotlight is on."""
        rows, cols = shape
        on = self.look.spotlight and cell is not None and rows * cols > 0
        self.veil.setVisible(on)
        if not on or cell is None:  # (no cell is never on)
            return
        row, col = cell
        path = QtGui.QPainterPath()
        path.setFillRule(Qt.FillRule.OddEvenFill)
        path.addRect(QRectF(-0.5, -0.5, cols, rows))
        path.addRect(QRectF(col - 0.5, row - 0.5, 1.0, 1.0))
        self.veil.setPath(path)
