"""The plot's label kept as a pixmap: it shows its box from the first paint, and a new text,
font or anchor shows as a label made with it from the start shows."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QGraphicsItem

from app.startup import make_application
from app.ui.fonts import ui_font
from app.ui.widgets.plot_text import PlotText

SHORT, LONG = "1", "|k|cos θ = −12.34"


@pytest.fixture
def plot(qtbot) -> Callable[[str], tuple[pg.PlotWidget, PlotText]]:
    """A still plot with one filled label at its centre."""
    make_application()

    def open_(text: str) -> tuple[pg.PlotWidget, PlotText]:
        widget = pg.PlotWidget()
        qtbot.addWidget(widget)
        widget.setRange(xRange=(-1, 1), yRange=(-1, 1), padding=0)
        widget.setMouseEnabled(False, False)
        label = PlotText(text, color="#222222", anchor=(0.5, 0.5),
                         fill=pg.mkBrush(255, 200, 0, 190))
        widget.addItem(label)
        widget.resize(420, 260)
        widget.show()
        qtbot.waitExposed(widget)
        painted(widget)
        return widget, label

    return open_


def painted(widget: pg.PlotWidget) -> np.ndarray:
    for _ in range(3):
        QApplication.processEvents()
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine())[:, :4 * image.width()].copy()


def test_the_label_is_kept_as_a_pixmap(plot):
    _widget, label = plot(SHORT)
    assert all(part.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache
               for part in (label, label.textItem))


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
