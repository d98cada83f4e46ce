"""Owns the text drawn on a plot (a vector's name, a contour's value, θ): pyqtgraph's
TextItem, kept as a pixmap between changes of its own.

A drag step repaints the region an arrow sweeps, and each label in it ran pyqtgraph's Python
paint and filled its box again: on stage scene 1, nine labels were about 1 ms of the plane's
2.5 ms repaint, measured, and keeping the boxes as pixmaps took it to about 1.5 ms. The text
inside (a QGraphicsTextItem of its own) is drawn directly: kept as a pixmap too, it was left
blank after a new presentation zoom.

pyqtgraph's TextItem moves its text inside itself without telling Qt that its box changed
(a box kept as a pixmap stayed the old font's size), and sets the painter to the item's
scene transform at its first paint, which inside a pixmap draws the box elsewhere (a label
showed no box until its text changed). This one does tell Qt, and paints with the painter
it is given.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem


class PlotText(pg.TextItem):
    """A `pg.TextItem` (same arguments) that is painted again only when it changes."""

    _lastScene: Any  # pyqtgraph's: the scene whose transform the text follows

    def __init__(self, text: str = "", **options: object) -> None:
        super().__init__(text, **options)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def updateTextPos(self) -> None:
        self.prepareGeometryChange()  # the box is the text's: a new font or text moves it
        super().updateTextPos()
        self.update()

    def paint(self, painter: QPainter, *args: object) -> None:
        scene = self.scene()
        if scene is not self._lastScene:  # follow the view's transform, as pyqtgraph does
            if self._lastScene is not None:
                self._lastScene.sigPrepareForPaint.disconnect(self.updateTransform)
            self._lastScene = scene
            if scene is not None:
                scene.sigPrepareForPaint.connect(self.updateTransform)
            self.updateTransform()
        if (self.border.style() != Qt.PenStyle.NoPen
                or self.fill.style() != Qt.BrushStyle.NoBrush):
            painter.setPen(self.border)
            painter.setBrush(self.fill)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.drawPolygon(self.textItem.mapToParent(self.textItem.boundingRect()))
