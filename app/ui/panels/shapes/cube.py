"""Owns the picture of what each scorer leaves in memory: the dot product's T×T score square
beside additive attention's T×T×dₐ cube, the same front face stacked dₐ sheets deep."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QWidget

from app.ui.fonts import HEADING, READING, scaled_font
from app.ui.panels.shapes.diagram import SCORE_STOPS, ScaledPicture

CUBE_FILL = "#D55E00"
"""Okabe–Ito vermillion: the additive tensor, apart from the scores' blue–orange gradient."""
MAX_SHEETS = 12
"""Sheets drawn in the cube's depth; beyond this many the edges would merge into grey."""
DEPTH = (0.55, 0.38)
"""The cube's oblique depth as a fraction of its side, across and up."""


@dataclass(frozen=True)
class Labels:
    """What the picture prints, already formatted by the panel (counts and bytes)."""

    square: str  # "T × T"
    square_size: str  # "32 MiB"
    cube: str  # "T × T × dₐ"
    cube_size: str  # "8.0 GiB"
    depth: str  # "dₐ = 256"
    times: str  # "× 256"


class CubeDiagram(ScaledPicture):
    """Square and cube with the same T × T face; the cube's depth stands for dₐ sheets and is
    not to scale (a caption beside it says so and gives the computed ratio)."""

    MINIMUM = (280, 170)
    PREFERRED = (560, 230)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("shapes_cube", parent)
        self.labels = Labels("", "", "", "", "", "")
        self.sheets = 1

    def set_content(self, labels: Labels, d_a: int) -> None:
        sheets = max(1, min(d_a, MAX_SHEETS))
        if (labels, sheets) != (self.labels, self.sheets):
            wider = len(labels.depth) != len(self.labels.depth)
            self.labels, self.sheets = labels, sheets
            if wider or self.stage:
                self.updateGeometry()  # the depth label's room sets the height for a width
            self.update()

    def _fonts(self) -> tuple[QFont, QFont]:
        return scaled_font(READING, bold=True), scaled_font(HEADING, bold=True)

    def _sizes(self, width: float) -> tuple[float, float, float, float, float]:
        """(side, gap, margin, line, depth label's width) for a widget `width` wide: the
        square, the cube and the depth label beside the cube all fit across."""
        label_font, times_font = self._fonts()
        metrics = QFontMetricsF(label_font)
        line = metrics.height()
        times = QFontMetricsF(times_font).horizontalAdvance(self.labels.times or "×")
        gap = times + 24 * self.scale
        margin = 6 * self.scale
        depth_label = metrics.horizontalAdvance(self.labels.depth) + 4 * self.scale
        room = width - 2 * margin - gap
        side = min(room / (2 + DEPTH[0]), (room - depth_label) / (2 + DEPTH[0] / 2))
        return max(8.0, side), gap, margin, line, depth_label

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        """As tall as the picture at this width, capped: a wide dock gets no empty band, and
        more width never asks for more height than the readable size counted on."""
        side, _, margin, line, _ = self._sizes(width)
        needed = max(self.minimumSizeHint().height(),
                     math.ceil(2 * margin + side * (1 + DEPTH[1]) + 2.2 * line))
        return max(self.minimumSizeHint().height(), min(self.sizeHint().height(), needed))

    def minimumSizeHint(self) -> QSize:
        """On the stage, from the labels: each face as wide as the texts under it, the gap
        as wide as the ratio, and room for the depth label beside the cube."""
        if not self.stage:
            return super().minimumSizeHint()
        label_font, _ = self._fonts()
        metrics = QFontMetricsF(label_font)
        _, gap, margin, line, depth_label = self._sizes(self.width())
        labels = self.labels
        widest = max(metrics.horizontalAdvance(text) for text in (
            labels.square, labels.square_size, labels.cube, labels.cube_size))
        side = max(widest - line, 3 * line)
        width = 2 * margin + gap + max(side * (2 + DEPTH[0]), side * (2 + DEPTH[0] / 2)
                                        + depth_label)
        height = 2 * margin + side * (1 + DEPTH[1]) + 2.2 * line
        return QSize(math.ceil(width), math.ceil(height))

    def geometry_of(self) -> tuple[QRectF, QRectF, QPointF]:
        """The square, the cube's front face and the depth offset, fitted to the widget."""
        side, gap, margin, line, label = self._sizes(self.width())
        side = max(8.0, min(side, (self.height() - 2 * margin - 2.2 * line) / (1 + DEPTH[1])))
        depth = QPointF(side * DEPTH[0], -side * DEPTH[1])
        used = 2 * side + gap + max(depth.x(), depth.x() / 2 + label)
        left = max(margin, (self.width() - used) / 2)
        top = margin - depth.y()
        square = QRectF(left, top, side, side)
        front = QRectF(left + side + gap, top, side, side)
        return square, front, depth

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(self.theme.background))
        square, front, depth = self.geometry_of()
        pen = QPen(QColor(self.theme.foreground))
        pen.setWidthF(1.5 * self.scale)
        painter.setPen(pen)
        gradient = QLinearGradient(square.topLeft(), square.bottomRight())
        for i, colour in enumerate(SCORE_STOPS):
            gradient.setColorAt(i / (len(SCORE_STOPS) - 1), QColor(colour))
        painter.setBrush(gradient)
        painter.drawRect(square)
        self._draw_cube(painter, front, depth)
        label_font, times_font = self._fonts()
        painter.setPen(QColor(self.theme.foreground))
        line = QFontMetricsF(label_font).height()
        for rect, name, size in ((square, self.labels.square, self.labels.square_size),
                                 (front, self.labels.cube, self.labels.cube_size)):
            painter.setFont(label_font)
            below = QRectF(rect.left() - line, rect.bottom() + 2, rect.width() + 2 * line
                           + (depth.x() if rect is front else 0), line)
            painter.drawText(below, Qt.AlignmentFlag.AlignHCenter, name)
            painter.drawText(below.translated(0, line), Qt.AlignmentFlag.AlignHCenter, size)
        painter.setFont(label_font)
        edge = front.bottomRight() + depth / 2  # beside the depth edge at the cube's foot
        painter.drawText(QRectF(edge.x() + 4 * self.scale, edge.y() - line / 2, self.width(),
                                line), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         self.labels.depth)
        painter.setFont(times_font)
        between = QRectF(square.right(), square.top(), front.left() - square.right(),
                         square.height())
        painter.drawText(between, Qt.AlignmentFlag.AlignCenter, self.labels.times)
        painter.end()

    def _draw_cube(self, painter: QPainter, front: QRectF, depth: QPointF) -> None:
        """Back sheet first, then each nearer one, then the front face and the cube's sides."""
        fill = QColor(CUBE_FILL)
        count = self.sheets
        for i in range(count, 0, -1):
            share = i / count if count > 1 else 0.0
            sheet = front.translated(depth * share)
            colour = QColor(fill)
            colour.setAlpha(60 + round(140 * (1 - share)))
            painter.setBrush(colour)
            painter.drawRect(sheet)
        corners = (front.topLeft(), front.topRight(), front.bottomRight())
        top = QPolygonF([corners[0], corners[1], corners[1] + depth, corners[0] + depth])
        side = QPolygonF([corners[1], corners[2], corners[2] + depth, corners[1] + depth])
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(top)
        painter.drawPolygon(side)
        face = QColor(fill)
        face.setAlpha(210)
        painter.setBrush(face)
        painter.drawRect(front)
