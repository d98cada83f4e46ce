"""Owns the block diagram of one head's S = Q_h·K_hᵀ, drawn with log-scaled side lengths."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
    QStaticText,
    QTransform,
)
from PySide6.QtWidgets import QApplication, QSizePolicy, QWidget

from app.ui.fonts import BODY_PT, HEADING, READING, scaled_font
from app.ui.format import format_number
from app.ui.look import LIGHT, Theme
from app.ui.widgets.stage_text import legible_scripts

Q_FILL = "#56B4E9"  # Okabe–Ito sky blue: the queries
K_FILL = "#E69F00"  # Okabe–Ito orange: the keys
SCORE_STOPS = ("#08306B", "#6BAED6", "#FFFFFF", "#FDAE6B", "#A63603")
"""The diverging score colours of look.diverging_map(), as a gradient: S holds signed scores."""

BLOCK_NAMES = {"Q": "Q<sub>h</sub>", "K": "K<sub>h</sub><sup>T</sup>", "S": "S"}
"""Rich text, so subscripts come from the font's own letters, not rare Unicode subscripts."""


def side_length(n: int, unit: float) -> float:
    """A dimension of size n drawn log₂(n)·unit long, so equal symbols get equal edges."""
    return unit * math.log2(max(n, 2))


def rich_text(html: str, font: QFont) -> QStaticText:
    """A laid-out rich-text label (sub/superscripts) in `font`."""
    text = QStaticText(html)
    text.setTextFormat(Qt.TextFormat.RichText)
    text.prepare(QTransform(), font)
    return text


class ScaledPicture(QWidget):
    """A painted picture of the shapes panel: it takes the presentation scale and theme, and
    its sizes (at 100 %) grow with the scale; on the stage, with the stage's larger type."""

    MINIMUM = (280, 150)
    """The narrowest that reads, at 100 %."""
    PREFERRED = (560, 240)
    TEXTS_KEPT = 64
    """Laid-out labels kept (a few sizes' worth of the picture's dozen texts)."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.scale = 1.0
        self.theme: Theme = LIGHT
        self.stage = False
        self._texts: dict[tuple[str, str, bool], QStaticText] = {}
        """Each label laid out once per font: a paint asked for some forty of them, and
        laying rich text out was most of the 4 ms a paint took."""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_look(self, scale: float, theme: Theme, stage: bool = False) -> None:
        self.scale, self.theme, self.stage = scale, theme, stage
        self.updateGeometry()
        self.update()

    def factor(self) -> float:
        """How much larger than at 100 % on the desk: the zoom, or on the stage the type's
        own growth (its body text is larger at every zoom)."""
        if not self.stage:
            return self.scale
        return max(self.scale, QApplication.font().pointSizeF() / BODY_PT)

    def minimumSizeHint(self) -> QSize:
        return QSize(int(self.MINIMUM[0] * self.factor()), int(self.MINIMUM[1] * self.factor()))

    def sizeHint(self) -> QSize:
        factor = self.factor()
        return QSize(int(self.PREFERRED[0] * factor), int(self.PREFERRED[1] * factor))

    def rich(self, html: str, font: QFont) -> QStaticText:
        """A rich-text label whose sub- and superscripts stay legible on the stage."""
        key = (html, font.key(), self.stage)
        text = self._texts.get(key)
        if text is None:
            if len(self._texts) >= self.TEXTS_KEPT:
                self._texts.clear()
            text = self._texts[key] = rich_text(legible_scripts(html, font, self.stage), font)
        return text


class ShapesDiagram(ScaledPicture):
    """Q_h (T×d_h) · K_hᵀ (d_h×T) = S (T×T): every T edge one length, every d_h edge another."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("shapes_diagram", parent)
        self.T = 5
        self.d_h = 4

    def set_sizes(self, T: int, d_h: int) -> None:
        if (T, d_h) != (self.T, self.d_h):
            self.T, self.d_h = T, d_h
            self.updateGeometry()  # its least size follows the labels' lengths
            self.update()

    def edge_labels(self) -> tuple[str, str]:
        """The two edge texts (rich text), real sizes with the dimension symbols."""
        return f"T = {format_number(self.T)}", f"d<sub>h</sub> = {format_number(self.d_h)}"

    def _fonts(self) -> tuple[QFont, QFont]:
        return scaled_font(READING, bold=True), scaled_font(HEADING, bold=True)

    def _label_size(self) -> QSizeF:
        label_font, _ = self._fonts()
        sizes = [self.rich(text, label_font).size() for text in self.edge_labels()]
        return QSizeF(max(s.width() for s in sizes), max(s.height() for s in sizes))

    def _room(self) -> tuple[float, float, float, float, float, float]:
        """(label height, operator gap, margin, T label's length, d_h label's length, the
        tallest block name's height), from the fonts now."""
        label_font, name_font = self._fonts()
        label_h = self._label_size().height() * 1.2
        op_w = self.rich("=", name_font).size().width() * 3 + label_h
        t_len, d_len = (self.rich(text, label_font).size().width() for text in self.edge_labels())
        name_h = max(self.rich(html, name_font).size().height() for html in BLOCK_NAMES.values())
        return label_h, op_w, 6 * self.scale, t_len, d_len, name_h

    def _least_unit(self) -> float:
        """The smallest log₂ step at which every edge label fits: a T label under its edge, a
        d_h label within its edge and the room beside it."""
        label_h, _, _, t_len, d_len, _ = self._room()
        lt, ld = math.log2(max(self.T, 2)), math.log2(max(self.d_h, 2))
        return max(1.0, t_len / lt, (d_len - 2 * label_h) / ld)

    def _top(self, unit: float) -> float:
        """Where the blocks start: low enough for a side label longer than its edge and for a
        block's name that does not fit inside it (drawn above it)."""
        _, _, margin, t_len, d_len, name_h = self._room()
        L_T, L_d = side_length(self.T, unit), side_length(self.d_h, unit)
        _, name_font = self._fonts()
        above = any(not self._fits(self.rich(BLOCK_NAMES[name], name_font).size(), w, h)
                    for name, w, h in (("Q", L_d, L_T), ("K", L_T, L_d)))
        return margin + max(0.0, (t_len - L_T) / 2, (d_len - L_d) / 2,
                            name_h if above else 0.0)

    @staticmethod
    def _fits(size: QSizeF, width: float, height: float) -> bool:
        return size.width() < width and size.height() < height

    def minimumSizeHint(self) -> QSize:
        """As large as the labels need at the T and d_h shown (at the desk too: a docked
        diagram cut "T = 4,096" short and ran it into "d_h = 256"), never below the least
        picture that reads."""
        least = super().minimumSizeHint()
        label_h, op_w, margin, *_ = self._room()
        unit = self._least_unit()
        lt, ld = math.log2(max(self.T, 2)), math.log2(max(self.d_h, 2))
        width = 2 * margin + label_h + 2 * op_w + unit * (ld + 2 * lt)
        height = self._top(unit) + margin + label_h + unit * max(lt, ld)
        return QSize(max(least.width(), math.ceil(width)), max(least.height(), math.ceil(height)))

    def blocks(self) -> list[tuple[str, QRectF]]:
        """Q, K (drawn as K_hᵀ) and S as rectangles in widget coordinates, fitted to the size.

        One unit length per log₂ step for every block, so T and d_h edges match everywhere.
        """
        label_h, op_w, margin, *_ = self._room()
        lt, ld = math.log2(max(self.T, 2)), math.log2(max(self.d_h, 2))
        room_w = self.width() - 2 * margin - label_h - 2 * op_w
        room_h = self.height() - 2 * margin - label_h
        unit = max(1.0, min(room_w / (ld + 2 * lt), room_h / max(lt, ld)))
        # the blocks start lower for labels longer than their edges: leave that room too
        room_h -= self._top(unit) - margin
        unit = max(1.0, min(unit, room_h / max(lt, ld)))
        L_T, L_d = side_length(self.T, unit), side_length(self.d_h, unit)
        # Centre the picture across; keep it at the top, where a scrolled dock shows it, but
        # low enough that a side label longer than its edge is not cut off above.
        used_w = label_h + L_d + 2 * L_T + 2 * op_w
        x = max(margin, (self.width() - used_w) / 2) + label_h
        top = self._top(unit)
        rects = []
        for name, width, height in (("Q", L_d, L_T), ("K", L_T, L_d), ("S", L_T, L_T)):
            rects.append((name, QRectF(x, top, width, height)))
            x += width + op_w
        return rects

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(self.theme.background))
        label_font, name_font = self._fonts()
        t_text, d_text = self.edge_labels()
        labels = {"Q": (d_text, t_text), "K": (t_text, d_text), "S": (t_text, t_text)}
        fills = {"Q": Q_FILL, "K": K_FILL}
        label_h = self._label_size().height() * 1.2
        pen = QPen(QColor(self.theme.foreground))
        pen.setWidthF(1.5 * self.scale)
        rects = self.blocks()
        for index, (name, rect) in enumerate(rects):
            if name in fills:
                fill = QColor(fills[name])
                fill.setAlpha(170)
                painter.setBrush(fill)
            else:
                gradient = QLinearGradient(rect.topLeft(), rect.bottomRight())
                for i, colour in enumerate(SCORE_STOPS):
                    gradient.setColorAt(i / (len(SCORE_STOPS) - 1), QColor(colour))
                painter.setBrush(gradient)
            painter.setPen(pen)
            painter.drawRect(rect)
            self._draw_name(painter, rect, self.rich(BLOCK_NAMES[name], name_font), name_font)
            bottom, side = labels[name]
            painter.setPen(QColor(self.theme.foreground))
            painter.setFont(label_font)
            self._centred(painter, self.rich(bottom, label_font),
                          QPointF(rect.center().x(), rect.bottom() + label_h / 2))
            painter.save()
            painter.translate(rect.left() - label_h / 2, rect.center().y())
            painter.rotate(-90)
            self._centred(painter, self.rich(side, label_font), QPointF(0, 0))
            painter.restore()
            if index + 1 < len(rects):
                gap_right = rects[index + 1][1].left() - label_h
                centre = QPointF((rect.right() + gap_right) / 2,
                                 rect.top() + max(r.height() for _, r in rects) / 2)
                painter.setFont(name_font)
                self._centred(painter, self.rich("·" if index == 0 else "=", name_font), centre)
        painter.end()

    @staticmethod
    def _centred(painter: QPainter, text: QStaticText, centre: QPointF) -> None:
        size = text.size()
        painter.drawStaticText(QPointF(centre.x() - size.width() / 2,
                                       centre.y() - size.height() / 2), text)

    def _draw_name(self, painter: QPainter, rect: QRectF, text: QStaticText,
                   font: QFont) -> None:
        """The block's name inside it (dark on the light fill), or above it when too small
        (beside it, it ran into the next block's edge label)."""
        size = text.size()
        painter.setFont(font)
        if self._fits(size, rect.width(), rect.height()):
            painter.setPen(QColor("#000000"))
            self._centred(painter, text, rect.center())
        else:
            painter.setPen(QColor(self.theme.foreground))
            painter.drawStaticText(QPointF(rect.center().x() - size.width() / 2,
                                           rect.top() - size.height()), text)
