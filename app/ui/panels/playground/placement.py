"""Owns where the plane's labels go: for each label, in order, the first of its candidate
rectangles that covers no label already placed and crosses no arrow, kept inside the plot
(pure geometry in plot units, so a test can check it without a window)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

Rect = tuple[float, float, float, float]
"""left, bottom, width, height in plot units (y points up)."""
Segment = tuple[float, float, float, float]
"""x0, y0, x1, y1: an arrow's shaft, which labels keep clear of."""
Bounds = tuple[tuple[float, float], tuple[float, float]]
"""((x_low, x_high), (y_low, y_high)): the visible range."""

DIRECTIONS = 16
"""Sides of a point tried for its label, outward first, then turning either way."""
DISTANCES = (1.0, 2.2, 3.6, 5.2, 7.0)
"""Gaps (in multiples of the label gap) tried on each side, nearest first."""


@dataclass(frozen=True)
class Label:
    """A label to place: its candidate rectangles in order of preference, and whether it must
    be shown (a vector's name) or may be left out where it fits nowhere (a contour value)."""

    candidates: Sequence[Rect]
    required: bool = True


def overlaps(a: Rect, b: Rect) -> bool:
    """Two rectangles share more than an edge."""
    return (a[0] < b[0] + b[2] and b[0] < a[0] + a[2]
            and a[1] < b[1] + b[3] and b[1] < a[1] + a[3])


def crosses(rect: Rect, segment: Segment) -> bool:
    """The segment passes through the rectangle (Liang–Barsky clipping)."""
    x0, y0, x1, y1 = segment
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - rect[0]), (dx, rect[0] + rect[2] - x0),
                 (-dy, y0 - rect[1]), (dy, rect[1] + rect[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:  # compared, not max()/min(): placement asks this at every drag step
            if t > low:
                low = t
        elif t < high:
            high = t
        if low > high:
            return False
    return True


def inside(rect: Rect, bounds: Bounds) -> Rect:
    """The rectangle slid back inside the visible range (never cut off by the plot's edge)."""
    (x_low, x_high), (y_low, y_high) = bounds
    left = min(max(rect[0], x_low), max(x_low, x_high - rect[2]))
    bottom = min(max(rect[1], y_low), max(y_low, y_high - rect[3]))
    return left, bottom, rect[2], rect[3]


def beside(x: float, y: float, direction: float, size: tuple[float, float],
           gap: float) -> Rect:
    """A label of `size` sitting `gap` from the point (x, y) in `direction` (radians), with the
    side nearest the point facing it."""
    ux, uy = math.cos(direction), math.sin(direction)
    left = x + gap * ux - (0.5 - 0.5 * ux) * size[0]
    bottom = y + gap * uy - (0.5 - 0.5 * uy) * size[1]
    return left, bottom, size[0], size[1]


class Around(Sequence[Rect]):
    """Candidates around a point, outward first, then turning either way, nearest first;
    worked out only as far as they are read (most labels take their first or second)."""

    def __init__(self, x: float, y: float, outward: float, size: tuple[float, float],
                 gap: float, bounds: Bounds) -> None:
        self._spec = (x, y, size, bounds)
        self._turns = [outward]
        for step in range(1, DIRECTIONS // 2 + 1):
            turn = step * 2 * math.pi / DIRECTIONS
            self._turns += [outward + turn, outward - turn]
        del self._turns[DIRECTIONS:]
        self._gaps = [gap * distance for distance in DISTANCES]

    def __len__(self) -> int:
        return len(self._turns) * len(self._gaps)

    def __iter__(self) -> Iterator[Rect]:
        """`inside(beside(...))` for each candidate, written out: most steps read dozens."""
        x, y, (width, height), ((x_low, x_high), (y_low, y_high)) = self._spec
        left_most, bottom_most = max(x_low, x_high - width), max(y_low, y_high - height)
        sides = [(math.cos(turn), math.sin(turn)) for turn in self._turns]
        for gap in self._gaps:
            for ux, uy in sides:
                left = x + gap * ux - (0.5 - 0.5 * ux) * width
                bottom = y + gap * uy - (0.5 - 0.5 * uy) * height
                yield (min(max(left, x_low), left_most), min(max(bottom, y_low), bottom_most),
                       width, height)

    def __getitem__(self, index: int) -> Rect:  # type: ignore[override]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        gap, turn = divmod(index % len(self), len(self._turns))
        x, y, size, bounds = self._spec
        return inside(beside(x, y, self._turns[turn], size, self._gaps[gap]), bounds)


def around(x: float, y: float, outward: float, size: tuple[float, float], gap: float,
           bounds: Bounds) -> Sequence[Rect]:
    """Candidates around a point: outward first, then turning either way, nearest first."""
    return Around(x, y, outward, size, gap, bounds)


def along(x: float, y: float, direction: float, size: tuple[float, float],
          gaps: Sequence[float], bounds: Bounds) -> list[Rect]:
    """Candidates on one side of a point, at each of `gaps` from it (nearest first): a mark's
    label keeps to its mark's own direction before it turns away."""
    return [inside(beside(x, y, direction, size, gap), bounds) for gap in gaps]


def _clear(rect: Rect, placed: Sequence[Rect], arrows: Sequence[Segment],
           pad: float) -> tuple[bool, bool]:
    """(covers no placed label, and also stays `pad` clear of every arrow); written out in
    plain comparisons, since a drag step asks this of about a hundred candidates: `overlaps`
    inline, and an arrow wholly to one side of the widened rectangle passed over before
    `crosses` clips it."""
    left, bottom, width, height = rect
    right, top = left + width, bottom + height
    for other_left, other_bottom, other_width, other_height in placed:
        if (left < other_left + other_width and other_left < right
                and bottom < other_bottom + other_height and other_bottom < top):
            return False, False
    left, bottom, right, top = left - pad, bottom - pad, right + pad, top + pad
    wide = (left, bottom, width + 2 * pad, height + 2 * pad)
    for arrow in arrows:
        x0, y0, x1, y1 = arrow
        if ((x0 < left and x1 < left) or (x0 > right and x1 > right)
                or (y0 < bottom and y1 < bottom) or (y0 > top and y1 > top)):
            continue
        if crosses(wide, arrow):
            return True, False
    return True, True


def _covered(rect: Rect, placed: Sequence[Rect]) -> float:
    """The area of `rect` that labels already placed cover (overlaps counted each time)."""
    total = 0.0
    for other in placed:
        width = min(rect[0] + rect[2], other[0] + other[2]) - max(rect[0], other[0])
        height = min(rect[1] + rect[3], other[1] + other[3]) - max(rect[1], other[1])
        if width > 0 and height > 0:
            total += width * height
    return total


def place(labels: Sequence[Label], arrows: Sequence[Segment], placed: Sequence[Rect] = (),
          pad: float = 0.0) -> list[Rect | None]:
    """Each label's rectangle, in order: the first candidate clear of every label placed
    before it and (by `pad`, the shafts' half width) of every arrow; else, for a required
    label, the first clear of the labels (covering part of an arrow, which its fill lets
    through), or failing that the one least covered; an optional label that fits nowhere
    clear is left out (None)."""
    taken = list(placed)
    chosen: list[Rect | None] = []
    for label in labels:
        best: Rect | None = None
        for rect in label.candidates:
            free, clear = _clear(rect, taken, arrows, pad)
            if clear:
                best = rect
                break
            if free and best is None and label.required:
                best = rect
        if best is None and label.required and label.candidates:
            best = min(label.candidates, key=lambda rect: _covered(rect, taken))
        chosen.append(best)
        if best is not None:
            taken.append(best)
    return chosen
