"""Owns the room an axis reserves for its title and tick labels, measured from the fonts at
the current presentation scale instead of pyqtgraph's own estimate, and how an axis (or any
item that holds still during a drag) is kept between paints."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

ROUNDING = 2.0


def axis_depth(axis: pg.AxisItem, tick_font: QFont, labels: Sequence[str], title: bool) -> int:
    """How deep `axis` is with its tick labels in `tick_font` and (`title`) its title: the
    laid-out size as pyqtgraph measures it (a label it finds wider than the room left is not
    drawn at all; ROUNDING covers its whole-pixel placement)."""
    metrics = QFontMetricsF(tick_font)
    boxes = [metrics.size(0, text) for text in labels] or [metrics.size(0, "0")]
    upright = axis.orientation in ("left", "right")
    across = ROUNDING + max(box.width() if upright else box.height() for box in boxes)
    title_px = axis.label.boundingRect().height() if title else 0.0
    offset = axis.style["tickTextOffset"][0 if upright else 1]
    return math.ceil(title_px + across + offset + max(0, axis.style["tickLength"]))


def reserve_room(axis: pg.AxisItem, tick_font: QFont, labels: Sequence[str]) -> None:
    """Make a pyqtgraph axis exactly as deep as its title, tick labels and tick marks.

    pyqtgraph counts only 80 % of the title's height (and remembers older, smaller tick
    widths), so at 200 % and more a rotated title ran into the tick labels beside it.
    """
    room = axis_depth(axis, tick_font, labels, axis.label.isVisible())
    if axis.orientation in ("left", "right"):
        axis.setWidth(room)
    else:
        axis.setHeight(room)


def cache_axes(view: pg.GraphicsView) -> None:
    """Keep each axis of `view` as a pixmap until the axis itself changes.

    pyqtgraph records an axis (its ticks, labels and grid) as a QPicture and replays it at
    every paint of the view; a drag step repaints the view for an arrow and so replayed
    every axis, text laid out again: on the stage about 5 of the playground's 8 ms. Every
    change of an axis (range, ticks, style, size) calls `update()`, which drops the pixmap.
    """
    keep_still(*(item for item in view.scene().items() if isinstance(item, pg.AxisItem)))


def keep_still(*items: QGraphicsItem) -> None:
    """Keep items that hold still during a drag (a landscape's picture and its contours) as
    pixmaps: a step that moves an arrow across them then copies the uncovered part instead
    of stroking every contour again (about 0.5 ms of the plane's paint, measured)."""
    for item in items:
        item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


def repaint_in_one_rect(view: pg.GraphicsView) -> None:
    """Repaint the one rectangle around what changed, where pyqtgraph asks for each changed
    rectangle: every cached item is then copied once, not once per piece. Stage scene 1's
    plane, measured: a drag step's eleven rectangles (23,600 px) in 0.95 ms, their bounding
    rectangle (41,900 px) in 0.63 ms. A view whose changes lie far apart (a heatmap's
    column, its colour bar) keeps pyqtgraph's way."""
    view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
