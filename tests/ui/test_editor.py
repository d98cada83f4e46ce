"""The 4-D vector editor through real events: bar drags snap and are one undo step, typed
values reach the document, bad text changes nothing, the q / k buttons select everywhere."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from app.model.state import LabState
from app.ui.language import apply_language
from app.ui.look import Look
from app.ui.panels.editor.panel import EditorPanel, VectorChart
from app.ui.widgets.number_box import NumberNote

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.MouseButton.NoButton
SHIFT = Qt.KeyboardModifier.ShiftModifier
PLAIN = Qt.KeyboardModifier.NoModifier
GIVEN, APPLE = 3, 2  # 给了 and 苹果, by index, as the lesson selects them


pytestmark = pytest.mark.usefixtures("every_move_counts")


@pytest.fixture
def panel(open_panel):
    return open_panel(EditorPanel, (720, 640))


def to_viewport(chart: VectorChart, x: float, y: float) -> QPoint:
    """Chart coordinates (dimension, value) → scene → the chart view's viewport pixels."""
    return chart.plot.mapFromScene(chart.bars.mapToScene(QPointF(x, y)))


def under_pixel(chart: VectorChart, y: float) -> float:
    """The value the pointer really lands on when aimed at `y`: whole pixels only."""
    pixel = QPointF(to_viewport(chart, 0, y))
    return chart.bars.mapFromScene(chart.plot.mapToScene(pixel.toPoint())).y()


def send(widget, kind: QEvent.Type, pos: QPointF, button, buttons, modifiers) -> None:
    event = QMouseEvent(kind, pos, QPointF(widget.mapToGlobal(pos)), button, buttons, modifiers)
    QApplication.sendEvent(widget, event)


def drag_bar(panel: EditorPanel, chart: VectorChart, dim: int, start: float, end: float,
             modifiers=PLAIN) -> list[LabState]:
    """Press in column `dim` at height `start`, move with the button held, release at `end`;
    returns the document's state after every move."""
    viewport = chart.plot.viewport()
    a, b = QPointF(to_viewport(chart, dim, start)), QPointF(to_viewport(chart, dim, end))
    direction = 1.0 if b.y() >= a.y() else -1.0
    send(viewport, QEvent.Type.MouseButtonPress, a, LEFT, LEFT, modifiers)
    seen = []
    for point in (a + QPointF(0, 8 * direction), *(a + (b - a) * t / 4 for t in range(1, 4)), b):
        send(viewport, QEvent.Type.MouseMove, point, NONE, LEFT, modifiers)
        seen.append(panel.document.state)
    send(viewport, QEvent.Type.MouseButtonRelease, b, LEFT, NONE, modifiers)
    return seen


def settle(panel: EditorPanel) -> None:
    panel.document.flush()
    QApplication.processEvents()


def type_into(qtbot, box, text: str) -> None:
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)


def test_dragging_a_bar_snaps_to_a_tenth_and_is_one_undo_step(qtbot, panel):
    document = panel.document
    before = document.state
    steps = document.undo_stack.count()
    chart = panel.charts[("q", GIVEN)]
    landed = under_pixel(chart, 1.26)
    assert round(landed, 2) != round(landed, 1)  # off the grid, so snapping has work to do
    seen = drag_bar(panel, chart, 1, float(before.teaching_q[GIVEN, 1]) / 2, 1.26)
    settle(panel)
    passed = {float(state.teaching_q[GIVEN, 1]) for state in seen}
    assert len(passed) >= 3
    assert all(round(value, 1) == value for value in passed)
    expected = np.array(before.teaching_q[GIVEN])
    expected[1] = round(landed, 1)
    assert np.allclose(document.state.teaching_q[GIVEN], expected)
    assert np.array_equal(np.delete(document.state.teaching_q, GIVEN, axis=0),
                          np.delete(before.teaching_q, GIVEN, axis=0))
    assert chart.bars.values[1] == pytest.approx(expected[1])
    assert chart.boxes[1].value() == pytest.approx(expected[1])
    assert document.view.pair.total == pytest.approx(
        float(expected @ before.teaching_k[APPLE]))
    assert document.undo_stack.count() == steps + 1
    document.undo_stack.undo()
    settle(panel)
    assert document.state == before
    assert chart.boxes[1].value() == pytest.approx(round(float(before.teaching_q[GIVEN, 1]), 2))


def test_shift_drag_keeps_two_decimals(qtbot, panel):
    document = panel.document
    chart = panel.charts[("k", APPLE)]
    target = next(y for y in np.arange(-1.23, -2.0, -0.04)
                  if round(under_pixel(chart, y), 2) != round(under_pixel(chart, y), 1))
    drag_bar(panel, chart, 0, float(document.state.teaching_k[APPLE, 0]) / 2, target,
             modifiers=SHIFT)
    settle(panel)
    assert document.state.teaching_k[APPLE, 0] == round(under_pixel(chart, target), 2)


def test_typing_a_value_edits_the_vector(qtbot, panel):
    document = panel.document
    box = panel.charts[("k", APPLE)].boxes[3]
    with qtbot.waitSignal(document.changed, timeout=2000):
        type_into(qtbot, box, "1.25")
    assert document.state.teaching_k[APPLE, 3] == 1.25
    assert panel.charts[("k", APPLE)].bars.values[3] == 1.25
    assert not panel.message.isVisible()


@pytest.mark.parametrize("text", ["150", "-1e9", "-", "abc"])
def test_out_of_range_or_unfinished_text_changes_nothing_and_says_why(qtbot, panel, text):
    document = panel.document
    before = document.state
    box = panel.charts[("q", GIVEN)].boxes[2]
    shown = box.text()
    type_into(qtbot, box, text)
    settle(panel)
    assert document.state == before
    assert box.text() == shown
    note = NumberNote.near(box)
    assert note is not None and note.isVisible()
    assert f"“{text}”" in note.text()


def test_q_and_k_buttons_select_the_pair_everywhere(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(panel.pick_buttons[("k", 4)], LEFT)
    assert (document.state.query, document.state.key) == (GIVEN, 4)
    assert panel.pick_buttons[("k", 4)].isChecked()
    assert not panel.pick_buttons[("k", APPLE)].isChecked()
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.select(query=0)  # as another panel would
    assert panel.pick_buttons[("q", 0)].isChecked()
    assert panel.name_labels[0].text().startswith("▶")
    assert not panel.name_labels[GIVEN].text().startswith("▶")


def test_clicking_a_chart_selects_its_token(qtbot, panel):
    document = panel.document
    chart = panel.charts[("q", 1)]
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(chart.plot.viewport(), LEFT, pos=to_viewport(chart, 2, 0.0))
    assert document.state.query == 1


def test_dialogue_world_shows_a_hint_and_a_way_back(panel, world_hint_round_trip):
    world_hint_round_trip(panel, away="dialogue", home="teaching")


def test_presentation_scale_enlarges_names_boxes_and_charts(qtbot, panel, present):
    chart = panel.charts[("q", 0)]
    sizes = (panel.name_labels[0].font().pointSizeF(), chart.boxes[0].font().pointSizeF(),
             chart.plot.height())
    present(panel, Look().scaled(2.0))
    assert panel.name_labels[0].font().pointSizeF() == pytest.approx(2 * sizes[0])
    assert chart.boxes[0].font().pointSizeF() == pytest.approx(2 * sizes[1])
    assert chart.plot.height() == pytest.approx(2 * sizes[2], abs=1)


def test_the_editor_goes_back_to_two_columns_when_the_dock_widens(qtbot, panel):
    """The layout at a width does not depend on the way there. Once narrow, a token's name
    and buttons lie in a row, wider than the stacked cell; measuring that row kept the
    one-column layout for good at widths where two columns fit."""

    def narrow_at(width: int, coming_from: int) -> bool:
        for size in (coming_from, width):
            panel.resize(size, 640)
            QApplication.processEvents()
        return bool(panel._narrow)

    widths = range(400, 1000, 20)
    assert not narrow_at(1200, 1200) and narrow_at(300, 300)
    from_wide = [narrow_at(width, 1200) for width in widths]
    assert True in from_wide and False in from_wide  # the sweep crosses the threshold
    assert [narrow_at(width, 300) for width in widths] == from_wide
    narrow_at(1200, 300)
    grid = panel._grid
    (q_row, q_column, *_), (k_row, k_column, *_) = (
        grid.getItemPosition(grid.indexOf(panel.charts[(role, GIVEN)].widget))
        for role in ("q", "k"))
    assert q_row == k_row and k_column == q_column + 1  # k beside q again


def test_the_editor_lays_out_for_the_language_it_shows_now(qtbot, panel):
    """The layout at a width does not depend on the language before: English glosses beside
    each Chinese name widen the two-column layout, so a width where Chinese fits two columns
    can need one in English (kept from Chinese, k's last box hid past the right edge)."""

    def narrow_at(width: int, first: str) -> bool:
        for language in (first, "en"):
            apply_language(language)
            panel.resize(width, 640)
            QApplication.processEvents()
            QApplication.processEvents()
        return bool(panel._narrow)

    widths = range(400, 1000, 20)
    straight = [narrow_at(width, "en") for width in widths]
    assert True in straight and False in straight  # the sweep crosses the threshold
    assert [narrow_at(width, "zh") for width in widths] == straight


def test_the_bars_value_lines_are_drawn_at_the_width_last_set(qtbot, panel):
    """The value line's pen is made when its width is set, not at each paint: a new width
    still shows, and the same width paints the same chart."""
    chart = panel.charts[("k", panel.document.state.key)]

    def drawn() -> bytes:
        chart.plot.viewport().repaint()
        return bytes(chart.plot.grab().toImage().constBits())

    chart.bars.set_edge_width(1.0)
    thin = drawn()
    chart.bars.set_edge_width(6.0)
    thick = drawn()
    assert thick != thin
    chart.bars.set_edge_width(1.0)
    assert drawn() == thin


def test_ctrl_z_after_a_bar_drag_undoes_the_drag_and_ctrl_shift_z_redoes_it(qtbot, window):
    """A dragged bar's box takes the focus with its value selected (↑ / ↓ nudge it); its line
    edit's own undo, empty, took Ctrl+Z, so the drag stayed. With nothing typed in the box,
    Undo and Redo are the document's; typing in the box, Ctrl+Z is the box's own again."""
    document = window.document
    window.actions["world_teaching"].trigger()
    document.flush()
    editor = window.arrangement.host.show_panel("editor")
    QApplication.processEvents()
    chart = editor.charts[("q", GIVEN)]
    before = document.state
    drag_bar(editor, chart, 1, float(before.teaching_q[GIVEN, 1]) / 2, 1.26)
    settle(editor)
    box = chart.boxes[1]
    assert box.hasFocus() and document.state != before
    dragged = document.state
    qtbot.keyClick(box, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(editor)
    assert document.state == before
    qtbot.keyClick(box, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    settle(editor)
    assert document.state == dragged
    qtbot.keyClicks(box.lineEdit(), "3")
    qtbot.keyClick(box, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(editor)
    assert document.state == dragged and box.lineEdit().text() != "3"
