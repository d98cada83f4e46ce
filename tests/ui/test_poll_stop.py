"""P while the class poll runs asks first: Enter, Space and Esc keep it running (the default),
P again or the stop button stops it, a clicker's PageDown keeps it running and still steps
the lesson; the action's check mark always shows whether the poll runs. Loopback only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.ui.actions.poll_stop import StopQuestion
from app.ui.actions.polling import PollActions


@pytest.fixture
def polling(window) -> Iterator[PollActions]:
    polls = window.parts.polls
    polls.start_at("127.0.0.1", 0)
    yield polls
    polls.poll.stop()


def _ask(qtbot, window, polls: PollActions) -> StopQuestion:
    """P on the window, as the teacher presses it: the question comes up, the poll runs on."""
    qtbot.keyClick(window, Qt.Key.Key_P)
    question = polls.question
    assert question is not None and question.isVisible()
    assert polls.poll.running and window.actions["poll"].isChecked()
    assert question.focusWidget() is question.keep_button, "Enter and Space keep it running"
    return question


def _answered(qtbot, polls: PollActions) -> None:
    qtbot.waitUntil(lambda: polls.question is None)


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Space, Qt.Key.Key_Escape])
def test_enter_space_or_esc_keep_the_poll_running(qtbot, window, polling, key) -> None:
    address, room = polling.poll.address, polling.poll.room
    question = _ask(qtbot, window, polling)
    qtbot.keyClick(question.focusWidget(), key)
    _answered(qtbot, polling)
    assert polling.poll.running and window.actions["poll"].isChecked()
    assert (polling.poll.address, polling.poll.room) == (address, room)


def test_p_again_stops_the_poll(qtbot, window, polling) -> None:
    question = _ask(qtbot, window, polling)
    with qtbot.waitSignal(polling.poll.running_changed) as changed:
        qtbot.keyClick(question.focusWidget(), Qt.Key.Key_P)
    assert changed.args == [False]
    _answered(qtbot, polling)
    assert not polling.poll.running and not window.actions["poll"].isChecked()


def test_the_toolbar_action_asks_too_and_its_button_stops(qtbot, window, polling) -> None:
    window.actions["poll"].trigger()
    question = polling.question
    assert question is not None and polling.poll.running and window.actions["poll"].isChecked()
    assert str(polling.poll.connected) in question.informativeText()
    qtbot.mouseClick(question.stop_button, Qt.MouseButton.LeftButton)
    _answered(qtbot, polling)
    assert not polling.poll.running and not window.actions["poll"].isChecked()
    window.actions["poll"].trigger()  # P when it is off starts it, without a question
    assert polling.poll.running and polling.question is None
    assert window.actions["poll"].isChecked()


def test_a_clicker_key_keeps_the_poll_and_still_steps_the_lesson(qtbot, window,
                                                                 polling) -> None:
    run = window.lesson
    window.arrangement.open_scene(0, set_up=True)
    before = (run.index, run.is_revealed())
    question = _ask(qtbot, window, polling)
    qtbot.keyClick(question.focusWidget(), Qt.Key.Key_PageDown)
    _answered(qtbot, polling)
    assert polling.poll.running and window.actions["poll"].isChecked()
    assert (run.index, run.is_revealed()) != before, "PageDown still stepped the lesson"


def test_a_poll_that_stops_by_itself_closes_the_question(qtbot, window, polling) -> None:
    _ask(qtbot, window, polling)
    polling.poll.stop()
    _answered(qtbot, polling)
    QApplication.processEvents()
    assert not window.actions["poll"].isChecked()
