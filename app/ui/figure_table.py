"""Owns tables as figures: a title (and a line under it), a bold header row, the rows as a
panel shows them and the notes under them, in the shapes of app/ui/figure.py, so a table
exports as the same picture to PNG and SVG."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QSize

from app.ui.figure import Box, Line, Shape, Text, height, width
from app.ui.figure_bars import GAP, MARGIN, READER_SLACK, TEXT_PX, title_shapes, title_width

CELL_PAD = 10.0
"""Pixels between a cell's text and its column's edges."""
HEADER_FILL, RULE, FRAME = "#EEEEEE", "#C8C8C8", "#606060"


@dataclass(frozen=True)
class TableRow:
    """One row's texts, its background (None: white) and whether it is bold (the row the
    panel has selected)."""

    cells: Sequence[str]
    fill: str | None = None
    strong: bool = False


@dataclass(frozen=True)
class TableFigure:
    """A header and rows; columns flagged in `numeric` are right-aligned, as numbers are;
    `notes` are lines under the table (what a mark in a cell means, where numbers come
    from)."""

    title: str
    header: Sequence[str]
    rows: Sequence[TableRow]
    numeric: Sequence[bool]
    subtitle: str = ""
    notes: Sequence[str] = ()

    def _widths(self) -> list[float]:
        widths: list[float] = []
        for j, name in enumerate(self.header):
            texts = [width(row.cells[j], TEXT_PX, row.strong) for row in self.rows]
            widest = max([width(name, TEXT_PX, True), *texts])
            widths.append(math.ceil(widest * READER_SLACK + 2 * CELL_PAD))
        return widths

    def _row_h(self) -> float:
        return math.ceil(height(TEXT_PX) * 1.7)

    def _notes_h(self) -> float:
        return sum(GAP + height(TEXT_PX) for _note in self.notes)

    def size(self) -> QSize:
        notes = max((width(note, TEXT_PX) * READER_SLACK for note in self.notes), default=0.0)
        w = max(2 * MARGIN + sum(self._widths()), 2 * MARGIN + notes,
                title_width(self.title, self.subtitle))
        h = (title_shapes(self.title, self.subtitle)[1] + GAP
             + (len(self.rows) + 1) * self._row_h() + self._notes_h() + MARGIN)
        return QSize(math.ceil(w), math.ceil(h))

    def shapes(self) -> list[Shape]:
        shapes, top = title_shapes(self.title, self.subtitle)
        top += GAP
        widths, row_h = self._widths(), self._row_h()
        total = sum(widths)
        lines = [TableRow(self.header, HEADER_FILL, True), *self.rows]
        for i, row in enumerate(lines):
            y = top + i * row_h
            if row.fill:
                shapes.append(Box(MARGIN, y, total, row_h, fill=row.fill))
            if i:
                shapes.append(Line(MARGIN, y, MARGIN + total, y, RULE))
            x = MARGIN
            for j, (text, column) in enumerate(zip(row.cells, widths, strict=True)):
                right = self.numeric[j] and i > 0
                shapes.append(Text(x + column - CELL_PAD if right else x + CELL_PAD,
                                   y + row_h / 2, text, TEXT_PX,
                                   anchor="end" if right else "start", bold=row.strong))
                x += column
        shapes.append(Box(MARGIN, top, total, len(lines) * row_h, stroke=FRAME))
        y = top + len(lines) * row_h
        for note in self.notes:
            shapes.append(Text(MARGIN, y + GAP + height(TEXT_PX) / 2, note, TEXT_PX))
            y += GAP + height(TEXT_PX)
        return shapes
