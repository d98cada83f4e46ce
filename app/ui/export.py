"""Exporting what is on screen: widgets to PNG/SVG and matrices to CSV."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget


def save_svg(widget: QWidget, path: Path) -> None:
    """Vector output for slides and handouts: the widget paints itself into an SVG."""
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    size = widget.size()
    generator.setSize(QSize(size.width(), size.height()))
    generator.setViewBox(QRect(0, 0, size.width(), size.height()))
    generator.setTitle("Attention Lab")
    painter = QPainter(generator)
    try:
        widget.render(painter)
    finally:
        painter.end()
