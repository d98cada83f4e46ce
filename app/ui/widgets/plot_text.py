"""Owns the text drawn on a plot (a vector's name, a contour's value, θ): pyqtgraph's
TextItem, kept as a pixmap between changes of its own.

A drag step repaints the region an arrow sweeps, and each label in it laid out and painted
its text again: on stage scene 1, nine labels were about 1 ms of the plane's 2.5 ms repaint,
measured. pyqtgraph's TextItem sets the painter to the item's scene transform at its first
paint, which inside a pixmap draws the box elsewhere (a label showed no box until its text
changed); this one paints with the painter it is given.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem


class PlotText(pg.TextItem):
    """A `pg.TextItem` (same arguments) that is painted again only when it changes."""

    def __init__(self, text: str = "", **options: object) -> None:
        super().__init__(text, **options)
        for item in (self, self.textItem):
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

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
