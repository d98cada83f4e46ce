"""Owns the vector editor's input items: draggable bar columns and the exact-value entry box.

Like the playground's arrow handles, the bars only report gestures; the editor panel turns
them into document edits and redraws the bars from the document's next view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLocale, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen, QWheelEvent
from PySide6.QtWidgets import QAbstractSpinBox, QWidget

from app.model.state import EDIT_LIMIT
from app.ui.widgets.number_box import NumberBox

if TYPE_CHECKING:  # pyqtgraph is untyped: these document what the scene sends
    from pyqtgraph.GraphicsScene.mouseEvents import MouseClickEvent, MouseDragEvent

BAR_WIDTH = 0.7


class BarColumns(pg.GraphicsObject):
    """One vector as vertical bars at x = 0 … d−1; press anywhere in a column and drag."""

    started = Signal(int)
    moved = Signal(int, float, bool)  # dimension, value under the pointer, free (Shift held)
    finished = Signal(int)
    clicked = Signal(int)  # the column clicked

    def __init__(self, count: int, colour: str) -> None:
        super().__init__()
        self._values = np.zeros(count)
        self._reach = 1.0
        self.colour = QColor(colour)
        self._edge_width = 2.0
        self._edge = self._edge_pen()
        self._dragged: int | None = None
        self.setCursor(Qt.CursorShape.SizeVerCursor)

    @property
    def values(self) -> np.ndarray:
        return self._values.copy()

    def set_values(self, values: np.ndarray) -> None:
        values = np.asarray(values, dtype=np.float64)
        if not np.array_equal(values, self._values):
            self._values = values.copy()
            self.update()

    def set_reach(self, reach: float) -> None:
        """The half-height of the plot: the item covers it all so any press hits a column."""
        if reach != self._reach:
            self.prepareGeometryChange()
            self._reach = reach

    def set_edge_width(self, width: float) -> None:
        self._edge_width = width
        self._edge = self._edge_pen()
        self.update()

    def _edge_pen(self) -> QPen:
        """The pen of the line at each bar's value: made when its width is set, not at every
        paint (a drag step paints the chart anew)."""
        return pg.mkPen(self.colour.darker(150), width=self._edge_width)

    def boundingRect(self) -> QRectF:
        return QRectF(-0.5, -self._reach, len(self._values), 2 * self._reach)

    def paint(self, painter: QPainter, *_args: object) -> None:
        fill = QColor(self.colour)
        edge = self._edge
        for index, value in enumerate(self._values):
            fill.setAlphaF(1.0 if index == self._dragged else 0.8)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawRect(QRectF(index - BAR_WIDTH / 2, 0.0, BAR_WIDTH, value).normalized())
            painter.setPen(edge)
            painter.drawLine(QPointF(index - BAR_WIDTH / 2, value),
                             QPointF(index + BAR_WIDTH / 2, value))

    def _column(self, x: float) -> int:
        return int(np.clip(round(x), 0, len(self._values) - 1))

    def mouseClickEvent(self, ev: MouseClickEvent) -> None:
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.clicked.emit(self._column(ev.pos().x()))

    def mouseDragEvent(self, ev: MouseDragEvent) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        ev.accept()
        if ev.isStart():
            self._dragged = self._column(ev.buttonDownPos().x())
            self.started.emit(self._dragged)
        if self._dragged is None:
            return
        free = bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        self.moved.emit(self._dragged, float(ev.pos().y()), free)
        if ev.isFinish():
            index, self._dragged = self._dragged, None
            self.update()
            self.finished.emit(index)


class EntryBox(NumberBox):
    """One vector entry typed exactly: ±EDIT_LIMIT, two decimals, read as every number box
    reads (`NumberBox`), committed on Enter or on leaving the box."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setLocale(QLocale.c())
        self.setRange(-EDIT_LIMIT, EDIT_LIMIT)
        self.setDecimals(2)
        self.setSingleStep(0.1)
        self.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Scrolling past a box must not change a value: the wheel only acts on a focused box."""
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()
