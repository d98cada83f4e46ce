"""Owns the round mark a plot puts at one point (the playground's projection foot, the
landscapes' keys), moved with `set_point`: a ScatterPlotItem's paint for one point cost a
fifth of the whole plane's, and its `setData` re-rendered its symbols at every drag step."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem


class Dot(pg.GraphicsObject):
    """A round mark of a fixed size in pixels at one point of the plot."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self._diameter = 11.0
        self._pen = QPen(QColor("#333333"), 2.0)
        self._brush = QBrush(QColor("white"))

    def set_look(self, diameter: float, edge: str, edge_width: float, fill: str) -> None:
        self.prepareGeometryChange()
        self._diameter = diameter
        self._pen = QPen(QColor(edge), edge_width)
        self._brush = QBrush(QColor(fill))
        self.update()

    def set_point(self, x: float, y: float) -> None:
        self.setPos(x, y)

    @property
    def point(self) -> tuple[float, float]:
        return self.pos().x(), self.pos().y()

    def boundingRect(self) -> QRectF:
        reach = self._diameter / 2 + self._pen.widthF()
        return QRectF(-reach, -reach, 2 * reach, 2 * reach)

    def paint(self, painter: QPainter, *_args: object) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(self._pen)
        painter.setBrush(self._brush)
        radius = self._diameter / 2
        painter.drawEllipse(QPointF(0.0, 0.0), radius, radius)
