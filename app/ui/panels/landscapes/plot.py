"""Owns one of the four small landscapes: a scorer's colours over the plane, its labelled
contours, q as an arrow and the keys as dots, filling its plot at the plot's own shape."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QLabel, QSizePolicy

from app.model.landscape import Landscape
from app.model.view import View
from app.ui.figure_plot import Arrow, Curve, Mark, PlotFigure, joined
from app.ui.fonts import BODY_PT, READING, STRONG, emphasize, scaled_font
from app.ui.format import format_score, shown_name
from app.ui.look import QUERY_COLOUR, Look, landscape_map, token_colour
from app.ui.panels.playground.labels import put, text_size
from app.ui.panels.playground.placement import Label, around, inside, place
from app.ui.widgets.axes import keep_still
from app.ui.widgets.dot import Dot
from app.ui.widgets.plot_text import PlotText

LEVEL_LABELS = 12
"""Label items kept per plot for contour values (nice_levels gives about eight)."""
DETAIL_PX = 190
"""A plot smaller than this (at 100 %) shows shapes only: contour values and key names would
bury the lines; the keys keep their dots in the playground's colours."""
DETAIL_LINES = 6
"""On the stage's larger type, a plot writes its labels only when it is this many of their
lines tall (and wide)."""
DEFAULT_FRAME_PX = 20
"""pyqtgraph's margins around a view box, before a plot is first laid out."""
NAME_GAP_PX = 9
"""Pixels (at 100 %) between a key's dot and its name."""
CONTOUR = "#333333"
DOT_PX = 9
"""A key's dot, in pixels at 100 %: labels keep clear of it."""


def wrapping(label: QLabel) -> None:
    """A word-wrapped label that takes the width it is given and the height its text needs
    (a policy set by hand drops QLabel's height-for-width, which clipped the captions)."""
    label.setWordWrap(True)
    policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
    policy.setHeightForWidth(True)
    label.setSizePolicy(policy)


class LandscapePlot:
    """Title, plot and one-line caption of one scorer; the panel places the three in its
    grid, so the four titles, plots and captions line up in shared rows."""

    def __init__(self, scorer: str) -> None:
        self.scorer = scorer
        self.title = QLabel(objectName=f"landscape_{scorer}_title")  # type: ignore[call-overload]
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.caption = QLabel(objectName=f"landscape_{scorer}_caption")  # type: ignore[call-overload]
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        for label in (self.title, self.caption):
            wrapping(label)
        emphasize(self.title, STRONG, True)
        emphasize(self.caption, READING)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setObjectName(f"landscape_{scorer}_plot")
        self.graphics.setMinimumSize(60, 60)
        self.plot = self.graphics.addPlot()
        self.plot.setAspectLocked(True)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        for side in ("left", "bottom"):
            self.plot.hideAxis(side)
        self.plot.vb.sigResized.connect(lambda _vb: self.repaint_from(self._view, self._contours))
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setZValue(-20)
        self.image.setColorMap(landscape_map(True))
        self.plot.addItem(self.image)
        self.iso = pg.PlotDataItem(connect="pairs")
        self.iso.setZValue(-10)
        self.plot.addItem(self.iso)
        keep_still(self.image, self.iso.curve)
        for angle in (0, 90):
            self.plot.addItem(pg.InfiniteLine(pos=0, angle=angle, pen=pg.mkPen("#666666")))
        self.q_shaft = pg.PlotDataItem()
        self.q_head = pg.ArrowItem(angle=0, tipAngle=34, headLen=14, tailLen=None,
                                   pen=None, brush=pg.mkBrush(QUERY_COLOUR))
        for item in (self.q_shaft, self.q_head):
            item.setZValue(10)
            self.plot.addItem(item)
        self.dots: list[Dot] = []
        self.levels: list[pg.TextItem] = []
        for _ in range(LEVEL_LABELS):
            label = PlotText("", color="#222222", anchor=(0.5, 0.5),
                             fill=pg.mkBrush(255, 255, 255, 150))
            label.setZValue(5)
            label.hide()
            self.plot.addItem(label)
            self.levels.append(label)
        self.names: list[pg.TextItem] = []
        self._view: View | None = None
        self._contours: bool = True
        self._look = Look()
        self._signed = True
        self._shown: tuple[float, float] = (0.0, 0.0)
        self._field: tuple[Landscape, bool, bool] | None = None  # what the picture shows
        self._q: tuple[float, float] | None = None  # where q's arrow points
        self._level_points: list[tuple[pg.TextItem, tuple[float, float]]] = []
        """The contour values to place, each with the point of its contour."""

    def apply_look(self, look: Look) -> None:
        self.graphics.setBackground(look.theme.background)
        self.iso.setPen(pg.mkPen(CONTOUR, width=look.px(1)))
        self.q_shaft.setPen(pg.mkPen(QUERY_COLOUR, width=look.px(3)))
        self.q_head.setStyle(headLen=look.px(14))
        font = scaled_font(BODY_PT)
        for label in self.levels:
            label.setFont(font)
        for label in self.names:
            label.setFont(scaled_font(READING, bold=True))
        self._look = look
        self._field = self._q = None  # drawn afresh in the new look
        for j, dot in enumerate(self.dots):
            self._dress(dot, j)

    def aspect(self) -> float:
        """Width : height of the view box, the shape the landscape is computed for."""
        box = self.plot.vb
        return box.width() / box.height() if box.width() > 0 and box.height() > 0 else 1.0

    def repaint_from(self, view: View | None, contours: bool = True) -> None:
        """Draw this scorer's landscape of `view` at the plot's shape, with q and the keys.
        `contours` False (during a drag): colours only, since working out four sets of
        labelled contours at every step would cost more than the rest of the frame."""
        self._view, self._contours = view, contours
        land = view.landscape_at(self.aspect(), self.scorer) if view is not None else None
        if land is None or view is None:  # (no view, no landscape)
            return
        self._paint_field(land, contours)
        self._paint_vectors(view)

    def figure(self, axis_names: tuple[str, str]) -> PlotFigure | None:
        """This plot as drawn: its title, the contours with the values it prints, q as an
        arrow and the keys as named dots, in its range; without the colours under them."""
        view, land = self._view, self.shown_landscape()
        if view is None or land is None:
            return None
        lines = joined(land.iso.segments) if self._contours else []
        curves = [Curve(line[:, 0].tolist(), line[:, 1].tolist(), CONTOUR) for line in lines]
        marks = [Mark(x, y, None, label.toPlainText()) for label, (x, y) in self._level_points
                 if label.isVisible()]
        marks += [Mark(float(view.k[j, 0]), float(view.k[j, 1]), token_colour(j),
                       shown_name(view.key_names[j])) for j in range(len(view.k))]
        q = (float(view.q[0][0]), float(view.q[0][1]))
        return PlotFigure(self.title.text(), (-land.half_width, land.half_width),
                          (-land.half_height, land.half_height), axis_names, curves,
                          [Arrow(*q, QUERY_COLOUR, "q", strong=True)], marks, equal=True)

    def shown_landscape(self) -> Landscape | None:
        """The landscape on screen (tests compare it with the model's scorer)."""
        view = self._view
        return view.landscape_at(self.aspect(), self.scorer) if view is not None else None

    def detail_side(self) -> float:
        """The least side (pixels) at which the plot writes contour values and key names:
        DETAIL_PX, and on the stage DETAIL_LINES lines of those labels."""
        side = self._look.px(DETAIL_PX)
        if self._look.stage:
            side = max(side, DETAIL_LINES * QFontMetricsF(scaled_font(READING, True)).height())
        return side

    def frame(self) -> float:
        """Pixels the plot's widget has beyond its view box (pyqtgraph's own margins)."""
        extra = self.graphics.width() - self.plot.vb.width()
        return extra if self.plot.vb.width() > 0 and extra > 0 else DEFAULT_FRAME_PX

    def detailed(self) -> bool:
        """Room for contour values and key names (see `detail_side`)."""
        box = self.plot.vb
        return min(box.width(), box.height()) >= self.detail_side()

    def _paint_field(self, land: Landscape, contours: bool) -> None:
        """The very landscape already shown (a key dragged inside the same rectangle) is
        left as it is: a new image would repaint the whole plot."""
        field = (land, contours, self.detailed())
        if self._field is not None and all(a is b for a, b in zip(field, self._field,
                                                                 strict=True)):
            return
        self._field = field
        sx = 2 * land.half_width / (len(land.xs) - 1)
        sy = 2 * land.half_height / (len(land.ys) - 1)
        if land.signed != self._signed:
            self._signed = land.signed
            self.image.setColorMap(landscape_map(land.signed))
        self.image.setImage(land.values, autoLevels=False, levels=land.levels)
        self.image.setRect(QRectF(-land.half_width - sx / 2, -land.half_height - sy / 2,
                                  2 * land.half_width + sx, 2 * land.half_height + sy))
        shown = (land.half_width, land.half_height)
        if shown != self._shown:
            self._shown = shown
            self.plot.setRange(xRange=(-shown[0], shown[0]), yRange=(-shown[1], shown[1]),
                               padding=0)
        self.iso.setVisible(contours)
        self._level_points = []
        if not contours:
            for label in self.levels:
                label.hide()
            return
        iso = land.iso
        ends = iso.segments.reshape(-1, 2)
        self.iso.setData(ends[:, 0], ends[:, 1], connect="pairs")
        detailed = self.detailed()
        for index, label in enumerate(self.levels):
            visible = detailed and index < len(iso.levels) and bool(
                np.all(np.isfinite(iso.label_points[index])))
            label.setVisible(visible)
            if visible:
                text = format_score(float(iso.levels[index]), iso.decimals)
                if text != label.toPlainText():
                    label.setText(text)
                point = (float(iso.label_points[index][0]), float(iso.label_points[index][1]))
                label.setPos(*point)
                self._level_points.append((label, point))

    def _paint_vectors(self, view: View) -> None:
        q = view.q[0]
        tip = (float(q[0]), float(q[1]))
        if tip != self._q:
            self._q = tip
            self.q_shaft.setData([0.0, tip[0]], [0.0, tip[1]])
            self.q_head.setPos(*tip)
            self.q_head.setStyle(angle=180.0 - math.degrees(math.atan2(tip[1], tip[0])))
            self.q_head.setVisible(bool(np.any(q)))
        while len(self.dots) < len(view.k):
            dot = Dot()
            dot.setZValue(10)
            self._dress(dot, len(self.dots))
            self.plot.addItem(dot)
            self.dots.append(dot)
        for j, dot in enumerate(self.dots):
            dot.setVisible(j < len(view.k))
            if j < len(view.k):
                dot.set_point(float(view.k[j, 0]), float(view.k[j, 1]))
        while len(self.names) < len(view.k):
            label = PlotText("", color="#111111", anchor=(0, 1),
                             fill=pg.mkBrush(255, 255, 255, 170))
            label.setFont(scaled_font(READING, bold=True))
            label.setZValue(12)
            self.plot.addItem(label)
            self.names.append(label)
        detailed = self.detailed()
        for j, label in enumerate(self.names):
            label.setVisible(j < len(view.k) and detailed)
            if j < len(view.k) and label.toPlainText() != shown_name(view.key_names[j]):
                label.setText(shown_name(view.key_names[j]))
        if detailed:
            self._place_labels(view)

    def _dress(self, dot: Dot, j: int) -> None:
        """Key j's dot in the look: its playground colour, edged in the foreground's."""
        look = self._look
        dot.set_look(look.px(DOT_PX), look.theme.foreground, look.px(1.5),
                     token_colour(j))

    def _place_labels(self, view: View) -> None:
        """Key names beside their dots, then the contour values where they cover no name,
        no other value and not q's arrow (the rest are left out), inside the plot."""
        box = self.plot.vb
        pixel, bounds = box.viewPixelSize(), box.viewRange()
        gap = NAME_GAP_PX * self._look.scale * pixel[0]
        labels = []
        for j, label in enumerate(self.names[:len(view.k)]):
            x, y = float(view.k[j, 0]), float(view.k[j, 1])
            outward = math.atan2(y, x) if (x, y) != (0.0, 0.0) else math.pi / 4
            labels.append(Label(around(x, y, outward, text_size(label, pixel), gap, bounds)))
        levels = [label for label, _point in self._level_points]
        for label, (x, y) in self._level_points:  # each at its contour, wherever it was put
            width, height = text_size(label, pixel)
            labels.append(Label((inside((x - width / 2, y - height / 2, width, height),
                                        bounds),), required=False))
        q = view.q[0]
        marks = [(0.0, 0.0, float(q[0]), float(q[1]))] if np.any(q) else []
        marks += [(float(x), float(y), float(x), float(y)) for x, y in view.k]  # the dots
        chosen = place(labels, marks, pad=self._look.px(DOT_PX / 2 + 2) * pixel[0])
        for item, rect in zip([*self.names[:len(view.k)], *levels], chosen, strict=True):
            put(item, rect)
