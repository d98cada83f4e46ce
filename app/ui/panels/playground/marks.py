"""Owns the playground's marks of the selected pair: the angle arc with its θ, and k's
projection onto q (dashed drop, coloured span, foot) with its |k|cos θ label."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from app.i18n import tr
from app.model.plane import arc_points
from app.model.scoring import Undefined
from app.model.view import View
from app.ui.format import format_score
from app.ui.look import SELECTION_COLOUR, Look
from app.ui.widgets.dot import Dot
from app.ui.widgets.plot_text import PlotText
from app.ui.widgets.polyline import Polyline

SPAN_OPACITY = 0.45
NAMED_ANGLE_DEG = 1.0
"""A narrower angle (a key dragged onto q) has no arc to name: the arc and θ are left out."""


class PairMarks:
    """Plot items drawn for the selected key only, created once and moved with setData."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.projection_line = Polyline()
        self.projection_span = Polyline()
        self.projection_span.setOpacity(SPAN_OPACITY)  # the landscape shows through it
        self.foot = Dot()
        self.arc = Polyline()
        self._span_pen: tuple[str, float] | None = None
        for item in (self.projection_span, self.projection_line, self.arc, self.foot):
            item.setZValue(15)
            plot.addItem(item)
        self.theta_label = self._text_item(plot)
        self.projection_label = self._text_item(plot)
        self.look = Look()

    @staticmethod
    def _text_item(plot: pg.PlotItem) -> pg.TextItem:
        item = PlotText("", color="#222222", anchor=(0.5, 0.5),
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
        self.foot.set_look(look.px(11), "#333333", look.px(2), "white")

    def paint(self, view: View, key: int, colour: str,
              extent: float) -> list[tuple[pg.TextItem, tuple[float, float], float]]:
        """The arc between q and the selected key, and k's projection onto q; returns each
        shown label with the point it belongs beside and the direction it leaves it in
        first (radians), for the panel to place clear of every other label."""
        plane, pair = view.plane, view.pair
        assert plane is not None  # the panel paints only the 2-D world, which has a plane
        k = view.k[key]
        start, sweep = plane.arc_start_deg, plane.arc_sweep_deg  # a sweep has a start
        named = (not isinstance(sweep, Undefined) and not isinstance(start, Undefined)
                 and not isinstance(pair.angle_deg, Undefined) and abs(sweep) >= NAMED_ANGLE_DEG)
        # an arc too narrow to name hides with its θ: shown, it would keep an earlier step's
        # points (a key dragged onto q in one move left a piece of the old arc behind)
        self.arc.setVisible(named)
        self.theta_label.setVisible(named)
        shown: list[tuple[pg.TextItem, tuple[float, float], float]] = []
        if named:
            assert not isinstance(start, Undefined) and not isinstance(sweep, Undefined)
            radius = float(np.clip(0.35 * min(plane.norm_q, plane.norm_k[key]),
                                   0.3, 0.2 * extent))
            points = arc_points(start, sweep, radius)
            self.arc.setData(points[:, 0], points[:, 1])
            middle = arc_points(start + sweep / 2, 0.0, radius, 1)[0]
            self._set_text(self.theta_label, tr("playground.theta"))
            shown.append((self.theta_label, (float(middle[0]), float(middle[1])),
                          math.radians(start + sweep / 2)))
        foot = plane.foot
        for item in (self.projection_line, self.projection_span, self.foot,
                     self.projection_label):
            item.setVisible(foot is not None)
        if foot is not None:
            self.projection_line.setData([k[0], foot[0]], [k[1], foot[1]])
            self.projection_span.setData([0, foot[0]], [0, foot[1]])
            pen = (colour, self.look.px(8))
            if pen != self._span_pen:  # the selected key's colour, at the look's width
                self._span_pen = pen
                self.projection_span.setPen(pg.mkPen(colour, width=pen[1]))
            self.foot.set_point(float(foot[0]), float(foot[1]))
            self._set_text(self.projection_label, tr(
                "playground.projection", value=format_score(plane.projection)))
            # beside the foot, first on the side of q away from k, so it covers neither arrow
            q = view.q[0]
            side = -1.0 if not isinstance(sweep, Undefined) and sweep > 0 else 1.0
            shown.append((self.projection_label, (float(foot[0]), float(foot[1])),
                          math.atan2(side * q[0], -side * q[1])))
        return shown

    def drop(self) -> tuple[float, float, float, float] | None:
        """The dashed drop from k to its foot on q, which labels keep clear of."""
        if not self.projection_line.isVisible():
            return None
        xs, ys = self.projection_line.getData()
        return float(xs[0]), float(ys[0]), float(xs[1]), float(ys[1])

    @staticmethod
    def _set_text(item: pg.TextItem, text: str) -> None:
        if text != item.toPlainText():
            item.setText(text)
