"""Owns bar charts as figures: bars standing on a zero line with their values and names
printed, and rows of horizontal bars with a percentage each, in the shapes of app/ui/figure.py,
so a panel's bars export as the same picture to PNG and SVG."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QSize

from app.ui.figure import Box, Line, Shape, Text, height, width

MARGIN, GAP = 16.0, 8.0
"""Pixels of white around the figure, and between a bar, its value and its name."""
TEXT_PX, TITLE_PX = 15, 19
"""Font sizes in pixels: a figure is read on a page or a slide."""
PLOT_HEIGHT = 220.0
"""Pixels from the highest bar's end to the lowest one's."""
LEAST_SLOT = 56.0
"""The least pixels a bar's column takes, however short its name and value."""
ROW_BAR = 240.0
"""Pixels a weight of 1 (100 %) takes in a row of horizontal bars."""
READER_SLACK = 1.2
"""How much wider a line may come out in the SVG reader's font than in the app's."""
INK, ZERO, FRAME = "#000000", "#888888", "#404040"


def title_shapes(title: str, subtitle: str = "") -> tuple[list[Shape], float]:
    """The title (bold) and an optional line under it, at the top left; and where what
    follows may start."""
    shapes: list[Shape] = [Text(MARGIN, MARGIN + height(TITLE_PX) / 2, title, TITLE_PX,
                                bold=True)]
    y = MARGIN + height(TITLE_PX) + GAP
    if subtitle:
        shapes.append(Text(MARGIN, y + height(TEXT_PX) / 2, subtitle, TEXT_PX))
        y += height(TEXT_PX) + GAP
    return shapes, y


def title_width(title: str, subtitle: str = "") -> float:
    """The width the title needs, with room for a reader's wider font."""
    return 2 * MARGIN + READER_SLACK * max(width(title, TITLE_PX, True),
                                           width(subtitle, TEXT_PX))


@dataclass(frozen=True)
class BarsFigure:
    """One bar per value from a zero line, its text past its end and its name under the
    plot; `marked` is outlined (the term that decides)."""

    title: str
    subtitle: str
    values: Sequence[float]
    texts: Sequence[str]
    names: Sequence[str]
    fills: Sequence[str]
    marked: int | None = None

    def _slot(self) -> float:
        widest = max((width(t, TEXT_PX) for t in (*self.texts, *self.names)), default=0.0)
        return math.ceil(max(LEAST_SLOT, widest + 2 * GAP))

    def _top(self) -> float:
        return title_shapes(self.title, self.subtitle)[1] + height(TEXT_PX) + GAP

    def _span(self) -> tuple[float, float]:
        """The lowest and highest value the plot reaches (zero among them)."""
        return min([0.0, *self.values]), max([0.0, *self.values])

    def _below(self) -> float:
        """Room under the plot for the values of bars that go below zero."""
        return height(TEXT_PX) + GAP if self._span()[0] < 0 else 0.0

    def size(self) -> QSize:
        plot_w = len(self.values) * self._slot()
        w = max(2 * MARGIN + plot_w, title_width(self.title, self.subtitle))
        h = self._top() + PLOT_HEIGHT + self._below() + GAP + height(TEXT_PX) + MARGIN
        return QSize(math.ceil(w), math.ceil(h))

    def shapes(self) -> list[Shape]:
        shapes, _y = title_shapes(self.title, self.subtitle)
        slot, top = self._slot(), self._top()
        low, high = self._span()
        scale = PLOT_HEIGHT / ((high - low) or 1.0)
        zero = top + high * scale
        names_y = top + PLOT_HEIGHT + self._below() + GAP + height(TEXT_PX) / 2
        bar_w = slot * 0.6
        text_h = height(TEXT_PX)
        for i, (value, text, name, fill) in enumerate(
                zip(self.values, self.texts, self.names, self.fills, strict=True)):
            middle = MARGIN + (i + 0.5) * slot
            end = zero - value * scale
            marked = i == self.marked
            shapes.append(Box(middle - bar_w / 2, min(zero, end), bar_w, abs(end - zero),
                              fill=fill, stroke=INK if marked else FRAME))
            if marked:  # a second outline inside the first: the term that decides
                shapes.append(Box(middle - bar_w / 2 + 1, min(zero, end) + 1, bar_w - 2,
                                  max(0.0, abs(end - zero) - 2), stroke=INK))
            along = end - GAP - text_h / 2 if value >= 0 else end + GAP + text_h / 2
            shapes.append(Text(middle, along, text, TEXT_PX, anchor="middle", bold=marked))
            shapes.append(Text(middle, names_y, name, TEXT_PX, anchor="middle"))
        shapes.append(Line(MARGIN, zero, MARGIN + len(self.values) * slot, zero, ZERO))
        return shapes


@dataclass(frozen=True)
class WeightRow:
    """A name, its weight (0 … 1) as a bar, and the text printed after it; `strong` rows
    are bold (the largest weight); a row without a weight prints only its text."""

    name: str
    weight: float | None
    text: str
    strong: bool = False


@dataclass(frozen=True)
class RowsFigure:
    """Groups of horizontal weight bars, each under its own caption (one group per head)."""

    title: str
    groups: Sequence[tuple[str, Sequence[WeightRow]]]
    colour: str

    def _columns(self) -> tuple[float, float]:
        rows = [row for _caption, group in self.groups for row in group]
        names = max((width(row.name, TEXT_PX, row.strong) for row in rows), default=0.0)
        texts = max((width(row.text, TEXT_PX, True) for row in rows), default=0.0)
        return math.ceil(names), math.ceil(texts)

    def _row_h(self) -> float:
        return math.ceil(height(TEXT_PX) * 1.5)

    def size(self) -> QSize:
        names, texts = self._columns()
        captions = max((width(c, TEXT_PX, True) for c, _g in self.groups), default=0.0)
        w = max(2 * MARGIN + names + GAP + ROW_BAR + GAP + texts, 2 * MARGIN + captions,
                title_width(self.title))
        h = title_shapes(self.title)[1] + MARGIN + sum(
            (height(TEXT_PX) + GAP if caption else 0.0) + len(group) * self._row_h()
            for caption, group in self.groups)
        return QSize(math.ceil(w), math.ceil(h))

    def shapes(self) -> list[Shape]:
        shapes, y = title_shapes(self.title)
        names, _texts = self._columns()
        bar_x = MARGIN + names + GAP
        row_h = self._row_h()
        for caption, group in self.groups:
            if caption:
                shapes.append(Text(MARGIN, y + height(TEXT_PX) / 2, caption, TEXT_PX, bold=True))
                y += height(TEXT_PX) + GAP
            for row in group:
                middle = y + row_h / 2
                shapes.append(Text(bar_x - GAP, middle, row.name, TEXT_PX, anchor="end",
                                   bold=row.strong))
                reach = 0.0
                if row.weight is not None:
                    reach = max(1.0, row.weight * ROW_BAR)
                    shapes.append(Box(bar_x, middle - row_h * 0.3, reach, row_h * 0.6,
                                      fill=self.colour))
                shapes.append(Text(bar_x + reach + GAP, middle, row.text, TEXT_PX,
                                   bold=row.strong))
                y += row_h
        return shapes
