"""A still pyqtgraph plot holding one item, and its pixels, for tests that compare what is
painted."""

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
    """The widget's pixels once its events have run (see `pixels`)."""
    for _ in range(3):
        QApplication.processEvents()
    return pixels(widget.grab().toImage())


def pixels(image: QImage) -> np.ndarray:
    """An image's pixels as rows of B, G, R bytes (ints; RGB32's unused fourth byte left
    out)."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine())[:, :4 * image.width()].reshape(
        image.height(), image.width(), 4)[..., :3].astype(int)


def far_apart(a: np.ndarray, b: np.ndarray, levels: int = 0) -> int:
    """Pixels whose colour differs by more than `levels` in some channel."""
    assert a.shape == b.shape
    return int((np.abs(a - b).max(axis=-1) > levels).sum())
