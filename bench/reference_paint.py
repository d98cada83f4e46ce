"""Owns the drag rows' reference: the painting a drag step cannot avoid, done with plain
QPainter on a widget of the default layout's size, timed in the same run as the app.

Per step it repaints only what changed: the changed cells of a 5×5 grid (a colour each and
its number as text), one row of term bars and one line of equation text. `repaint()` paints
those regions synchronously through the widget's backing store, as a panel's paint would,
with no model, no layout and no event loop. A drag row's median divided by this is how many
times the minimum the app spends.
"""

from __future__ import annotations

import statistics
import time

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QRegion
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from bench.teaching_drag import Frame, T, TeachingDrag

CELL = 120
GRID_AT = (40, 40)
BARS = QRect(760, 40, 600, 400)
EQUATION = QRect(40, 720, 1400, 60)
LOW, HIGH = QColor("#2c7bb6"), QColor("#d7191c")
SCORE_RANGE = 4.0
"""Scores are coloured on −this … +this, so an unchanged cell keeps its colour."""


def _colour(value: float) -> QColor:
    share = min(max((value + SCORE_RANGE) / (2 * SCORE_RANGE), 0.0), 1.0)
    return QColor.fromRgbF(*(low + (high - low) * share for low, high in
                             zip(LOW.getRgbF()[:3], HIGH.getRgbF()[:3], strict=True)))


def cell_rect(row: int, col: int) -> QRect:
    return QRect(GRID_AT[0] + col * CELL, GRID_AT[1] + row * CELL, CELL, CELL)


class ReferenceView(QWidget):
    """The teaching view at its simplest: cells, bars, one equation, nothing else."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__()
        self.resize(*size)
        self.drag = TeachingDrag()
        self.shown: Frame = self.drag.frame()
        self._cell_font = QFont()
        self._cell_font.setPixelSize(28)
        self._text_font = QFont()
        self._text_font.setPixelSize(24)

    def step(self) -> None:
        """One drag step: new numbers, then a synchronous repaint of what they changed."""
        self.shown = self.drag.step()
        region = QRegion(BARS) + QRegion(EQUATION)
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
            self._paint_bars(painter, frame)
        if clip.intersects(EQUATION):
            painter.fillRect(EQUATION, Qt.GlobalColor.white)
            painter.setFont(self._text_font)
            painter.setPen(Qt.GlobalColor.black)
            painter.drawText(EQUATION, Qt.AlignmentFlag.AlignVCenter, frame.equation)
        painter.end()

    def _paint_bars(self, painter: QPainter, frame: Frame) -> None:
        painter.fillRect(BARS, Qt.GlobalColor.white)
        middle = BARS.center().y()
        width = BARS.width() // len(frame.terms)
        scale = BARS.height() / 2 / SCORE_RANGE
        for index, term in enumerate(frame.terms):
            height = round(float(term) * scale)
            left = BARS.left() + index * width + width // 6
            bar = QRect(left, min(middle, middle - height), width * 2 // 3, abs(height) or 1)
            painter.fillRect(bar, _colour(float(term)))
        painter.setPen(Qt.GlobalColor.black)
        painter.drawLine(BARS.left(), middle, BARS.right(), middle)


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
