"""Owns the block diagram of one head's S = Qₕ·Kₕᵀ, drawn with log-scaled side lengths."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.ui.fonts import ui_font
from app.ui.look import LIGHT, Theme

Q_FILL = "#56B4E9"  # Okabe–Ito sky blue: the queries
K_FILL = "#E69F00"  # Okabe–Ito orange: the keys
SCORE_STOPS = ("#08306B", "#6BAED6", "#FFFFFF", "#FDAE6B", "#A63603")
"""The diverging score colours of look.diverging_map(), as a gradient: S holds signed scores."""


def side_length(n: int, unit: float) -> float:
    """A dimension of size n drawn log₂(n)·unit long, so equal symbols get equal edges."""
    return unit * math.log2(max(n, 2))


def group_digits(n: int) -> str:
    """Thousands separated by commas, as the lesson prints 262,144."""
    return f"{n:,}"


class ShapesDiagram(QWidget):
    """Qₕ (T×dₕ) · Kₕᵀ (dₕ×T) = S (T×T): every T edge one length, every dₕ edge another."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shapes_diagram")
        self.T = 5
        self.d_h = 4
        self.scale = 1.0
        self.theme: Theme = LIGHT
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_sizes(self, T: int, d_h: int) -> None:
        if (T, d_h) != (self.T, self.d_h):
            self.T, self.d_h = T, d_h
            self.update()

    def set_look(self, scale: float, theme: Theme) -> None:
        self.scale, self.theme = scale, theme
        self.updateGeometry()
        self.update()

    def minimumSizeHint(self) -> QSize:
        return QSize(int(360 * self.scale), int(150 * self.scale))

    def sizeHint(self) -> QSize:
        return QSize(int(560 * self.scale), int(240 * self.scale))

    def edge_labels(self) -> tuple[str, str]:
        """The two edge texts, real sizes with the dimension symbols (tests read these)."""
        return f"T = {group_digits(self.T)}", f"dₕ = {group_digits(self.d_h)}"

    def _fonts(self) -> tuple[QFont, QFont]:
        return ui_font(12 * self.scale, bold=True), ui_font(14 * self.scale, bold=True)

    def blocks(self) -> list[tuple[str, QRectF]]:
        """Qₕ, Kₕᵀ and S as rectangles in widget coordinates, fitted to the current size.

        One unit length per log₂ step for every block, so T and dₕ edges match everywhere.
        """
        label_font, name_font = self._fonts()
        label_h = QFontMetricsF(label_font).height() * 1.3
        op_w = QFontMetricsF(name_font).horizontalAdvance("=") * 3 + label_h
        margin = 6 * self.scale
        lt, ld = math.log2(max(self.T, 2)), math.log2(max(self.d_h, 2))
        room_w = self.width() - 2 * margin - label_h - 2 * op_w
        room_h = self.height() - 2 * margin - label_h
        unit = max(1.0, min(room_w / (ld + 2 * lt), room_h / max(lt, ld)))
        L_T, L_d = side_length(self.T, unit), side_length(self.d_h, unit)
        x, top = margin + label_h, margin
        rects = []
        for name, width, height in (("Qₕ", L_d, L_T), ("Kₕᵀ", L_T, L_d), ("S", L_T, L_T)):
            rects.append((name, QRectF(x, top, width, height)))
            x += width + op_w
        return rects

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(self.theme.background))
        label_font, name_font = self._fonts()
        metrics = QFontMetricsF(label_font)
        t_text, d_text = self.edge_labels()
        label_h = metrics.height() * 1.3
        label_w = max(metrics.horizontalAdvance(t_text), metrics.horizontalAdvance(d_text))
        labels = {"Qₕ": (d_text, t_text), "Kₕᵀ": (t_text, d_text), "S": (t_text, t_text)}
        fills = {"Qₕ": QColor(Q_FILL), "Kₕᵀ": QColor(K_FILL)}
        pen = QPen(QColor(self.theme.foreground))
        pen.setWidthF(1.5 * self.scale)
        rects = self.blocks()
        for index, (name, rect) in enumerate(rects):
            if name in fills:
                fill = fills[name]
                fill.setAlpha(170)
                painter.setBrush(fill)
            else:
                gradient = QLinearGradient(rect.topLeft(), rect.bottomRight())
                for i, colour in enumerate(SCORE_STOPS):
                    gradient.setColorAt(i / (len(SCORE_STOPS) - 1), QColor(colour))
                painter.setBrush(gradient)
            painter.setPen(pen)
            painter.drawRect(rect)
            painter.setFont(name_font)
            self._draw_name(painter, rect, name)
            bottom_text, side_text = labels[name]
            painter.setFont(label_font)
            painter.setPen(QColor(self.theme.foreground))
            painter.drawText(QRectF(rect.center().x() - label_w, rect.bottom(), 2 * label_w,
                                    label_h),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                             bottom_text)
            painter.save()
            painter.translate(rect.left() - 2, rect.center().y())
            painter.rotate(-90)
            painter.drawText(QRectF(-label_w, -label_h, 2 * label_w, label_h),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                             side_text)
            painter.restore()
            if index + 1 < len(rects):
                gap = QRectF(rect.right(), rect.top(), rects[index + 1][1].left() - label_h
                             - rect.right(), max(r.height() for _, r in rects))
                painter.setFont(name_font)
                painter.drawText(gap, Qt.AlignmentFlag.AlignCenter, "·" if index == 0 else "=")
        painter.end()

    def _draw_name(self, painter: QPainter, rect: QRectF, name: str) -> None:
        """The block's name inside it, or just above-left when the block is too small."""
        metrics = QFontMetricsF(painter.font())
        fits = metrics.horizontalAdvance(name) < rect.width() and metrics.height() < rect.height()
        painter.setPen(QColor("#000000") if fits else QColor(self.theme.foreground))
        if fits:
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, name)
        else:
            painter.drawText(QPointF(rect.right() + 2, rect.top() + metrics.ascent()), name)
