"""Owns the heatmap as a figure for a report: the matrix as drawn (colours, numbers, token
names), its colour bar and a title, sized so every number reads whatever the dock's size, in
plain rectangles and text so the PNG and the SVG show the same picture in any program."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize

from app.ui.figure import Box, Line, Shape, Text, height, width
from app.ui.panels.heatmap.cells import text_colours

MARGIN, GAP = 16.0, 8.0
"""Pixels of white around the figure, and between names, cells and the colour bar."""
CELL_PAD = 22.0
"""Pixels a cell adds around its widest number: room for a reader's wider font too."""
NUMBER_PX, NAME_PX, TITLE_PX = 15, 15, 19
"""Font sizes in pixels: a figure is read on a page or a slide, not from across the room."""
FIGURE_SIDE = 480.0
"""Pixels the matrix takes when its cells carry no numbers (too many tokens to print them)."""
BAR_WIDTH, BAR_STEPS = 18.0, 64
"""The colour bar's width, and the bands it is drawn in (a gradient is not read alike by
every SVG reader; bands are)."""
NO_VALUE = "#D9D9D9"
"""A cell without a number (undefined cosine, masked score), as on screen in the light look."""
INK, FRAME = "#000000", "#606060"
BAR_DECIMALS = {"": 2, "%": 0}
"""Decimals of the colour bar's numbers by unit: scores as the cells print them, weights in
whole percent."""


def _hex(rgb: Sequence[float]) -> str:
    return "#" + "".join(f"{round(float(c) * 255):02X}" for c in rgb[:3])


def _bar_label(value: float, unit: str) -> str:
    return f"{value:.{BAR_DECIMALS.get(unit, 2)}f}{unit}".replace("-", "−")


@dataclass(frozen=True)
class HeatmapFigure:
    """The matrix a heatmap draws: values and their texts ([row][column], or none when too
    many to print), the colour range and map, the axes' names and titles, and a title."""

    values: np.ndarray
    texts: Sequence[Sequence[str]]
    levels: tuple[float, float]
    cmap: pg.ColorMap
    unit: str
    rows: Sequence[str]
    columns: Sequence[str]
    axis_titles: tuple[str, str]
    """(query axis, key axis)."""
    title: str

    def _cell(self) -> tuple[float, float]:
        if not self.texts:
            side = max(4.0, FIGURE_SIDE / max(*self.values.shape, 1))
            return side, side
        widest = max((width(t, NUMBER_PX) for line in self.texts for t in line), default=0.0)
        return math.ceil(max(widest, 24.0) + CELL_PAD), math.ceil(height(NUMBER_PX) * 2.0)

    def _layout(self) -> dict[str, float]:
        cell_w, cell_h = self._cell()
        widest_column = max((width(n, NAME_PX) for n in self.columns), default=0.0)
        upright = widest_column > cell_w - GAP
        names_h = widest_column if upright else height(NAME_PX)
        left = MARGIN + max(width(self.axis_titles[0], NAME_PX),
                            *(width(n, NAME_PX) for n in self.rows)) + GAP
        top = MARGIN + height(TITLE_PX) + GAP + height(NAME_PX) + GAP + names_h + GAP
        rows, cols = self.values.shape
        bar_text = max(width(_bar_label(v, self.unit), NAME_PX) for v in self.levels)
        right = left + cols * cell_w + 2 * GAP + BAR_WIDTH + GAP + bar_text + MARGIN
        return {"cell_w": cell_w, "cell_h": cell_h, "left": left, "top": top,
                "upright": float(upright),
                "width": math.ceil(max(right, MARGIN * 2 + width(self.title, TITLE_PX, True))),
                "height": math.ceil(top + rows * cell_h + height(NAME_PX) / 2 + MARGIN)}

    def size(self) -> QSize:
        layout = self._layout()
        return QSize(int(layout["width"]), int(layout["height"]))

    def shapes(self) -> list[Shape]:
        layout = self._layout()
        cell_w, cell_h, left, top = (layout[k] for k in ("cell_w", "cell_h", "left", "top"))
        rows, cols = self.values.shape
        title_y = MARGIN + height(TITLE_PX) / 2
        key_y = MARGIN + height(TITLE_PX) + GAP + height(NAME_PX) / 2
        shapes: list[Shape] = [
            Text(MARGIN, title_y, self.title, TITLE_PX, bold=True),
            Text(left + cols * cell_w / 2, key_y, self.axis_titles[1], NAME_PX, anchor="middle"),
            Text(left - GAP, top - GAP - height(NAME_PX) / 2, self.axis_titles[0], NAME_PX,
                 anchor="end")]
        shapes += self._names(layout)
        shapes += self._cells(layout)
        shapes.append(Box(left, top, cols * cell_w, rows * cell_h, stroke=FRAME))
        shapes += self._bar(left + cols * cell_w + 2 * GAP, top, rows * cell_h)
        return shapes

    def _step(self, room: float) -> int:
        """Every how-many-th name fits in cells `room` pixels apart."""
        return max(1, math.ceil(height(NAME_PX) / room))

    def _names(self, layout: dict[str, float]) -> list[Shape]:
        cell_w, cell_h, left, top = (layout[k] for k in ("cell_w", "cell_h", "left", "top"))
        shapes: list[Shape] = [
            Text(left - GAP, top + (i + 0.5) * cell_h, self.rows[i], NAME_PX, anchor="end")
            for i in range(0, len(self.rows), self._step(cell_h))]
        if layout["upright"]:
            return shapes + [Text(left + (j + 0.5) * cell_w, top - GAP, self.columns[j], NAME_PX,
                                  upright=True)
                             for j in range(0, len(self.columns), self._step(cell_w))]
        return shapes + [Text(left + (j + 0.5) * cell_w, top - GAP - height(NAME_PX) / 2, name,
                              NAME_PX, anchor="middle")
                         for j, name in enumerate(self.columns)]

    def _cells(self, layout: dict[str, float]) -> list[Shape]:
        cell_w, cell_h, left, top = (layout[k] for k in ("cell_w", "cell_h", "left", "top"))
        low, high = self.levels
        finite = np.isfinite(self.values)
        share = np.clip((np.where(finite, self.values, low) - low) / (high - low), 0, 1)
        rgb = self.cmap.map(share.ravel(), mode=pg.ColorMap.FLOAT)[:, :3]
        rgb = rgb.reshape(*self.values.shape, 3)
        inks = text_colours(rgb)
        shapes: list[Shape] = [
            Box(left + j * cell_w, top + i * cell_h, cell_w, cell_h,
                fill=_hex(rgb[i, j]) if finite[i, j] else NO_VALUE)
            for i, j in np.ndindex(*self.values.shape)]
        return shapes + [
            Text(left + (j + 0.5) * cell_w, top + (i + 0.5) * cell_h, text, NUMBER_PX,
                 colour=str(inks[i, j]) if finite[i, j] else INK, anchor="middle")
            for i, line in enumerate(self.texts) for j, text in enumerate(line)]

    def _bar(self, x: float, top: float, tall: float) -> list[Shape]:
        low, high = self.levels
        colours = self.cmap.map((np.arange(BAR_STEPS) + 0.5) / BAR_STEPS, mode=pg.ColorMap.FLOAT)
        band = tall / BAR_STEPS
        # the highest value on top; each band reaches under the next, so no seam shows
        shapes: list[Shape] = [Box(x, top + tall - (k + 1) * band, BAR_WIDTH, band + 0.5,
                                   fill=_hex(rgba)) for k, rgba in enumerate(colours)]
        shapes.append(Box(x, top, BAR_WIDTH, tall, stroke=FRAME))
        for share in (0.0, 0.5, 1.0):
            y = top + tall - share * tall
            shapes += [Line(x + BAR_WIDTH, y, x + BAR_WIDTH + 4, y, INK),
                       Text(x + BAR_WIDTH + GAP, y,
                            _bar_label(low + share * (high - low), self.unit),
                            NAME_PX)]
        return shapes
