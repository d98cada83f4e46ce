"""Owns putting the plane's labels where they are read: each text item's size on screen, its
candidate places around the point it names, and the choice (placement.py) applied to the
items, so no label covers another and none lies across an arrow."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pyqtgraph as pg

from app.ui.panels.playground.arrows import LABEL_GAP_PX, VectorArrow
from app.ui.panels.playground.placement import (
    Bounds,
    Label,
    Rect,
    Segment,
    along,
    around,
    inside,
    overlaps,
    place,
)

Mark = tuple[pg.TextItem, tuple[float, float], float]
"""A label, the point it belongs beside and the direction it leaves it in first (radians)."""
Level = tuple[pg.TextItem, tuple[float, float]]
"""A contour value and the point of its line it is written on."""
MARK_GAPS = (0.5, 1.5, 3.0, 4.5)
"""A mark's label tries these many label gaps along its own direction first (θ along the
bisector of its arc, |k|cos θ straight out from q's line), then turns."""
LOWER_LEFT = (0.0, 1.0)
"""A placed label's anchor: its rectangle's lower left corner (plot y points up)."""
SHAFT_CLEARANCE_PX = 3.0
"""Pixels (at 100 %) a label keeps from an arrow beyond the shaft's half width."""


def text_size(item: pg.TextItem, pixel: tuple[float, float]) -> tuple[float, float]:
    """A text item's box (its fill included) in plot units."""
    box = item.textItem.boundingRect()
    return box.width() * pixel[0], box.height() * pixel[1]


def put(item: pg.TextItem, rect: Rect | None) -> None:
    """Show the item with its lower left corner at the rectangle's, or hide it (None)."""
    if item.isVisible() != (rect is not None):
        item.setVisible(rect is not None)
    if rect is not None:
        if tuple(item.anchor) != LOWER_LEFT:
            item.setAnchor(LOWER_LEFT)
        at = item.pos()
        if (at.x(), at.y()) != (rect[0], rect[1]):  # a move is Python work in pyqtgraph
            item.setPos(rect[0], rect[1])


class Joined(Sequence[Rect]):
    """Two candidate sequences one after the other, each worked out only as far as read."""

    def __init__(self, first: Sequence[Rect], second: Sequence[Rect]) -> None:
        self._parts = (first, second)

    def __len__(self) -> int:
        return len(self._parts[0]) + len(self._parts[1])

    def __iter__(self) -> Iterator[Rect]:
        for part in self._parts:
            yield from part

    def __getitem__(self, index: int) -> Rect:  # type: ignore[override]
        first, second = self._parts
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        return first[index] if index < len(first) else second[index - len(first)]


def crowded(rects: Sequence[Rect | None]) -> bool:
    """Some of these labels cover one another (a required label found no free place)."""
    shown = [rect for rect in rects if rect is not None]
    return any(overlaps(a, b) for i, a in enumerate(shown) for b in shown[i + 1:])


def arrange(arrows: Sequence[VectorArrow], marks: Sequence[Mark], levels: Sequence[Level],
            drops: Sequence[Segment], pixel: tuple[float, float], bounds: Bounds,
            scale: float, shaft_px: float) -> dict[pg.TextItem, Rect]:
    """Place every label of the plane in order of need: the pair's marks (tied to one
    point each), then the vectors' names in `arrows`' order (q, the selected key, the rest),
    then the contour values, which are left out where they would cover anything. Labels keep
    clear of each other, of the arrows' shafts and of the `drops` (the projection's dashed
    line). Where the names would cover each other, the marks give way (θ and |k|cos θ are
    left out). Returns the rectangles the shown labels were given (plot units)."""
    gap = LABEL_GAP_PX * scale * pixel[0]
    shafts = [(0.0, 0.0, *arrow.tip) for arrow in arrows if arrow.tip != (0.0, 0.0)]
    shafts += list(drops)
    pad = (shaft_px / 2 + SHAFT_CLEARANCE_PX * scale) * pixel[0]
    items: list[pg.TextItem] = []
    labels: list[Label] = []
    (x_low, x_high), (y_low, y_high) = bounds

    def room_for(size: tuple[float, float]) -> bool:
        """A label larger than the plane would be cut whatever its place: left out."""
        return size[0] <= x_high - x_low and size[1] <= y_high - y_low

    for item, (x, y), outward in marks:
        size = text_size(item, pixel)
        items.append(item)
        labels.append(Label(Joined(along(x, y, outward, size, [gap * g for g in MARK_GAPS],
                                         bounds), around(x, y, outward, size, gap * 0.5,
                                                         bounds)) if room_for(size) else ()))
    for arrow in arrows:
        x, y = arrow.tip
        size = text_size(arrow.label, pixel)
        items.append(arrow.label)
        labels.append(Label(around(x, y, arrow.outward, size, gap, bounds)
                            if room_for(size) else ()))
    for item, (x, y) in levels:
        width, height = text_size(item, pixel)
        items.append(item)
        labels.append(Label((inside((x - width / 2, y - height / 2, width, height), bounds),),
                            required=False))
    chosen = place(labels, shafts, pad=pad)
    if crowded(chosen[:len(marks) + len(arrows)]):  # the names matter more than the marks
        chosen = place([Label(()) for _ in marks] + labels[len(marks):], shafts, pad=pad)
    for item, rect in zip(items, chosen, strict=True):
        put(item, rect)
    return {item: rect for item, rect in zip(items, chosen, strict=True) if rect is not None}
