"""Owns the heatmap of a matrix too large for the cell grid (an imported capture up to 4096 keys):
a downsampled image, as scale mode draws one, with thinned token ticks and the causal triangle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui
from PySide6.QtCore import QPointF

from app.model.scale import block_image, downsample_factor, patched_block_image
from app.ui.fonts import READING, points
from app.ui.format import shown_name

if TYPE_CHECKING:
    from app.model.view import View
    from app.ui.panels.heatmap.canvas import HeatmapCanvas

GRID_LIMIT = 32
"""Rows or columns the cell grid paints (the lesson's worlds stay far below); past it, one
image of block extremes, as in scale mode."""
TICKS = {"left": 12, "top": 5}
"""At most this many token names per axis: the top axis's names sit side by side."""
NAME_CHARS = {"left": 10, "top": 6}
"""A token name on a tick is cut to this many columns (a tokenizer's piece can be long)."""


def needs_image(shape: tuple[int, ...]) -> bool:
    return max(shape) > GRID_LIMIT


def _step(count: int, ticks: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) leaving at most `ticks` ticks over
    `count` names."""
    scale = 1
    while True:
        for mult in (1, 2, 5):
            if count / (mult * scale) <= ticks:
                return mult * scale
        scale *= 10


def thinned(names: Sequence[str], ticks: int, chars: int) -> list[tuple[int, str]]:
    """Every step-th name as "index name", so a reader can find a token by number too."""
    step = _step(len(names), ticks)
    out = []
    for i in range(0, len(names), step):
        if names[i] == f"#{i}":  # a capture without token names: the number says it all
            out.append((i, str(i)))
            continue
        out.append((i, f"{i} {shown_name(names[i], chars, keep_end=False).strip() or '␣'}"))
    return out


def causal_triangle(rows: int, cols: int) -> QtGui.QPainterPath:
    """The keys a query may not see when the mask aligns bottom-right (query i sees keys up
    to i + cols − rows): a triangle above the shifted diagonal."""
    offset = cols - rows
    path = QtGui.QPainterPath()
    if offset + 1 < cols:
        path.addPolygon(QtGui.QPolygonF([
            QPointF(offset + 0.5, -0.5), QPointF(cols - 0.5, -0.5),
            QPointF(cols - 0.5, cols - offset - 1.5), QPointF(offset + 0.5, -0.5)]))
    return path


def scores_shown(view: View) -> np.ndarray:
    """The active scores with NaN where the mask removes a key. Past the grid a float32
    capture stays float32 and nothing is copied when nothing is masked: at T = 4096 each
    16-million-cell copy is a visible wait."""
    if not needs_image(view.active.shape):
        values = np.ma.filled(view.active.astype(np.float64), np.nan)
        values[~view.allowed] = np.nan
        return values
    return view.shown


class Picture:
    """The block image of the matrix on screen, kept for the plot's size: the colour levels
    are read off it (block extremes keep the largest |score|) and a resize that keeps the
    factor redraws nothing. A drag step on a large import redraws only the edited strip."""

    def __init__(self) -> None:
        self.values: np.ndarray | None = None
        self.factor = 0
        self.image = np.zeros((0, 0))
        self.serial: int | None = None
        """The serial of the view the image was drawn from (None: not known)."""

    def of(self, canvas: HeatmapCanvas, values: np.ndarray, serial: int | None = None,
           patch: tuple[int, str, int] | None = None,
           reduced: Callable[[int], np.ndarray] | None = None) -> np.ndarray:
        """The image of `values`, the active scores of the view `serial`, which `patch`
        says was patched from another view (`View.patch`); `reduced(factor)` gives `values`
        reduced factor×factor (`View.shown_reduced`, computed ahead for an import)."""
        factor = downsample_factor(max(values.shape), canvas.view_px())
        if values is self.values and factor == self.factor:
            return self.image
        if (patch is not None and patch[0] == self.serial and factor == self.factor
                and self.values is not None and values.shape == self.values.shape):
            self.image = patched_block_image(self.image, values, factor, patch[1], patch[2])
        else:
            if serial is None and values is self.values:
                serial = self.serial  # the same matrix at another size
            self.image = (reduced(factor) if reduced is not None and factor > 1
                          else block_image(values, factor))
        self.values, self.factor, self.serial = values, factor, serial
        return self.image


def show_image(canvas: HeatmapCanvas, picture: Picture, values: np.ndarray,
               levels: tuple[float, float], cmap: pg.ColorMap, unit: str,
               names: Mapping[str, Sequence[str]], causal: bool) -> None:
    """Draw `values` (NaN: no colour) as block extremes sized to the plot's pixels."""
    rows, cols = values.shape
    image = picture.of(canvas, values)
    canvas.cells.clear()
    canvas.show_image(image, levels)
    canvas.show_colorbar(True)
    canvas.set_scale(image.shape, levels, cmap, picture.factor, unit)
    ticks = {side: thinned(labels, TICKS[side], NAME_CHARS[side])
             for side, labels in names.items()}
    least = canvas.cells.floor
    size = min(max(points(READING), least), max(least, 0.05 * canvas.plot_height()))
    canvas.cells.set_placed_axes(ticks, round(size * 2) / 2)
    canvas.set_mask_path(causal_triangle(rows, cols) if causal else QtGui.QPainterPath())
