"""A still pyqtgraph plot holding one item, for tests that compare what an item paints."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QGraphicsItem

from app.startup import make_application


def still_plot(qtbot, item: QGraphicsItem, size: tuple[int, int]) -> pg.PlotWidget:
    """The item on a plot of x and y from −1 to 1 that neither pans nor zooms, shown and
    painted once."""
    make_application()
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.setRange(xRange=(-1, 1), yRange=(-1, 1), padding=0)
    widget.setMouseEnabled(False, False)
    widget.addItem(item)
    widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)
    painted(widget)
    return widget


def painted(widget: pg.GraphicsView) -> np.ndarray:
    """The widget's pixels once its events have run, as rows of B, G, R, A bytes (ints)."""
    for _ in range(3):
        QApplication.processEvents()
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine())[:, :4 * image.width()].astype(int)
