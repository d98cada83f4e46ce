"""Stepping through the lesson's scenes in the real window: each scene's setup and docks, the
clicker's keys from any focused panel, hidden answers, the offer to set a scene up again, the
free layout given back, and --scene on the command line."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QWidget

from app.i18n import tr
from app.main import main
from app.model.lesson.scenes import scene_state
from app.model.view import initial_state

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def lesson(window):
    window.arrangement.open_scene(0, set_up=True)
    window.document.flush()
    return window


def _visible_docks(window) -> set[str]:
    return {name for name, dock in window.docks.items() if dock.isVisible()}


def test_every_scene_sets_up_its_world_scorer_selection_and_docks(qtbot, lesson):
    run, document = lesson.scenes.run, lesson.document
    for index, scene in enumerate(run.lesson.scenes):
        run.go(index)
        document.flush()
        QApplication.processEvents()
        state = document.state
        assert state == scene_state(scene, document.data), scene.id
        assert (state.world, state.scorer) == (scene.world, scene.scorer)
        assert _visible_docks(lesson) == {*scene.panels, "guide"}, scene.id
        stepper = lesson.panels["guide"].stepper
        assert stepper.counter.text() == f"{index + 1} / {run.count}"
        assert stepper.look.text() and "{" not in stepper.look.text()
        if scene.hides_answer:  # predict, then reveal
            assert stepper.answer.isHidden() and stepper.reveal_button.isVisible()
            assert not set(scene.answer_panels) - set(scene.panels) & _visible_docks(lesson)
            qtbot.mouseClick(stepper.reveal_button, Qt.MouseButton.LeftButton)
            QApplication.processEvents()
            assert stepper.answer.isVisible() and "{" not in stepper.answer.text()
            assert set(scene.answer_panels) <= _visible_docks(lesson)


def test_the_first_start_opens_scene_one_in_the_2d_world_with_the_stepper(open_window):
    window = open_window()
    window.arrangement.restore()  # no stored layout: a first start
    window.document.flush()
    assert window.arrangement.in_lesson and window.scenes.run.index == 0
    assert window.document.state.world == "dialogue"
    assert window.docks["guide"].isVisible()
    assert not window.document.undo_stack.canUndo()  # the setup is the start, not an edit


def _focusable_in(panel):
    """A widget of the panel that takes keyboard focus (a button, a table, a box)."""
    return next((w for w in [panel, *panel.findChildren(QWidget)]
                 if w.focusPolicy() != Qt.FocusPolicy.NoFocus and w.isVisible()), panel)


def test_clicker_keys_step_from_any_focused_panel(qtbot, lesson):
    run = lesson.scenes.run
    plain = [i for i, s in enumerate(run.lesson.scenes[:-1]) if not s.hides_answer]
    for index in plain:
        run.go(index)
        QApplication.processEvents()
        for name in (*run.scene.panels, "guide"):
            run.go(index)
            target = _focusable_in(lesson.panels[name])
            target.setFocus()
            qtbot.keyClick(target, Qt.Key.Key_PageDown)
            assert run.index == index + 1, (run.scene.id, name, type(target).__name__)
    run.go(plain[1])
    target = _focusable_in(lesson.panels[run.scene.panels[0]])
    qtbot.keyClick(target, Qt.Key.Key_PageUp)
    assert run.index == plain[1] - 1
    qtbot.keyClick(target, Qt.Key.Key_End)
    assert run.index == run.count - 1
    qtbot.keyClick(target, Qt.Key.Key_Home)
    assert run.index == 0
    qtbot.keyClick(target, Qt.Key.Key_Space)
    assert run.index == 1
    qtbot.keyClick(target, Qt.Key.Key_Space, Qt.KeyboardModifier.ShiftModifier)
    assert run.index == 0


def test_space_reveals_a_hidden_answer_before_it_moves_on(qtbot, lesson):
    run = lesson.scenes.run
    hiding = next(i for i, s in enumerate(run.lesson.scenes) if s.hides_answer)
    run.go(hiding)
    qtbot.keyClick(lesson.panels["guide"], Qt.Key.Key_Space)
    assert run.index == hiding and run.is_revealed()
    qtbot.keyClick(lesson.panels["guide"], Qt.Key.Key_Space)
    assert run.index == hiding + 1


def test_space_still_types_in_a_text_field(qtbot, lesson):
    run = lesson.scenes.run
    last = run.count - 1
    run.go(last)  # the questions scene shows the question box
    edit = lesson.panels["guide"].ask.edit
    edit.setFocus()
    qtbot.keyClicks(edit, "why not")
    qtbot.keyClick(edit, Qt.Key.Key_Space)
    qtbot.keyClicks(edit, "cosine")
    assert edit.text() == "why not cosine" and run.index == last


def test_returning_to_a_changed_scene_keeps_the_class_work_and_offers_a_setup(qtbot, lesson):
    run, document = lesson.scenes.run, lesson.document
    run.go(4)
    setup = document.state
    document.set_scorer("cosine")
    document.flush()
    run.go(5)
    run.go(4)
    document.flush()
    assert document.state.scorer == "cosine" and run.offer
    stepper = lesson.panels["guide"].stepper
    assert stepper.offer.isVisible()
    qtbot.mouseClick(stepper.set_up_button, Qt.MouseButton.LeftButton)
    document.flush()
    assert document.state == setup and not stepper.offer.isVisible()
    document.undo_stack.undo()  # the class's edit is still one step away
    document.flush()
    assert document.state.scorer == "cosine"


def test_leaving_the_lesson_gives_the_free_layout_back(qtbot, window):
    before = _visible_docks(window)
    window.actions["lesson"].trigger()
    assert window.arrangement.in_lesson and _visible_docks(window) != before
    window.actions["lesson"].trigger()
    QApplication.processEvents()
    assert not window.arrangement.in_lesson
    assert _visible_docks(window) == before
    assert not window.actions["scene_next"].isEnabled()  # PageDown is the widgets' again


def test_scene_past_the_last_exits_2_naming_the_range(capsys, tmp_path):
    assert main(["--scene", "99", "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--scene 99" in err[0] and "1 to " in err[0]
    assert not (tmp_path / "x.png").exists()


def test_scene_with_screenshot_renders_that_scene(tmp_path, qapp):
    out = tmp_path / "scene.png"
    assert main(["--scene", "4", "--screenshot", str(out), "--lang", "en"]) == 0
    assert out.stat().st_size > 0


def test_a_point_on_the_strip_goes_to_its_scene(qtbot, lesson):
    strip = lesson.panels["guide"].stepper.strip
    centre = strip.segment(3).center()
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=QPoint(int(centre.x()),
                                                                  int(centre.y())))
    assert lesson.scenes.run.index == 3


def test_space_steps_on_when_the_focused_panel_left_with_its_scene(qtbot, lesson):
    """An entry box of the 4-D editor had the focus; the next scene hides the editor and Qt
    would hand the focus to the toolbar's world list, where Space opens it."""
    run = lesson.scenes.run
    editing = next(i for i, s in enumerate(run.lesson.scenes) if s.panels == ("editor",))
    run.go(editing)
    lesson.document.flush()
    QApplication.processEvents()
    box = lesson.findChild(QWidget, "editor_q_3_0")
    box.setFocus()
    QApplication.processEvents()
    assert box.hasFocus()
    qtbot.keyClick(box, Qt.Key.Key_PageDown)  # reveals the answer, the box keeps the focus
    qtbot.keyClick(box, Qt.Key.Key_PageDown)
    assert run.index == editing + 1 and "editor" not in run.scene.panels
    focus = QApplication.focusWidget()
    assert focus in (None, lesson) or any(
        dock.isVisible() and dock.isAncestorOf(focus) for dock in lesson.docks.values()), focus
    revealed_or_next = (run.index, run.is_revealed())
    qtbot.keyClick(focus or lesson, Qt.Key.Key_Space)
    assert (run.index, run.is_revealed()) != revealed_or_next
    assert not lesson.findChild(QComboBox, "world_combo").view().isVisible()


@pytest.mark.qt_log_ignore("This plugin does not support raise")
def test_hovering_the_strip_names_each_scene_in_the_interface_language(qtbot, lesson):
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    strip = lesson.panels["guide"].stepper.strip
    scenes = lesson.scenes.run.lesson.scenes
    assert strip.tip(2) == f"Scene 3 of {len(scenes)}: {tr(scenes[2].title.key)}"
    centre = strip.segment(4).center().toPoint()
    QApplication.sendEvent(strip, QHelpEvent(QEvent.Type.ToolTip, centre,
                                             strip.mapToGlobal(centre)))
    assert tr(scenes[4].title.key) in QToolTip.text()
    QToolTip.hideText()


def test_ctrl_r_sets_the_scene_up_again_in_the_lesson_and_resets_at_the_desk(qtbot, lesson):
    """Scene 5 asks about T = 4,096: Ctrl+R there is the scene's setup, not the lesson's
    five tokens; one undo step either way."""
    run, document = lesson.scenes.run, lesson.document
    index = next(i for i, s in enumerate(run.lesson.scenes) if s.id == "fails")
    run.go(index)
    document.flush()
    scene = run.scene
    action = lesson.actions["reset_lesson"]
    assert action.text() == tr("lesson.action.set_up")
    document.set_options(shapes_T=7)
    document.set_world("dialogue")
    document.flush()
    steps = document.undo_stack.count()
    qtbot.keyClick(lesson, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    document.flush()
    assert document.state == scene_state(scene, document.data)
    assert document.undo_stack.count() == steps + 1
    lesson.arrangement.set_lesson(False)
    lesson.actions.update()
    assert action.text() == tr("action.reset_lesson")
    qtbot.keyClick(lesson, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    document.flush()
    assert document.state == initial_state(document.data)


@pytest.mark.parametrize(("width", "boxes"), [(15 * 40, True), (15 * 10, False)])
def test_a_squeezed_strip_is_one_bar_not_a_row_of_tiny_boxes(qtbot, width, boxes):
    """Beside the poll's address the stage's strip had about 11 px a scene, 27 px tall: a row
    of empty boxes that reads as missing glyphs. Squeezed, the unseen scenes share one
    outlined bar (no line between two of them); roomy, each keeps its own box."""
    from PySide6.QtGui import QColor, QPalette

    from app.ui.widgets.scene_strip import CURRENT_COLOUR, SceneStrip

    strip = SceneStrip(15, "stage_scene_strip")
    qtbot.addWidget(strip)
    strip.resize(width, 28)
    strip.set_current(2)
    assert strip.crowded is not boxes
    image = strip.grab().toImage()
    mid = strip.palette().color(QPalette.ColorRole.Mid)
    between = int(strip.segment(9).left() - 1)  # the edge shared by two unseen scenes
    column = {image.pixelColor(x, 14).rgb() for x in (between - 1, between, between + 1)}
    assert (mid.rgb() in column) is boxes
    current = strip.segment(2).center().toPoint()
    assert image.pixelColor(current) == QColor(CURRENT_COLOUR)


def test_home_starts_the_lesson_over_with_every_answer_held_back(qtbot, lesson):
    """A rehearsal revealed answers; Home before the class starts the lesson over, so the
    class sees no answer before its Reveal. Stepping back a scene (a recap) keeps them."""
    run = lesson.scenes.run
    hiding = [i for i, s in enumerate(run.lesson.scenes) if s.hides_answer]
    for index in hiding[:3]:
        run.go(index)
        run.reveal()
    run.previous()
    assert all(run.is_revealed(i) for i in hiding[:3])
    qtbot.keyClick(lesson.panels["guide"], Qt.Key.Key_Home)
    assert run.index == 0
    assert not any(run.is_revealed(i) for i in hiding)
    run.go(hiding[0])
    assert not run.is_revealed()
