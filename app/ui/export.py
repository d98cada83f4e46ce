"""Exporting what is on screen: widgets to PNG/SVG files or the clipboard, scores to CSV.

Everything is rendered into memory first and written by Python through a temporary file and a
rename (`write_bytes_atomic`), so a bad destination or a full disk is one clean OSError for the
caller to report and the file that was there before is left as it was, never half-overwritten.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QSize
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from app.model.atomic import write_bytes_atomic
from app.model.csv_cells import text_cell
from app.model.view import View

IMAGE_SUFFIXES = (".png", ".svg")
CSV_ENCODING = "utf-8-sig"
"""With a byte-order mark, so spreadsheet programs on Chinese Windows read token names right."""


def svg_bytes(widget: QWidget) -> bytes:
    """Vector output for slides and handouts: the widget paints itself into an SVG."""
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
    return bytes(data.data())


def png_bytes(widget: QWidget) -> bytes:
    """The widget as it looks on screen, at the screen's pixel density."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not widget.grab().save(buffer, "PNG"):
        raise OSError("could not encode the picture as PNG")
    buffer.close()
    return bytes(data.data())


def save_svg(widget: QWidget, path: Path) -> None:
    """The SVG, written atomically: a failed write leaves the old file untouched."""
    write_bytes_atomic(path, svg_bytes(widget))


def save_png(widget: QWidget, path: Path) -> None:
    """The PNG, written atomically: a failed write leaves the old file untouched."""
    write_bytes_atomic(path, png_bytes(widget))


def save_image(widget: QWidget, path: Path) -> None:
    """PNG or SVG by the file's suffix; raises ValueError for any other suffix, OSError on write."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        save_svg(widget, path)
    elif suffix == ".png":
        save_png(widget, path)
    else:
        raise ValueError(f"{Path(path).name}: choose a .png or .svg file name")


def scores_csv(view: View) -> str:
    """The active scorer's score matrix with token names as headers; undefined cells are empty.

    Numbers are written in full (shortest exact form), so a spreadsheet recomputes the same;
    text cells are quoted and neutralised by `text_cell`.
    """
    out = io.StringIO()
    # Every text cell is quoted, numbers are not: a spreadsheet keeps -1.5 a number.
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([text_cell(f"{view.scorer}: query \\ key"),
                     *(text_cell(name) for name in view.key_names)])
    matrix = np.ma.getdata(view.active)
    masked = np.ma.getmaskarray(view.active)
    for i, name in enumerate(view.query_names):
        cells = ["" if masked[i, j] else float(matrix[i, j]) for j in range(matrix.shape[1])]
        writer.writerow([text_cell(name), *cells])
    return out.getvalue()


def save_csv(path: Path, text: str) -> None:
    """A CSV export, written atomically (a failed write never leaves a 0-byte or half file)
    in the encoding spreadsheets on Chinese Windows read right."""
    write_bytes_atomic(path, text.encode(CSV_ENCODING))


def copy_image(widget: QWidget) -> QImage:
    """Put the widget's picture on the clipboard (paste straight into slides or a chat)."""
    image = widget.grab().toImage()
    QGuiApplication.clipboard().setImage(image)
    return image
