"""What a student on a laptop reaches in the 4-D editor: the reshape controls without
scrolling, a clicked bar nudged with the arrow keys (one undo step a nudge), a tooltip that
tells of Shift and the keys; and the World list naming the world by its width."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QComboBox

from app.model.state import WORLDS
from app.ui.panels.editor.panel import EditorPanel

APPLE = 2  # 苹果, by index


@pytest.fixture
def panel(open_panel):
    return open_panel(EditorPanel, (720, 300))  # a short dock: the page scrolls


def test_the_reshape_controls_show_whole_without_scrolling(panel):
    assert panel._scroll.verticalScrollBar().maximum() > 0, "the page must scroll here"
    bar = panel.reshape_bar
    assert bar.isVisible()
    assert bar.visibleRegion().boundingRect() == bar.rect()
    assert panel.rect().contains(QRect(bar.mapTo(panel, QPoint(0, 0)), bar.size()))


def test_a_clicked_bar_takes_the_arrow_keys_one_undo_step_each(qtbot, panel):
    document = panel.document
    chart = panel.charts[("k", APPLE)]
    panel._scroll.ensureWidgetVisible(chart.widget)
    before = float(document.state.teaching_k[APPLE, 2])
    point = chart.plot.mapFromScene(chart.bars.mapToScene(QPointF(2, before / 2)))
    qtbot.mouseClick(chart.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
    box = chart.boxes[2]
    qtbot.waitUntil(box.hasFocus, timeout=1000)
    assert document.state.key == APPLE
    steps = document.undo_stack.count()
    step = box.singleStep()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Up)
    document.flush()
    assert document.state.teaching_k[APPLE, 2] == pytest.approx(before + step)
    for _ in range(2):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Down)
    document.flush()
    assert document.state.teaching_k[APPLE, 2] == pytest.approx(before - step)
    assert document.undo_stack.count() == steps + 3
    document.undo_stack.undo()
    document.flush()
    assert document.state.teaching_k[APPLE, 2] == pytest.approx(before)
    assert np.isclose(chart.bars.values[2], before)


def test_the_bars_tooltip_tells_of_shift_and_the_arrow_keys(panel):
    tip = panel.charts[("q", 0)].plot.toolTip()
    assert "Shift" in tip and "↑" in tip
    assert f"{panel.charts[('q', 0)].boxes[0].singleStep():g}" in tip


def test_the_world_list_names_the_world_by_its_width(qtbot, window):
    combo = window.findChild(QComboBox, "world_combo")
    action = window.findChild(QAction, "action_world_teaching")
    teaching = WORLDS.index("teaching")
    assert combo.itemText(teaching).startswith("4-D") and action.text().startswith("4-D")
    editor = window.findChild(EditorPanel)
    spin = editor.reshape_bar.dim_spin
    window.document.set_world("teaching")
    window.document.flush()
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), "6")
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    window.document.flush()
    QApplication.processEvents()
    assert window.document.state.teaching_q.shape[1] == 6
    assert combo.itemText(teaching) == "6-D teaching world"
    assert action.text() == "6-D teaching world"
    window.document.undo_stack.undo()
    window.document.flush()
    QApplication.processEvents()
    assert combo.itemText(teaching) == "4-D teaching world"
