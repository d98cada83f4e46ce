"""Owns fitting text into the room a dock leaves at a large presentation scale: the largest
font size, never below 11 pt, whose wrapped text still fits."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF

SMALLEST_PT = 11.0
"""The classroom floor: text gives way by shrinking to here, then by scrolling or clipping."""


def wrapped_height(text: str, font: QFont, width: float) -> float:
    """The height `text` takes in `font`, word-wrapped to `width` pixels."""
    flags = int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft)
    return QFontMetricsF(font).boundingRect(QRectF(0, 0, max(width, 1.0), 1 << 20), flags,
                                            text).height()


def largest_size(size: float, fits: Callable[[float], bool]) -> float:
    """`size` stepped down by half points until `fits(size)`, but not below SMALLEST_PT."""
    while size > SMALLEST_PT and not fits(size):
        size -= 0.5
    return max(size, SMALLEST_PT)
