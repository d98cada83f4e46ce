"""Owns how a panel's figure becomes a file: the figure is a list of rectangles, lines,
polylines and texts, drawn by QPainter into a PNG and written as SVG elements, so both show one
picture and the SVG holds shapes and text (anchored, so another font on the reader's machine
stays centred in its cell), never a screenshot."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Protocol

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLineF, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen, QPolygonF

from app.ui.fonts import ui_font

PNG_SCALE = 2
"""Device pixels per figure pixel in a PNG: sharp on a slide or a printed page."""
SVG_FAMILIES = ("Attention Lab Sans SC", "Noto Sans SC", "Noto Sans CJK SC", "Source Han Sans SC",
                "Microsoft YaHei", "PingFang SC", "sans-serif")
"""The app's own family first, then the usual Chinese sans faces of each system."""


@dataclass(frozen=True)
class Box:
    """A filled rectangle, or an outline when `fill` is None."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str


@dataclass(frozen=True)
class Polyline:
    """Connected lines through `points`, in order: a contour is one element, not one per
    step of its grid."""

    points: tuple[tuple[float, float], ...]
    stroke: str


@dataclass(frozen=True)
class Text:
    """One line of text: `anchor` (start, middle, end) at `x`, its middle at `y`; `upright`
    runs it bottom to top, starting at (x, y)."""

    x: float
    y: float
    text: str
    px: int
    colour: str = "#000000"
    anchor: str = "start"
    bold: bool = False
    upright: bool = False


Shape = Box | Line | Polyline | Text


class Figure(Protocol):
    """What a panel offers for export: its plot, names, colour bar and title, no controls."""

    def size(self) -> QSize:
        """The figure's size in pixels."""

    def shapes(self) -> list[Shape]:
        """The figure, back to front."""


def font(px: int, bold: bool = False) -> QFont:
    """The app's font at a pixel size: a figure's sizes are pixels of the picture."""
    chosen = ui_font(12, bold)
    chosen.setPixelSize(px)
    return chosen


def width(text: str, px: int, bold: bool = False) -> float:
    return QFontMetricsF(font(px, bold)).horizontalAdvance(text)


def height(px: int) -> float:
    return QFontMetricsF(font(px)).height()


def _baseline(text: Text) -> float:
    """From the text's middle to its baseline: half the ascent above, half the descent below."""
    metrics = QFontMetricsF(font(text.px, text.bold))
    return (metrics.ascent() - metrics.descent()) / 2


def paint(painter: QPainter, shapes: list[Shape]) -> None:
    """Draw the shapes with QPainter (the PNG and the clipboard)."""
    for shape in shapes:
        if isinstance(shape, Box):
            painter.setPen(QPen(QColor(shape.stroke), 1.0) if shape.stroke else Qt.PenStyle.NoPen)
            painter.setBrush(QColor(shape.fill) if shape.fill else Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(shape.x, shape.y, shape.w, shape.h))
        elif isinstance(shape, Line):
            painter.setPen(QPen(QColor(shape.stroke), 1.0))
            painter.drawLine(QLineF(shape.x1, shape.y1, shape.x2, shape.y2))
        elif isinstance(shape, Polyline):
            painter.setPen(QPen(QColor(shape.stroke), 1.0, Qt.PenStyle.SolidLine,
                                Qt.PenCapStyle.SquareCap, Qt.PenJoinStyle.RoundJoin))
            painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in shape.points]))
        else:
            painter.setFont(font(shape.px, shape.bold))
            painter.setPen(QColor(shape.colour))
            shift = {"start": 0.0, "middle": 0.5, "end": 1.0}[shape.anchor]
            along = -shift * width(shape.text, shape.px, shape.bold)
            painter.save()
            painter.translate(shape.x, shape.y)
            if shape.upright:
                painter.rotate(-90)
            painter.drawText(QPointF(along, _baseline(shape)), shape.text)
            painter.restore()


def figure_image(figure: Figure) -> QImage:
    """The figure at PNG_SCALE device pixels per pixel, on white."""
    image = QImage(figure.size() * PNG_SCALE, QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(PNG_SCALE)
    image.fill(QColor("#FFFFFF"))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        paint(painter, figure.shapes())
    finally:
        painter.end()
    return image


def figure_png(figure: Figure) -> bytes:
    """The figure as a PNG (see `figure_image`)."""
    image = figure_image(figure)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 takes the format as text too; the stub lists bytes only
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError("could not encode the picture as PNG")
    buffer.close()
    return bytes(data.data())


def _element(shape: Shape) -> str:
    if isinstance(shape, Box):
        fill = shape.fill or "none"
        stroke = f' stroke="{shape.stroke}" stroke-width="1"' if shape.stroke else ""
        return (f'<rect x="{shape.x:g}" y="{shape.y:g}" width="{shape.w:g}" '
                f'height="{shape.h:g}" fill="{fill}"{stroke}/>')
    if isinstance(shape, Line):
        return (f'<line x1="{shape.x1:g}" y1="{shape.y1:g}" x2="{shape.x2:g}" '
                f'y2="{shape.y2:g}" stroke="{shape.stroke}" stroke-width="1"/>')
    if isinstance(shape, Polyline):
        points = " ".join(f"{x:g},{y:g}" for x, y in shape.points)
        return (f'<polyline points="{points}" fill="none" stroke="{shape.stroke}" '
                'stroke-width="1" stroke-linejoin="round"/>')
    turn = (f' transform="rotate(-90 {shape.x:g} {shape.y:g})"' if shape.upright else "")
    weight = ' font-weight="bold"' if shape.bold else ""
    return (f'<text x="{shape.x:g}" y="{shape.y + _baseline(shape):g}" '
            f'font-size="{shape.px}" fill="{shape.colour}" text-anchor="{shape.anchor}"'
            f'{weight}{turn}>{escape(shape.text)}</text>')


def figure_svg(figure: Figure, title: str) -> bytes:
    """The figure as SVG 1.1: rect, line, polyline and text elements in figure pixels, on
    white."""
    size = figure.size()
    w, h = size.width(), size.height()
    families = ", ".join(f"'{f}'" if " " in f else f for f in SVG_FAMILIES)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}" font-family="{escape(families)}">',
             f"<title>{escape(title)}</title>",
             f'<rect x="0" y="0" width="{w}" height="{h}" fill="#FFFFFF"/>',
             *(_element(shape) for shape in figure.shapes()), "</svg>", ""]
    return "\n".join(lines).encode("utf-8")
