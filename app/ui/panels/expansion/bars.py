"""Owns the term-by-term bar chart's bars: one bar per term of the sum and the zero line they
rise from, drawn by one item.

pyqtgraph's BarGraphItem re-derives its rectangles, pens, bounds and a recorded picture at
every new height, and measures its pen in pixels each time it is asked for its bounds; a
drag step gives the four bars new heights every time, so that was most of the panel's
refresh. These bars keep their brushes and pens as given and cover the plot's visible range,
so new heights are only a repaint. (An InfiniteLine for zero re-measured itself while the
plot painted after a new range, which painted the plot a second time.)
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QBrush, QColor, QPainter, QPen

BAR_WIDTH = 0.6
"""A bar's width in x units (terms sit at x = 1 … d)."""
ZERO_COLOUR = "#888888"


class TermBars(pg.GraphicsObject):
    """Bars at x = 1 … d rising (or falling) from 0 to each term's value."""

    def __init__(self) -> None:
        super().__init__()
        self.heights = np.zeros(0)
        self.brushes: list[QBrush] = []
        self.pens: list[QPen] = []
        self._zero = QPen(QColor(ZERO_COLOUR), 1)
        self._zero.setCosmetic(True)  # one pixel at any scale

    def set_bars(self, heights: np.ndarray, brushes: list[QBrush], pens: list[QPen]) -> None:
        """New heights, each bar with its own fill and outline (the same number of each)."""
        self.heights = np.array(heights, dtype=np.float64)
        self.brushes, self.pens = brushes, pens
        self.update()

    def viewRangeChanged(self) -> None:
        self.prepareGeometryChange()  # the bounds are the visible range

    def boundingRect(self) -> QRectF:
        """The plot's visible range: an outline's pixels past a bar's end are always inside
        it, and nothing outside it is seen (the view clips to it)."""
        seen = self.viewRect()
        return QRectF() if seen is None else seen

    def paint(self, painter: QPainter, *_args: object) -> None:
        for x, (height, brush, pen) in enumerate(
                zip(self.heights.tolist(), self.brushes, self.pens, strict=True), start=1):
            painter.setPen(pen)
            painter.setBrush(brush)
            painter.drawRect(QRectF(x - BAR_WIDTH / 2, min(0.0, height), BAR_WIDTH, abs(height)))
        seen = self.boundingRect()
        painter.setPen(self._zero)  # crisp: not antialiased across two rows of pixels
        painter.drawLine(QPointF(seen.left(), 0.0), QPointF(seen.right(), 0.0))
