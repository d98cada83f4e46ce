"""A drag shows where the pointer is: moves closer together than a frame (a touchpad sends
them ~9 ms apart) must not leave the key a step behind; the last one is what is painted,
before the button is let go. Runs with the application's own pyqtgraph settings."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from app.ui.format import format_score
from app.ui.panels.playground.panel import PlaygroundPanel

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.MouseButton.NoButton
PLAIN = Qt.KeyboardModifier.NoModifier
PYQTGRAPH_DEFAULT_RATE = 100
"""pyqtgraph's own mouseRateLimit (moves per second): what the app starts from."""


@pytest.fixture
def panel(open_2d_panel):
    """The playground built by the app's start-up (make_application), from pyqtgraph's
    default rate, which is put back afterwards."""
    limit = pg.getConfigOption("mouseRateLimit")
    pg.setConfigOption("mouseRateLimit", PYQTGRAPH_DEFAULT_RATE)
    yield open_2d_panel(PlaygroundPanel, (640, 760))
    pg.setConfigOption("mouseRateLimit", limit)


def send(widget, kind: QEvent.Type, pos: QPointF, button, buttons) -> None:
    event = QMouseEvent(kind, pos, QPointF(widget.mapToGlobal(pos)), button, buttons, PLAIN)
    QApplication.sendEvent(widget, event)


def at(panel: PlaygroundPanel, x: float, y: float) -> QPointF:
    return QPointF(panel.canvas.mapFromScene(panel.plot.vb.mapViewToScene(QPointF(x, y))))


@pytest.mark.parametrize("target", [(4.0, -1.0), (-2.5, 3.5)])
def test_a_burst_of_moves_ends_where_the_pointer_is_before_release(qtbot, panel, target):
    document, viewport = panel.document, panel.canvas.viewport()
    start = tuple(document.state.dialogue_keys[1])
    a, b = at(panel, *start), at(panel, *target)
    send(viewport, QEvent.Type.MouseButtonPress, a, LEFT, LEFT)
    for t in np.linspace(0.1, 1.0, 12):  # no wait between moves: faster than any limit
        send(viewport, QEvent.Type.MouseMove, a + (b - a) * float(t), NONE, LEFT)
    qtbot.wait(50)  # the frame after the burst: the recompute and the paint it asks for
    assert document.dragging, "still held: nothing has caught up on release"
    assert tuple(document.state.dialogue_keys[1]) == target
    assert panel.arrows[("k", 1)].tip == target
    q = document.state.dialogue_q
    assert panel.readouts.cells[1]["dot"].text() == format_score(float(q @ np.array(target)))
    send(viewport, QEvent.Type.MouseButtonRelease, b, LEFT, NONE)
    assert tuple(document.state.dialogue_keys[1]) == target
