"""The class poll on the stage: P starts it and the stage shows how to join, large; the
class's answers come in as bars beside the question, none marked; Reveal freezes them and
marks the right answer; the console shows the counts too; P stops it. Loopback only."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "poll"))

from legibility import problems
from poll_helpers import Phone, device, wait_counts

from tests.ui.staging import project


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def test_the_class_answers_on_phones_and_the_stage_shows_how_it_split(qtbot, open_window):
    window = open_window("en")
    polls = window.parts.polls
    run = window.lesson
    index = next(i for i, s in enumerate(run.lesson.scenes) if s.poll is not None
                 and s.poll.choices)
    window.arrangement.open_scene(index, set_up=True)
    window.presentation.set_presenting(True)
    _settle()
    stage, console = window.arrangement.stage, window.arrangement.staging.console
    assert not stage.poll_bars.isVisible() and not stage.card.isVisible()
    try:
        address = polls.start_at("127.0.0.1", 0)
        _settle()
        assert window.actions["poll"].isChecked() and address.startswith("http://127.0.0.1:")
        assert stage.card.isVisible(), "how to join, large, when the poll starts"
        assert stage.card.room.text().replace(" ", "") == polls.poll.room
        assert stage.poll_bars.isVisible() and stage.join.isVisible()
        scene = run.scene
        phone = Phone(polls.poll)
        assert phone.answer(0, device(1)).status == 200
        assert phone.answer(1, device(2)).status == 200
        assert phone.answer(1, device(3)).status == 200
        choices = len(scene.poll.choices)
        expected = (1, 2, *([0] * (choices - 2)))
        wait_counts(qtbot, polls.poll, scene.id, expected)
        _settle()
        shown = stage.poll_bars.counts
        assert shown is not None and shown.counts == expected and not shown.frozen
        assert console.poll_bars.counts is not None
        window.slides.next()  # PageDown: the card steps aside, the answer is revealed
        _settle()
        assert not stage.card.isVisible() and stage.join.isVisible()
        qtbot.waitUntil(lambda: stage.poll_bars.counts is not None
                        and stage.poll_bars.counts.frozen, timeout=5000)
        right = stage.poll_bars.counts.right
        assert right == scene.poll.right
        assert phone.answer(0, device(4)).status == 409, "frozen on Reveal"
        window.actions["poll"].trigger()  # P asks first; Stop stops it
        polls.question.stop_button.click()
        _settle()
        assert not polls.poll.running and not stage.join.isVisible()
    finally:
        polls.poll.stop()
        window.presentation.set_presenting(False)


def test_the_join_card_leaves_the_question_and_the_bars_leave_the_panels_readable(
        qtbot, open_window):
    """At 1024×768 the card covers the panels, not the question; once it steps aside the
    bars beside the question take header room, and the build is fitted again: no panel
    scrolls."""
    window = open_window("zh")
    window.resize(1024, 768)
    polls = window.parts.polls
    run = window.lesson
    index = next(i for i, s in enumerate(run.lesson.scenes) if s.id == "three_kinds")
    window.arrangement.open_scene(index, set_up=True)
    project(window)
    _settle()
    stage = window.arrangement.stage
    try:
        polls.start_at("127.0.0.1", 0)
        qtbot.waitUntil(lambda: stage.card.isVisible(), timeout=5000)
        _settle()
        question = stage.question.geometry()
        assert not stage.card.geometry().intersects(question), "the card hides the question"
        assert stage.card.geometry().intersects(stage.body.geometry())
        window.slides.next()  # the card steps aside; the bars stay beside the question
        qtbot.waitUntil(lambda: not stage.card.isVisible(), timeout=5000)
        for _ in range(5):
            _settle()
        assert stage.poll_bars.isVisible()
        found = problems(stage)
        assert not found.get("scroll bars"), found.get("scroll bars")
    finally:
        polls.poll.stop()
        window.presentation.set_presenting(False)
