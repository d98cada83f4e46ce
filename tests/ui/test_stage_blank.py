"""B (or ".", a clicker's blank button) turns the projector black and back, as slide shows
do; a step of the lesson brings the scene back with it; the presenter console says the
projector is black; at the desk the keys do nothing."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from app.ui.presentation import restore_base_style
from tests.ui.staging import project


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def _share_black(widget) -> float:
    image = widget.grab().toImage()
    points = [(x, y) for x in range(0, image.width(), 16) for y in range(0, image.height(), 16)]
    return sum(QColor(image.pixel(x, y)).lightness() < 10 for x, y in points) / len(points)


def test_b_blanks_the_projector_and_a_step_brings_the_scene_back(qtbot, open_window) -> None:
    window = open_window("zh")
    window.resize(1024, 768)
    stage, console = window.arrangement.stage, window.arrangement.staging.console
    qtbot.keyClick(window, Qt.Key.Key_B)
    assert not stage.blanked, "at the desk B is no shortcut"
    try:
        window.arrangement.open_scene(1, set_up=True)
        project(window)
        assert _share_black(stage) < 0.5
        qtbot.keyClick(window, Qt.Key.Key_B)
        _settle()
        assert stage.blanked and window.actions["blank"].isChecked()
        assert _share_black(stage) == 1.0, "nothing of the scene shows"
        assert not console.blanked.isHidden() and console.blanked.text()
        qtbot.keyClick(window, Qt.Key.Key_B)
        _settle()
        assert not stage.blanked and console.blanked.isHidden()
        assert _share_black(stage) < 0.5
        qtbot.keyClick(window, Qt.Key.Key_Period)
        assert stage.blanked
        index, build = window.lesson.index, window.slides.build
        qtbot.keyClick(window, Qt.Key.Key_PageDown)
        _settle()
        assert not stage.blanked
        assert (window.lesson.index, window.slides.build, window.lesson.is_revealed()) != (
            index, build, False), "the step was taken"
        qtbot.keyClick(window, Qt.Key.Key_Period)
        window.presentation.set_presenting(False)
        _settle()
        assert not stage.blanked and console.blanked.isHidden()
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()


def test_the_console_steps_as_the_clicker_does_with_one_set_of_buttons(
        qtbot, open_window) -> None:
    """The console's ▶ is PageDown: the scene's next build before the lesson's next step;
    the notes it holds show no second ◀ ▶ or Reveal."""
    window = open_window("en")
    window.resize(1024, 768)
    staging = window.arrangement.staging
    try:
        window.arrangement.open_scene(0, set_up=True)
        project(window)
        guide = window.panels["guide"]
        assert guide.stepper.next_button.isHidden() and guide.stepper.previous_button.isHidden()
        assert guide.stepper.reveal_button.isHidden()
        slides, run = window.slides, window.lesson
        for index in range(run.count):  # a scene the projector shows in builds
            run.go(index)
            _settle()
            if slides.builds > 1:
                break
        assert slides.builds > 1 and slides.build == 0
        qtbot.mouseClick(staging.console.next_button, Qt.MouseButton.LeftButton)
        _settle()
        assert (run.index, slides.build) == (index, 1), "the next build first"
        qtbot.mouseClick(staging.console.previous_button, Qt.MouseButton.LeftButton)
        _settle()
        assert (run.index, slides.build) == (index, 0)
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()
    guide = window.panels["guide"]
    assert not guide.stepper.next_button.isHidden(), "at the desk the guide steps again"
