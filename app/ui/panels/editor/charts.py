"""Owns the editor's charts: one small bare pyqtgraph view per token and role, holding that
vector's draggable bars, with its exact entry boxes below; and the sizes they share."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen, QResizeEvent, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsRectItem,
    QHBoxLayout,
    QVBoxLayout,
    QWidget,
)

from app.ui.look import SELECTION_COLOUR
from app.ui.panels.editor.bars import BarColumns, EntryBox
from app.ui.qt_known import layout_of

ROLES = ("q", "k")
SNAP = 0.1
MIN_REACH = 1.0
MINIMUM_SIZE = (240, 220)


FINE_DECIMALS = 2
"""With Shift a dragged bar keeps this many decimals: the fine steps the tooltip names."""


def snapped(value: float, free: bool) -> float:
    """Dragged bar heights land on the 0.1 grid; with Shift they keep two decimals."""
    return round(value, FINE_DECIMALS) if free else round(round(value / SNAP) * SNAP, 1)


def bar_reach(values: np.ndarray) -> float:
    """Half-height shared by every chart, so bars compare across tokens: the largest entry
    plus some headroom to drag into, rounded up to a half."""
    return max(MIN_REACH, math.ceil(2 * (float(np.max(np.abs(values))) + 0.25)) / 2)


def stacked_width(cell: QWidget) -> int:
    """A token cell's width in the two-column layout (name over buttons), whatever its
    direction now: the narrow layout puts them in a row, and measuring that row would keep
    the dock narrow for good."""
    layout = layout_of(cell)
    margins = layout.contentsMargins()
    widest = max(item.minimumSize().width() for i in range(layout.count())
                 if (item := layout.itemAt(i)) is not None)
    return widest + margins.left() + margins.right()


class ChartView(pg.GraphicsView):
    """A bare pyqtgraph view for one vector: no axes, menus or view box, so ten of them
    build in a few milliseconds (a PlotWidget each took over ten) and a drag step repaints
    only the bars.

    The scene stays in pixels, as pyqtgraph's drag threshold is measured in scene units;
    items hang under `canvas`, whose transform maps (dimension, value) onto the viewport
    with values growing upwards.
    """

    def __init__(self, dims: int) -> None:
        self._dims = dims  # set first: pyqtgraph's constructor already calls resizeEvent
        self._reach = 1.0
        self.canvas = QGraphicsRectItem()
        super().__init__()
        self.border = pg.mkPen("#BBBBBB", width=1)
        self.canvas.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.addItem(self.canvas)

    def set_reach(self, reach: float) -> None:
        """Show values from −reach to reach (with a little room above and below)."""
        if reach != self._reach:
            self._reach = reach
            self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        margin = 1.04 * self._reach
        sx, sy = self.width() / self._dims, self.height() / (2 * margin)
        self.canvas.setTransform(QTransform(sx, 0.0, 0.0, -sy, 0.5 * sx, margin * sy))

    def set_border(self, pen: QPen) -> None:
        if pen != self.border:  # a repaint of its own, in a pass before the bars' one
            self.border = pen
            self.viewport().update()

    def drawForeground(self, painter: QPainter, _rect: QRectF) -> None:
        """The frame that marks the selected token, drawn in pixels just inside the edge."""
        painter.save()
        painter.resetTransform()
        painter.setPen(self.border)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        inset = self.border.widthF() / 2
        painter.drawRect(QRectF(self.viewport().rect()).adjusted(inset, inset, -inset, -inset))
        painter.restore()


class VectorChart:
    """One token's q or k: a small chart holding its BarColumns, plus the entry boxes below."""

    def __init__(self, role: str, token: int, colour: str, dims: int) -> None:
        self.role, self.token = role, token
        self.plot = ChartView(dims)
        self.plot.setObjectName(f"editor_{role}_{token}_chart")
        self.plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.zero = QGraphicsLineItem(-0.5, 0.0, dims - 0.5, 0.0)
        self.zero.setPen(pg.mkPen("#777777", width=1))  # cosmetic: one pixel at any scale
        self.zero.setParentItem(self.plot.canvas)
        self.bars = BarColumns(dims, colour)
        self.bars.setParentItem(self.plot.canvas)
        self.boxes = [EntryBox() for _ in range(dims)]
        for dim, box in enumerate(self.boxes):
            box.setObjectName(f"editor_{role}_{token}_{dim}")
            box.takes_rows = True  # a pasted row of d numbers fills the vector
        self.widget = QWidget()
        layout = QVBoxLayout(self.widget)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.plot)
        row = QHBoxLayout()
        row.setSpacing(3)
        for box in self.boxes:
            row.addWidget(box)
        layout.addLayout(row)
        self._shown: tuple[bytes, bool, float, float] | None = None

    def set_reach(self, reach: float) -> None:
        self.bars.set_reach(reach)
        self.plot.set_reach(reach)

    def show(self, values: np.ndarray, selected: bool, opacity: float, width: float) -> None:
        """Bars, boxes and outline for these values; a drag step changes one chart of ten,
        so the other nine return at once."""
        shown = (values.tobytes(), selected, opacity, width)
        if shown == self._shown:
            return
        self._shown = shown
        self.bars.set_values(values)
        self.bars.setOpacity(opacity)
        for box, value in zip(self.boxes, values, strict=True):
            if box.value() != round(float(value), 2):
                box.blockSignals(True)
                box.setValue(float(value))
                box.blockSignals(False)
        colour = SELECTION_COLOUR if selected else "#BBBBBB"
        self.plot.set_border(pg.mkPen(colour, width=width * (2 if selected else 1)))
