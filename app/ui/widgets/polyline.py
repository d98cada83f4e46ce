"""Owns a plain line through a few points of a plot (an arrow's shaft, a projection, an arc),
moved with `setData` at every drag step.

pyqtgraph's PlotCurveItem is made for long data: its Python `paint` and `setData` cost a
tenth of a millisecond each, and the plane drew twelve of them at every step. This item keeps
its points as one QPolygonF and draws it with the pen it is given, nothing more.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

if TYPE_CHECKING:  # pyqtgraph is untyped: these document what the scene sends
    from pyqtgraph.GraphicsScene.mouseEvents import MouseClickEvent


class Polyline(pg.GraphicsObject):
    """The points joined in order, in a pen whose width is in screen pixels (cosmetic).

    `clickable_px` makes a band that wide around the line answer a left click with
    `sigClicked(item, event)`, as a clickable PlotCurveItem does.
    """

    sigClicked = Signal(object, object)

    def __init__(self, xs: Sequence[float] = (), ys: Sequence[float] = (),
                 clickable_px: float = 0.0) -> None:
        super().__init__()
        self._pen = QPen(pg.mkPen("k"))
        self._points = QPolygonF()
        self._xs: tuple[float, ...] = ()
        self._ys: tuple[float, ...] = ()
        self._bounds: QRectF | None = None
        self._clickable_px = clickable_px
        self.setData(xs, ys)

    def setData(self, xs: Iterable[float], ys: Iterable[float]) -> None:
        xs, ys = tuple(map(float, xs)), tuple(map(float, ys))
        if (xs, ys) == (self._xs, self._ys):
            return
        self.prepareGeometryChange()
        self._xs, self._ys = xs, ys
        self._points = QPolygonF([QPointF(x, y) for x, y in zip(xs, ys, strict=True)])
        self._bounds = None
        self.update()

    def getData(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        return self._xs, self._ys

    def setPen(self, *args: object, **kwargs: object) -> None:
        """Any pen pg.mkPen takes (cosmetic: its width is in pixels)."""
        self.prepareGeometryChange()
        self._pen = QPen(pg.mkPen(*args, **kwargs))
        self._bounds = None
        self.update()

    def pen(self) -> QPen:
        return QPen(self._pen)

    def setOpacity(self, opacity: float) -> None:
        """Qt strokes a see-through wide line on a slow path, about twenty times an opaque
        one (measured: 174 against 8 µs for the playground's projection band). A see-through
        polyline is drawn opaque into a pixmap of its own, kept until it changes, and the
        pixmap is laid on at the opacity: the same picture."""
        if opacity != self.opacity():
            self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache if opacity < 1
                              else QGraphicsItem.CacheMode.NoCache)
            super().setOpacity(opacity)

    def viewTransformChanged(self) -> None:
        """A new zoom: the pen's pixels are another length in plot units."""
        self.prepareGeometryChange()
        self._bounds = None

    def _pixel(self) -> tuple[float, float]:
        """One screen pixel's length in plot units along x and along y (0 before shown)."""
        along_x, along_y = self.pixelVectors()
        if along_x is None or along_y is None:
            return 0.0, 0.0
        return along_x.length(), along_y.length()

    def boundingRect(self) -> QRectF:
        if self._bounds is None:
            if self._points.isEmpty():
                self._bounds = QRectF()
            else:  # the pen's half width and its caps' reach, and the clickable band
                reach = max(self._pen.widthF(), self._clickable_px / 2) + 2
                px, py = self._pixel()
                self._bounds = self._points.boundingRect().adjusted(
                    -reach * px, -reach * py, reach * px, reach * py)
        return QRectF(self._bounds)

    def paint(self, painter: QPainter, *_args: object) -> None:
        if self._points.size() < 2:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing,
                              bool(pg.getConfigOption("antialias")))
        painter.setPen(self._pen)
        painter.drawPolyline(self._points)

    def mouseClickEvent(self, ev: MouseClickEvent) -> None:
        if self._clickable_px <= 0 or ev.button() != Qt.MouseButton.LeftButton:
            return
        if self._within_band(ev.pos()):
            ev.accept()
            self.sigClicked.emit(self, ev)

    def _within_band(self, point: QPointF) -> bool:
        """The point lies within half the clickable width (in pixels) of a segment."""
        px, py = self._pixel()
        if px <= 0 or py <= 0:
            return False
        x, y = point.x() / px, point.y() / py  # in pixels from here on
        # QPolygonF is a sequence of points at run time; its stub leaves out iterating it
        corners = [(p.x() / px, p.y() / py) for p in self._points]  # type: ignore[attr-defined]
        for (x0, y0), (x1, y1) in itertools.pairwise(corners):
            dx, dy = x1 - x0, y1 - y0
            length2 = dx * dx + dy * dy
            t = 0.0 if length2 == 0 else min(1.0, max(0.0, ((x - x0) * dx + (y - y0) * dy)
                                                      / length2))
            if math.hypot(x - x0 - t * dx, y - y0 - t * dy) <= self._clickable_px / 2:
                return True
        return False
