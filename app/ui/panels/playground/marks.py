"""Owns the playground's marks of the selected pair: the angle arc with its θ, and k's
projection onto q (dashed drop, coloured span, foot) with its |k|cos θ label."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt

from app.i18n import tr
from app.model.plane import arc_points
from app.model.scoring import Undefined
from app.model.view import View
from app.ui.format import format_score
from app.ui.look import SELECTION_COLOUR, Look
from app.ui.panels.playground.arrows import LABEL_GAP_PX

SPAN_OPACITY = 0.45


def label_rect(item: pg.TextItem, pixel: tuple[float, float]) -> QRectF:
    """A shown text item's rectangle in plot units (top() is its lower edge, as y points up),
    from its position, anchor and size in screen pixels; empty when it is hidden."""
    if not item.isVisible():
        return QRectF()
    box = item.textItem.boundingRect()
    width, height = box.width() * pixel[0], box.height() * pixel[1]
    anchor = item.anchor
    left = item.pos().x() - anchor.x() * width
    bottom = item.pos().y() - (1 - anchor.y()) * height
    return QRectF(left, bottom, width, height)


def keep_inside(item: pg.TextItem, pixel: tuple[float, float],
                bounds: tuple[tuple[float, float], tuple[float, float]]) -> QRectF:
    """Slide a label back inside the visible range (plot units) rather than let the plot's
    edge cut it; returns its rectangle there."""
    rect = label_rect(item, pixel)
    (x_low, x_high), (y_low, y_high) = bounds
    dx = max(0.0, x_low - rect.left()) - max(0.0, rect.right() - x_high)
    dy = max(0.0, y_low - rect.top()) - max(0.0, rect.bottom() - y_high)
    if dx or dy:
        item.setPos(item.pos().x() + dx, item.pos().y() + dy)
        rect.translate(dx, dy)
    return rect


class PairMarks:
    """Plot items drawn for the selected key only, created once and moved with setData."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.projection_line = pg.PlotDataItem()
        self.projection_span = pg.PlotDataItem()
        self.foot = pg.ScatterPlotItem(symbol="o")
        self.arc = pg.PlotDataItem()
        for item in (self.projection_span, self.projection_line, self.arc, self.foot):
            item.setZValue(15)
            plot.addItem(item)
        self.theta_label = self._text_item(plot)
        self.projection_label = self._text_item(plot)
        self.look = Look()

    @staticmethod
    def _text_item(plot: pg.PlotItem) -> pg.TextItem:
        item = pg.TextItem("", color="#222222", anchor=(0.5, 0.5),
                           fill=pg.mkBrush(255, 255, 255, 190))
        item.setZValue(25)
        item.hide()
        plot.addItem(item)
        return item

    def apply_look(self, look: Look) -> None:
        self.look = look
        self.projection_line.setPen(pg.mkPen("#333333", width=look.px(2),
                                             style=Qt.PenStyle.DashLine))
        self.arc.setPen(pg.mkPen(SELECTION_COLOUR, width=look.px(2.5)))
        self.foot.setSize(look.px(11))
        self.foot.setBrush(pg.mkBrush("white"))
        self.foot.setPen(pg.mkPen("#333333", width=look.px(2)))

    def paint(self, view: View, key: int, colour: str, extent: float, pixel: tuple[float, float],
              bounds: tuple[tuple[float, float], tuple[float, float]]) -> list[QRectF]:
        """The arc between q and the selected key, and k's projection onto q; returns the
        rectangles of the labels shown (plot units), for the arrow labels to keep clear of."""
        plane, pair = view.plane, view.pair
        k = view.k[key]
        sweep = plane.arc_sweep_deg
        has_angle = not isinstance(sweep, Undefined) and not isinstance(pair.angle_deg, Undefined)
        self.arc.setVisible(has_angle)
        self.theta_label.setVisible(has_angle)
        if has_angle:
            radius = float(np.clip(0.35 * min(plane.norm_q, plane.norm_k[key]),
                                   0.3, 0.2 * extent))
            points = arc_points(plane.arc_start_deg, sweep, radius)
            self.arc.setData(points[:, 0], points[:, 1])
            middle = arc_points(plane.arc_start_deg + sweep / 2, 0.0, radius * 1.45, 1)[0]
            self.theta_label.setText(tr("playground.theta"))
            self.theta_label.setPos(*middle)
        foot = plane.foot
        for item in (self.projection_line, self.projection_span, self.foot,
                     self.projection_label):
            item.setVisible(foot is not None)
        if foot is not None:
            self.projection_line.setData([k[0], foot[0]], [k[1], foot[1]])
            self.projection_span.setData([0, foot[0]], [0, foot[1]])
            self.projection_span.setPen(pg.mkPen(colour, width=self.look.px(8)))
            self.projection_span.setOpacity(SPAN_OPACITY)
            self.foot.setData([foot[0]], [foot[1]])
            self.projection_label.setText(tr("playground.projection",
                                             value=format_score(plane.projection)))
            # beside the foot, on the side of q away from k, so it covers neither arrow
            q = view.q[0]
            side = -1.0 if not isinstance(sweep, Undefined) and sweep > 0 else 1.0
            normal = side * np.array([-q[1], q[0]]) / plane.norm_q
            gap = LABEL_GAP_PX * self.look.scale * max(pixel)
            self.projection_label.setAnchor((0.5 - 0.5 * normal[0], 0.5 + 0.5 * normal[1]))
            self.projection_label.setPos(*(foot + gap * normal))
        return [keep_inside(item, pixel, bounds)
                for item in (self.theta_label, self.projection_label) if item.isVisible()]
