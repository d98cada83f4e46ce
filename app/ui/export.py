"""Exporting what is on screen: a panel's figure (or a widget as it looks) to PNG/SVG files or
the clipboard, scores to CSV.

Everything is rendered into memory first and written by Python through a temporary file and a
rename (`write_bytes_atomic`), so a bad destination or a full disk is one clean OSError for the
caller to report and the file that was there before is left as it was, never half-overwritten.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QSize
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from app.model.atomic import write_bytes_atomic
from app.model.scores_csv import CSV_ENCODING
from app.ui.figure import Figure, figure_image, figure_png, figure_svg
from app.ui.panels.base import Panel
from app.ui.svg_strokes import portable_svg

IMAGE_SUFFIXES = (".png", ".svg")


def svg_bytes(widget: QWidget) -> bytes:
    """Vector output for slides and handouts: the widget paints itself into an SVG, made
    portable so librsvg and ImageMagick draw it as browsers do."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    size = widget.size()
    generator.setSize(QSize(size.width(), size.height()))
    generator.setViewBox(QRect(0, 0, size.width(), size.height()))
    generator.setTitle("Attention Lab")
    painter = QPainter(generator)
    try:
        widget.render(painter, QPoint())
    finally:
        painter.end()
    buffer.close()
    return portable_svg(bytes(data.data()))


def png_bytes(widget: QWidget) -> bytes:
    """The widget as it looks on screen, at the screen's pixel density."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not widget.grab().save(buffer, "PNG"):
        raise OSError("could not encode the picture as PNG")
    buffer.close()
    return bytes(data.data())


def _figure(widget: QWidget) -> Figure | None:
    """A panel's figure: a report wants the plot, not the buttons and hints around it."""
    return widget.figure() if isinstance(widget, Panel) else None


def save_svg(widget: QWidget, path: Path) -> None:
    """The SVG, written atomically: a failed write leaves the old file untouched."""
    figure = _figure(widget)
    write_bytes_atomic(path, svg_bytes(widget) if figure is None
                       else figure_svg(figure, "Attention Lab"))


def save_png(widget: QWidget, path: Path) -> None:
    """The PNG, written atomically: a failed write leaves the old file untouched."""
    figure = _figure(widget)
    write_bytes_atomic(path, png_bytes(widget) if figure is None else figure_png(figure))


def save_image(widget: QWidget, path: Path) -> None:
    """PNG or SVG by the file's suffix; raises ValueError for any other suffix, OSError on write."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        save_svg(widget, path)
    elif suffix == ".png":
        save_png(widget, path)
    else:
        raise ValueError(f"{Path(path).name}: choose a .png or .svg file name")


def save_csv(path: Path, text: str) -> None:
    """A CSV export, written atomically (a failed write never leaves a 0-byte or half file)
    in the encoding spreadsheets on Chinese Windows read right."""
    write_bytes_atomic(path, text.encode(CSV_ENCODING))


def copy_image(widget: QWidget) -> QImage:
    """Put the widget's picture on the clipboard (paste straight into slides or a chat)."""
    figure = _figure(widget)
    image = widget.grab().toImage() if figure is None else figure_image(figure)
    QGuiApplication.clipboard().setImage(image)
    return image
