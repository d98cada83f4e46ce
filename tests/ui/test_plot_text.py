"""The plot's label, its box kept as a pixmap: it shows the box from the first paint, and a
new text, font, anchor or zoom shows as a label made with it from the start shows."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QGraphicsItem

from app.startup import make_application
from app.ui.fonts import ui_font
from app.ui.look import Look
from app.ui.panels.playground.panel import PlaygroundPanel
from app.ui.widgets.plot_text import PlotText
from tests.ui.still_plot import painted, still_plot

SHORT, LONG = "1", "|k|cos θ = −12.34"


@pytest.fixture
def plot(qtbot) -> Callable[[str], tuple[pg.PlotWidget, PlotText]]:
    """A still plot with one filled label at its centre."""

    def open_(text: str) -> tuple[pg.PlotWidget, PlotText]:
        make_application()
        label = PlotText(text, color="#222222", anchor=(0.5, 0.5),
                         fill=pg.mkBrush(255, 200, 0, 190))
        return still_plot(qtbot, label, (420, 260)), label

    return open_


def test_the_labels_box_is_kept_as_a_pixmap_and_its_text_drawn(plot):
    _widget, label = plot(SHORT)
    assert label.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache
    assert label.textItem.cacheMode() == QGraphicsItem.CacheMode.NoCache


@pytest.mark.parametrize("first, then", [(SHORT, LONG), (LONG, SHORT)])
def test_a_new_text_shows_whole_with_its_own_box(plot, first, then):
    widget, label = plot(first)
    label.setText(then)
    changed = painted(widget)
    fresh, _label = plot(then)
    assert np.array_equal(changed, painted(fresh))


def test_a_new_font_and_anchor_show_as_a_label_made_with_them(plot):
    widget, label = plot(LONG)
    label.setFont(ui_font(20, bold=True))
    label.setAnchor((0, 1))
    changed = painted(widget)
    fresh, made = plot(LONG)
    made.setFont(ui_font(20, bold=True))
    made.setAnchor((0, 1))
    assert np.array_equal(changed, painted(fresh))


def test_the_planes_labels_keep_their_text_through_a_new_zoom(qtbot, open_2d_panel, present):
    """After presentation zooms, the plane is what it is with every label's pixmap drawn
    afresh (with the texts kept as pixmaps too they were left blank; without telling Qt of
    the new box, the boxes kept the first zoom's size)."""
    panel = open_2d_panel(PlaygroundPanel, (900, 700))
    present(panel, Look().scaled(1.5))
    present(panel, Look().scaled(1.0))
    shown = painted(panel.canvas)
    labels = [item for item in panel.canvas.scene().items() if isinstance(item, PlotText)]
    assert len(labels) >= 4
    for item in labels:  # every pixmap dropped and drawn again
        for part in (item, item.textItem):
            mode = part.cacheMode()
            part.setCacheMode(QGraphicsItem.CacheMode.NoCache)
            part.setCacheMode(mode)
    panel.canvas.viewport().update()
    assert np.array_equal(painted(panel.canvas), shown)
