"""The plane's plain line: drawn as pyqtgraph's curve drew it, kept as a pixmap while it is
see-through (Qt strokes a see-through wide line on a slow path), and repainted whole as it
moves (a click on a shaft's band: tests/ui/test_playground.py)."""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QGraphicsItem

from app.startup import make_application
from app.ui.widgets.polyline import Polyline
from tests.ui.still_plot import far_apart, painted, still_plot

BAND = ("#1f77b4", 12)
"""The selected key's colour and a projection band's width on the stage, in pixels."""


@pytest.fixture
def plot(qtbot) -> Callable[[type], tuple[pg.PlotWidget, object]]:
    """A still plot with one wide band across it, drawn by the given item class."""

    def open_(kind: type) -> tuple[pg.PlotWidget, object]:
        make_application()
        line = kind([-0.8, 0.7], [-0.6, 0.5])
        line.setPen(pg.mkPen(BAND[0], width=BAND[1]))
        return still_plot(qtbot, line, (420, 300)), line

    return open_


@pytest.mark.parametrize("opacity, levels", [(1.0, 0), (0.45, 3)])
def test_the_line_looks_as_pyqtgraphs_curve_drew_it(plot, opacity, levels):
    """Opaque, the same pixels; see-through (the projection band, laid on from its pixmap),
    the same within a rounding of its blend."""
    widget, line = plot(Polyline)
    line.setOpacity(opacity)
    curve_widget, curve = plot(pg.PlotCurveItem)
    curve.setOpacity(opacity)
    ours, theirs = painted(widget), painted(curve_widget)
    assert far_apart(ours, theirs, levels) == 0
    line.hide()
    assert far_apart(ours, painted(widget), 24) > 2000  # the band is on the picture


def test_a_see_through_line_is_kept_as_a_pixmap_and_an_opaque_one_is_not(plot):
    _widget, line = plot(Polyline)
    assert line.cacheMode() == QGraphicsItem.CacheMode.NoCache
    line.setOpacity(0.45)
    assert line.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache
    line.setOpacity(1.0)
    assert line.cacheMode() == QGraphicsItem.CacheMode.NoCache


def test_a_moved_see_through_line_leaves_nothing_behind(plot):
    """The pixmap follows the new points: the picture is that of a line drawn there first."""
    widget, line = plot(Polyline)
    line.setOpacity(0.45)
    painted(widget)
    line.setData([0.6, -0.7], [-0.8, 0.4])
    moved = painted(widget)
    fresh_widget, fresh = plot(Polyline)
    fresh.setData([0.6, -0.7], [-0.8, 0.4])
    fresh.setOpacity(0.45)
    assert far_apart(moved, painted(fresh_widget), 0) == 0
