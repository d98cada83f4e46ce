"""Owns the drag rows' reference: the painting a drag step cannot avoid, done with plain
QPainter on a widget of the default layout's size, timed in the same run as the app.

Per step it repaints only what changes in the app's default layout (the score matrix, the
term-by-term sum and the 4-D editor, with the status line), counted from the app: the
changed cells of a 5×5 grid (a colour each and its number as text: the dragged key's
column, 5 cells), one row of four term bars, the dragged key's four bars and its four
numbers (the editor's chart and boxes), and seven lines of text: the sum's two lines, its
dominant term, its polar form, the heatmap's readout and note, and the status line.
`repaint()` paints those regions synchronously through the widget's backing store, as a
panel's paint would, with no model, no layout and no event loop. A drag row's median
divided by this is how many times the minimum the app spends.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QRegion
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from bench.teaching_drag import Frame, T, TeachingDrag

CELL = 120
GRID_AT = (40, 40)
BARS = QRect(760, 40, 600, 400)
EQUATION = QRect(40, 680, 1400, 72)
"""The sum, on two lines as the app writes it."""
LINE = QSize(950, 28)
LINES_AT = QPoint(40, EQUATION.bottom() + 9)
"""Below the equation, one line each of `Frame.lines` past the sum's second line, each the
size of the app's lines in the default layout at 1920×1080."""
KEY_BARS = QRect(1420, 40, 380, 50)
KEY_BOX = QSize(93, 33)
"""The dragged key's chart and, under it, one box per value, at the editor's sizes."""
LOW, HIGH = QColor("#2c7bb6"), QColor("#d7191c")
SCORE_RANGE = 4.0
"""Scores are coloured on −this … +this, so an unchanged cell keeps its colour."""


def _colour(value: float) -> QColor:
    share = min(max((value + SCORE_RANGE) / (2 * SCORE_RANGE), 0.0), 1.0)
    return QColor.fromRgbF(*(low + (high - low) * share for low, high in
                             zip(LOW.getRgbF()[:3], HIGH.getRgbF()[:3], strict=True)))


def cell_rect(row: int, col: int) -> QRect:
    return QRect(GRID_AT[0] + col * CELL, GRID_AT[1] + row * CELL, CELL, CELL)


def key_box(index: int) -> QRect:
    return QRect(QPoint(KEY_BARS.left() + index * (KEY_BOX.width() + 3), KEY_BARS.bottom() + 3),
                 KEY_BOX)


def line_rect(index: int) -> QRect:
    """Where `Frame.lines[index]` is painted (index 0 is the equation's second line)."""
    return QRect(LINES_AT + QPoint(0, (index - 1) * LINE.height()), LINE)


class ReferenceView(QWidget):
    """The teaching view at its simplest: cells, bars, numbers and lines of text, nothing
    else."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__()
        self.resize(*size)
        self.drag = TeachingDrag()
        self.shown: Frame = self.drag.frame()
        self._cell_font = QFont()
        self._cell_font.setPixelSize(28)
        self._text_font = QFont()
        self._text_font.setPixelSize(24)
        self._line_font = QFont()
        self._line_font.setPixelSize(16)

    def step(self) -> None:
        """One drag step: new numbers, then a synchronous repaint of what they changed."""
        self.shown = self.drag.step()
        region = QRegion(BARS) + QRegion(EQUATION) + QRegion(KEY_BARS)
        for index in range(len(self.shown.key)):
            region += QRegion(key_box(index))
        for index in range(1, len(self.shown.lines)):
            region += QRegion(line_rect(index))
        for row, col in self.shown.changed:
            region += QRegion(cell_rect(row, col))
        self.repaint(region)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        clip = event.region()
        frame = self.shown
        painter.setFont(self._cell_font)
        for row in range(T):
            for col in range(T):
                rect = cell_rect(row, col)
                if not clip.intersects(rect):
                    continue
                value = float(frame.scores[row, col])
                colour = _colour(value)
                painter.fillRect(rect, colour)
                painter.setPen(Qt.GlobalColor.black if colour.lightnessF() > 0.5
                               else Qt.GlobalColor.white)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{value:.2f}")
        if clip.intersects(BARS):
            _paint_bars(painter, BARS, frame.terms)
        if clip.intersects(KEY_BARS):
            _paint_bars(painter, KEY_BARS, frame.key)
        if clip.intersects(EQUATION):
            painter.fillRect(EQUATION, Qt.GlobalColor.white)
            painter.setFont(self._text_font)
            painter.setPen(Qt.GlobalColor.black)
            painter.drawText(EQUATION, Qt.AlignmentFlag.AlignVCenter,
                             f"{frame.equation}\n{frame.lines[0]}")
        painter.setFont(self._line_font)
        for index, value in enumerate(frame.key):
            box = key_box(index)
            if clip.intersects(box):
                painter.fillRect(box, Qt.GlobalColor.white)
                painter.setPen(Qt.GlobalColor.black)
                painter.drawRect(box.adjusted(0, 0, -1, -1))
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, f"{float(value):.2f}")
        for index in range(1, len(frame.lines)):
            rect = line_rect(index)
            if clip.intersects(rect):
                painter.fillRect(rect, Qt.GlobalColor.white)
                painter.setPen(Qt.GlobalColor.black)
                painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter, frame.lines[index])
        painter.end()


def _paint_bars(painter: QPainter, area: QRect, values: np.ndarray) -> None:
    """A bar per value rising or falling from the middle line of `area`."""
    painter.fillRect(area, Qt.GlobalColor.white)
    middle = area.center().y()
    width = area.width() // len(values)
    scale = area.height() / 2 / SCORE_RANGE
    for index, value in enumerate(values):
        height = round(float(value) * scale)
        left = area.left() + index * width + width // 6
        bar = QRect(left, min(middle, middle - height), width * 2 // 3, abs(height) or 1)
        painter.fillRect(bar, _colour(float(value)))
    painter.setPen(Qt.GlobalColor.black)
    painter.drawLine(area.left(), middle, area.right(), middle)


def reference_samples(size: tuple[int, int], steps: int, warmup: int = 3) -> list[float]:
    """Milliseconds per reference step, after `warmup` unrecorded ones (fonts, glyph cache)."""
    view = ReferenceView(size)
    view.show()
    QTest.qWaitForWindowExposed(view)  # before it is exposed, repaint() paints nothing
    samples = []
    try:
        for index in range(warmup + steps):
            start = time.perf_counter()
            view.step()
            if index >= warmup:
                samples.append((time.perf_counter() - start) * 1000.0)
    finally:
        view.close()
        view.deleteLater()
    return samples


def reference_ms(size: tuple[int, int], steps: int) -> float:
    """The reference's median step, in milliseconds."""
    return statistics.median(reference_samples(size, steps))
