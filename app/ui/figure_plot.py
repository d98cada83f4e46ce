"""Owns x–y plots as figures: a framed plot with round-number ticks and its axes' names,
curves as polylines, vectors as arrows from the origin with a small head and their names,
and a legend, in the shapes of app/ui/figure.py, so a plot exports as the same picture to
PNG and SVG."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from PySide6.QtCore import QSize

from app.model.nice import snap_out
from app.ui.figure import Box, Line, Polyline, Shape, Text, height, width
from app.ui.figure_bars import GAP, MARGIN, TEXT_PX, title_shapes, title_width
from app.ui.format import format_score

PLOT_SIDE = 420.0
"""Pixels of the plot's longer side."""
HEAD = 12.0
"""Pixels an arrow's head reaches back from its tip."""
LEGEND_LINE = 28.0
"""Pixels of the short line before each legend entry."""
DOT = 9.0
"""Pixels of a mark's square."""
TICKS = 5
"""About how many ticks an axis shows."""
JOIN_DECIMALS = 9
"""Decimals (of data units) to which two segments' ends are one point."""
INK, FRAME, GRID = "#000000", "#606060", "#E4E4E4"


@dataclass(frozen=True)
class Curve:
    """A polyline in data units, named in the legend when `name` is not empty."""

    xs: Sequence[float]
    ys: Sequence[float]
    colour: str
    name: str = ""


@dataclass(frozen=True)
class Arrow:
    """A vector from the origin to (x, y), its name printed past its tip."""

    x: float
    y: float
    colour: str
    name: str
    strong: bool = False


@dataclass(frozen=True)
class Mark:
    """A point in data units: a small square in its colour, `name` beside it (a key's dot,
    or with no colour a contour's value on its line)."""

    x: float
    y: float
    colour: str | None
    name: str


@dataclass(frozen=True)
class PlotFigure:
    """A plot over `x_range` × `y_range` (data units); `equal` keeps one unit as long on
    both axes (vectors keep their angles)."""

    title: str
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    axis_names: tuple[str, str]
    curves: Sequence[Curve] = field(default_factory=tuple)
    arrows: Sequence[Arrow] = field(default_factory=tuple)
    marks: Sequence[Mark] = field(default_factory=tuple)
    equal: bool = False

    def _plot_size(self) -> tuple[float, float]:
        if not self.equal:
            return PLOT_SIDE, PLOT_SIDE * 0.7
        w = self.x_range[1] - self.x_range[0]
        h = self.y_range[1] - self.y_range[0]
        scale = PLOT_SIDE / max(w, h)
        return w * scale, h * scale

    def _ticks(self, low: float, high: float) -> list[float]:
        step = _nice_step((high - low) / TICKS)
        first = math.ceil(low / step - 1e-9)
        return [k * step for k in range(first, math.floor(high / step + 1e-9) + 1)]

    def _frame(self) -> tuple[float, float]:
        """The plot's top-left corner."""
        labels = max((width(_tick(v), TEXT_PX) for v in self._ticks(*self.y_range)),
                     default=0.0)
        left = MARGIN + height(TEXT_PX) + GAP + labels + GAP
        return left, title_shapes(self.title)[1] + GAP

    def _legend(self) -> list[Curve]:
        return [curve for curve in self.curves if curve.name]

    def size(self) -> QSize:
        left, top = self._frame()
        plot_w, plot_h = self._plot_size()
        legend = max((LEGEND_LINE + GAP + width(c.name, TEXT_PX) for c in self._legend()),
                     default=0.0)
        names = max((width(a.name, TEXT_PX, a.strong) + 2 * GAP for a in self.arrows),
                    default=0.0)  # a name past a tip at the plot's edge
        w = max(left + plot_w + max(2 * GAP + legend if legend else 0.0, names) + MARGIN,
                title_width(self.title))
        h = top + plot_h + GAP + 2 * height(TEXT_PX) + GAP + MARGIN
        return QSize(math.ceil(w), math.ceil(h))

    def shapes(self) -> list[Shape]:
        shapes, _y = title_shapes(self.title)
        left, top = self._frame()
        plot_w, plot_h = self._plot_size()
        (x0, x1), (y0, y1) = self.x_range, self.y_range

        def at(x: float, y: float) -> tuple[float, float]:
            return (left + (x - x0) / (x1 - x0) * plot_w, top + (y1 - y) / (y1 - y0) * plot_h)

        text_h = height(TEXT_PX)
        for value in self._ticks(x0, x1):
            x = at(value, y0)[0]
            shapes += [Line(x, top, x, top + plot_h, GRID),
                       Text(x, top + plot_h + GAP + text_h / 2, _tick(value), TEXT_PX,
                            anchor="middle")]
        for value in self._ticks(y0, y1):
            y = at(x0, value)[1]
            shapes += [Line(left, y, left + plot_w, y, GRID),
                       Text(left - GAP, y, _tick(value), TEXT_PX, anchor="end")]
        if x0 < 0 < x1 and y0 < 0 < y1 and self.arrows:  # the vectors' axes through 0
            ox, oy = at(0.0, 0.0)
            shapes += [Line(left, oy, left + plot_w, oy, FRAME),
                       Line(ox, top, ox, top + plot_h, FRAME)]
        shapes += [Text(left + plot_w / 2, top + plot_h + 2 * GAP + 1.5 * text_h,
                        self.axis_names[0], TEXT_PX, anchor="middle"),
                   Text(MARGIN + text_h / 2, top + plot_h / 2, self.axis_names[1], TEXT_PX,
                        anchor="middle", upright=True)]
        for curve in self.curves:
            points = tuple(at(x, y) for x, y in zip(curve.xs, curve.ys, strict=True)
                           if math.isfinite(x) and math.isfinite(y))
            if len(points) > 1:
                shapes.append(Polyline(points, curve.colour))
        for arrow in self.arrows:
            shapes += _arrow(at(0.0, 0.0), at(arrow.x, arrow.y), arrow)
        for mark in self.marks:
            x, y = at(mark.x, mark.y)
            if mark.colour is None:
                shapes.append(Text(x, y, mark.name, TEXT_PX - 2, INK, anchor="middle"))
                continue
            shapes += [Box(x - DOT / 2, y - DOT / 2, DOT, DOT, fill=mark.colour, stroke=INK),
                       Text(x + DOT, y - DOT, mark.name, TEXT_PX, INK, bold=True)]
        shapes.append(Box(left, top, plot_w, plot_h, stroke=FRAME))
        for i, curve in enumerate(self._legend()):
            x, y = left + plot_w + 2 * GAP, top + (i + 0.5) * text_h * 1.5
            shapes += [Line(x, y, x + LEGEND_LINE, y, curve.colour),
                       Line(x, y + 1, x + LEGEND_LINE, y + 1, curve.colour),
                       Text(x + LEGEND_LINE + GAP, y, curve.name, TEXT_PX)]
        return shapes


def _tick(value: float) -> str:
    return format_score(value, 2).rstrip("0").rstrip(".") if "." in format_score(
        value, 2) else format_score(value, 2)


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least `raw`."""
    raw = raw if raw > 0 else 1.0
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw - 1e-12)


def _arrow(start: tuple[float, float], tip: tuple[float, float], arrow: Arrow) -> list[Shape]:
    """A shaft (doubled when `strong`), a head of two short lines, and the name past the
    tip, on the side the arrow points to."""
    (sx, sy), (tx, ty) = start, tip
    length = math.hypot(tx - sx, ty - sy)
    shapes: list[Shape] = [Line(sx, sy, tx, ty, arrow.colour)]
    if length == 0:
        return [*shapes, Text(tx + GAP, ty - GAP, arrow.name, TEXT_PX, arrow.colour,
                              bold=arrow.strong)]
    ux, uy = (tx - sx) / length, (ty - sy) / length
    nx, ny = -uy, ux
    for offset in ((0.8, 1.6) if arrow.strong else (0.8,)):
        shapes += [Line(sx + nx * offset, sy + ny * offset, tx + nx * offset, ty + ny * offset,
                        arrow.colour)]
    for side in (1.0, -1.0):
        for spread in (0.0, 0.5):
            shapes.append(Line(tx, ty, tx - ux * HEAD + nx * side * (HEAD * 0.45 - spread),
                               ty - uy * HEAD + ny * side * (HEAD * 0.45 - spread),
                               arrow.colour))
    anchor = "start" if ux >= -0.2 else "end"
    along = tx + ux * GAP + (GAP if anchor == "start" else -GAP) * 0.5
    shapes.append(Text(along, ty + uy * (GAP + height(TEXT_PX) / 2), arrow.name, TEXT_PX,
                       arrow.colour, anchor=anchor, bold=arrow.strong))
    return shapes


def padded(low: float, high: float, share: float = 0.1) -> tuple[float, float]:
    """A range round at its ends with `share` of its span to spare either side."""
    span = (high - low) or 1.0
    return snap_out(low - share * span, high + share * span)


def joined(segments: np.ndarray) -> list[np.ndarray]:
    """Segments ((n, 2, 2): each from [i, 0] to [i, 1]) chained where one ends where another
    starts or ends, as point arrays: a contour traced cell by cell becomes a few lines. Ends
    meet to `JOIN_DECIMALS`, as two cells work out the point on their common edge."""
    flat = segments.reshape(-1, 2)
    keys = [tuple(p) for p in np.round(flat, JOIN_DECIMALS).tolist()]
    at_point: dict[tuple[float, ...], list[int]] = {}
    for end, key in enumerate(keys):
        at_point.setdefault(key, []).append(end)
    used = [False] * len(segments)

    def walk(end: int) -> list[int]:
        """The ends met going on from `end` (end 2i or 2i + 1 of segment i), in order."""
        met: list[int] = []
        while True:
            after = next((e for e in at_point[keys[end]] if not used[e // 2]), None)
            if after is None:
                return met
            used[after // 2] = True
            end = after ^ 1
            met.append(end)

    lines = []
    for i, done in enumerate(used):
        if not done:
            used[i] = True
            order = [*walk(2 * i)[::-1], 2 * i, 2 * i + 1]
            lines.append(flat[[*order, *walk(2 * i + 1)]])
    return lines


def _shifted(shape: Shape, dx: float, dy: float) -> Shape:
    if isinstance(shape, Polyline):
        return replace(shape, points=tuple((x + dx, y + dy) for x, y in shape.points))
    if isinstance(shape, Line):
        return replace(shape, x1=shape.x1 + dx, y1=shape.y1 + dy, x2=shape.x2 + dx,
                       y2=shape.y2 + dy)
    return replace(shape, x=shape.x + dx, y=shape.y + dy)


@dataclass(frozen=True)
class GridFigure:
    """Several plots in rows of `columns` under one title (the four landscapes)."""

    title: str
    plots: Sequence[PlotFigure]
    columns: int

    def _cell(self) -> tuple[float, float]:
        sizes = [plot.size() for plot in self.plots]
        return (max((s.width() for s in sizes), default=0),
                max((s.height() for s in sizes), default=0))

    def size(self) -> QSize:
        cell_w, cell_h = self._cell()
        rows = math.ceil(len(self.plots) / self.columns)
        w = max(self.columns * cell_w, title_width(self.title))
        return QSize(math.ceil(w), math.ceil(title_shapes(self.title)[1] + rows * cell_h))

    def shapes(self) -> list[Shape]:
        shapes, top = title_shapes(self.title)
        cell_w, cell_h = self._cell()
        for i, plot in enumerate(self.plots):
            row, column = divmod(i, self.columns)
            shapes += [_shifted(shape, column * cell_w, top + row * cell_h - MARGIN)
                       for shape in plot.shapes()]
        return shapes
