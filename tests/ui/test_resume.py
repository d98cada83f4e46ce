"""A new class starts at the beginning: a start on a later day than the lesson was left asks
whether to go on at that scene or start again ("start again" the default); the same day goes
on as before, and a scene asked for by name is opened without a question."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from app.i18n import tr
from app.model.lesson.scenes import scene_state
from app.startup import build_window, make_application
from app.ui import settings as keys
from app.ui.layout.resume import asks_where_to_start
from app.ui.settings import settings

LEFT_AT = 7
"""The scene (0-based) the last class stopped at."""


def test_only_a_lesson_left_past_its_start_on_another_day_asks() -> None:
    today = date.today()
    yesterday = today - timedelta(days=1)
    assert asks_where_to_start(yesterday.isoformat(), today, LEFT_AT)
    assert not asks_where_to_start(today.isoformat(), today, LEFT_AT)
    assert not asks_where_to_start(yesterday.isoformat(), today, 0)  # nothing to choose
    assert asks_where_to_start(None, today, LEFT_AT)  # a file that never said the day
    assert asks_where_to_start("not a day", today, LEFT_AT)


@pytest.fixture
def left_in_the_lesson(qtbot):
    """A window that left the lesson at scene LEFT_AT + 1 (its settings saved), and a maker
    of the next start's window."""
    make_application()
    first = build_window("en")
    qtbot.addWidget(first)
    first.arrangement.open_scene(LEFT_AT, set_up=True)
    first.arrangement.save()
    assert settings().value(keys.LESSON_DAY) == date.today().isoformat()

    def next_start(day: date):
        store = settings()
        store.setValue(keys.LESSON_DAY, day.isoformat())
        store.sync()
        window = build_window("en")
        qtbot.addWidget(window)
        return window

    return next_start


def _answer(qtbot, button_name: str | None, seen: list[QMessageBox]) -> None:
    """Once the question is up, note it and press `button_name` (None: Enter, the default)."""

    def press() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.objectName() != "resume_question":
            return  # none asked: the test says so
        seen.append(box)
        if button_name is None:
            box.defaultButton().click()
        else:
            box.findChild(QPushButton, button_name).click()

    QTimer.singleShot(0, press)


def test_a_later_day_asks_and_start_again_is_the_default(qtbot, left_in_the_lesson) -> None:
    window = left_in_the_lesson(date.today() - timedelta(days=1))
    seen: list[QMessageBox] = []
    _answer(qtbot, None, seen)
    window.arrangement.restore()
    assert seen, "no question was asked"
    box = seen[0]
    assert box.defaultButton().objectName() == "resume_start_again"
    assert box.defaultButton().text() == tr("resume.start_again")
    assert box.text() == tr("resume.text", number=LEFT_AT + 1, count=window.lesson.count)
    assert window.arrangement.in_lesson and window.lesson.index == 0
    window.document.flush()
    assert window.document.state == scene_state(window.lesson.scene, window.document.data)


def test_a_later_day_can_go_on_where_the_class_stopped(qtbot, left_in_the_lesson) -> None:
    window = left_in_the_lesson(date.today() - timedelta(days=3))
    seen: list[QMessageBox] = []
    _answer(qtbot, "resume_continue", seen)
    window.arrangement.restore()
    assert seen
    assert window.arrangement.in_lesson and window.lesson.index == LEFT_AT


def test_the_same_day_goes_on_without_a_question(qtbot, left_in_the_lesson) -> None:
    window = left_in_the_lesson(date.today())
    seen: list[QMessageBox] = []
    _answer(qtbot, None, seen)  # a question asked anyway is answered, and noted
    window.arrangement.restore()
    assert not seen
    assert window.arrangement.in_lesson and window.lesson.index == LEFT_AT


def test_a_scene_named_at_start_is_not_asked_about(qtbot, left_in_the_lesson) -> None:
    window = left_in_the_lesson(date.today() - timedelta(days=1))
    seen: list[QMessageBox] = []
    _answer(qtbot, None, seen)
    window.arrangement.restore(ask=False)
    assert not seen
    assert window.lesson.index == LEFT_AT
