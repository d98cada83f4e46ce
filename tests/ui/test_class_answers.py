"""Answers belong to a class: a launch starts a new class, so a second window over the same
user folder shows no earlier count on any stage scene; the earlier class is in the history,
which exports as CSV; the teacher clears a scene's answers (one undo step) and starts a new
class through the real actions; a scenario carries counts only when saved with them, and
shows them only after the scene's Reveal; a broken history file is kept aside, never
written over."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QLabel

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "poll"))

from poll_helpers import Phone, device, wait_counts

from app.i18n import tr
from app.model.answers.class_history import HISTORY_CSV_HEADER, read_history
from app.model.answers.tally import SceneCounts
from app.model.scores_csv import CSV_ENCODING
from app.paths import user_data_dir
from app.startup import build_window
from app.state.autosave import autosave_paths
from app.state.class_history import HISTORY_NAME
from app.ui.main_window import MainWindow


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def _polled(window: MainWindow) -> list[int]:
    return [i for i, s in enumerate(window.lesson.lesson.scenes)
            if s.poll is not None and s.poll.choices]


def _answer(qtbot, window: MainWindow, index: int, choices: tuple[int, ...]) -> tuple[int, ...]:
    """Phones answer scene `index` over loopback (one device a choice); the counts the UI got."""
    polls = window.parts.polls
    window.arrangement.open_scene(index, set_up=True)
    if not polls.poll.running:
        polls.start_at("127.0.0.1", 0)
    phone = Phone(polls.poll)
    for who, choice in enumerate(choices, start=1):
        assert phone.answer(choice, device(who)).status == 200
    scene = window.lesson.scene
    expected = tuple(choices.count(i) for i in range(len(scene.poll.choices)))
    wait_counts(qtbot, polls.poll, scene.id, expected)
    return expected


def _stage_texts(window: MainWindow) -> list[str]:
    stage = window.arrangement.stage
    return [label.text() for label in stage.findChildren(QLabel) if label.isVisibleTo(stage)]


def _second_launch(qtbot) -> MainWindow:
    """A new window over the same user folder, started as the app starts one."""
    again = build_window("en")
    qtbot.addWidget(again)
    again.files.begin_session()
    again.files.start_autosave()
    again.show()
    qtbot.waitExposed(again)
    return again


@pytest.mark.slow
def test_a_second_launch_shows_no_earlier_count_and_keeps_them_in_the_history(
        qtbot, open_window, tmp_path) -> None:
    window = open_window("en")
    window.files.begin_session()
    saver = window.files.start_autosave()
    first, second = _polled(window)[:2]
    try:
        answered = {window.lesson.lesson.scenes[first].id: _answer(qtbot, window, first,
                                                                     (0, 1, 1, 1, 2)),
                    window.lesson.lesson.scenes[second].id: _answer(qtbot, window, second,
                                                                      (1, 0))}
        window.lesson.reveal()  # the first class saw this one's answer
        with qtbot.waitSignal(saver.saved, timeout=5000):
            window.document.flush()
    finally:
        window.parts.polls.poll.stop()
    autosave, _ = autosave_paths(user_data_dir())
    qtbot.waitUntil(lambda: len(json.loads(autosave.read_text(encoding="utf-8"))
                                .get("poll", {}).get("scenes", [])) == 2, timeout=5000)
    state = window.document.state
    session = window.parts.session  # a crash: no last save, and the lock dies with it
    session.autosave.stop()
    session.folder_lock.release()
    session.folder_lock = None

    again = _second_launch(qtbot)
    assert again.document.state == state, "crash recovery brings the teacher's state back"
    poll = again.parts.polls.poll
    assert poll.kept() == () and all(poll.counts(s) is None for s in answered)
    stage, console = again.arrangement.stage, again.arrangement.staging.console
    frozen = tr("poll.bars.frozen", count=sum(answered[next(iter(answered))]))
    try:
        again.presentation.set_presenting(True)
        for index in range(again.lesson.count):
            again.arrangement.open_scene(index, set_up=True)
            _settle()
            assert not stage.poll_bars.isVisible(), f"scene {index + 1} shows earlier bars"
            assert not console.poll_bars.isVisible()
            assert not any(frozen in text for text in _stage_texts(again))
            again.lesson.reveal()
            _settle()
            assert not stage.poll_bars.isVisible(), "not even after Reveal: another class"
    finally:
        again.presentation.set_presenting(False)
    assert "poll" not in json.loads(autosave.read_text(encoding="utf-8")), \
        "the autosave no longer carries them: a third launch finds none either"

    history = again.parts.answers.history
    classes = history.records()
    assert len(classes) == 1
    assert {s.scene: s.counts for s in classes[0].scenes} == answered
    on_disk = read_history((user_data_dir() / HISTORY_NAME).read_text(encoding="utf-8"))
    assert on_disk == classes

    dialog = again.parts.answers.open_history()
    assert dialog.isVisible() and dialog.classes.count() == 1
    table = dialog.table
    shown = {table.item(r, 0).text(): tuple(int(table.item(r, 1 + c).text())
                                            for c in range(len(answered[sid])))
             for r, sid in enumerate(answered)}
    assert sorted(shown.values()) == sorted(answered.values())
    export = tmp_path / "history.csv"
    assert again.exports.export_csv(export, again.parts.answers.csv_text())
    raw = export.read_bytes()
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(raw.decode(CSV_ENCODING))))
    assert rows[0] == list(HISTORY_CSV_HEADER)
    read_back: dict[str, list[int]] = {}
    for row in rows[1:]:
        read_back.setdefault(row[1], []).append(int(row[4]))
    assert {k: tuple(v) for k, v in read_back.items()} == answered
    dialog.close()

    assert again.close()
    third = _second_launch(qtbot)
    assert len(third.parts.answers.history.records()) == 1, "handed on once, not twice"


def test_clear_and_new_class_through_the_actions(qtbot, open_window) -> None:
    window = open_window("en")
    actions, poll = window.actions, window.parts.polls.poll
    index = _polled(window)[0]
    try:
        expected = _answer(qtbot, window, index, (0, 1, 1))
        scene = window.lesson.scene.id
        stage = window.arrangement.stage
        window.presentation.set_presenting(True)
        _settle()
        assert stage.poll_bars.counts.counts == expected
        actions.update()
        assert actions["clear_answers"].isEnabled()
        actions["clear_answers"].trigger()
        qtbot.waitUntil(lambda: poll.counts(scene) is not None
                        and poll.counts(scene).total == 0, timeout=5000)
        assert stage.poll_bars.counts.total == 0
        assert str(window.lesson.index + 1) in window.statusBar().currentMessage()
        actions["undo"].trigger()
        qtbot.waitUntil(lambda: poll.counts(scene).counts == expected, timeout=5000)
        assert poll.counts(scene).frozen, "put back, nobody can change them twice"
        actions["redo"].trigger()
        qtbot.waitUntil(lambda: poll.counts(scene).total == 0, timeout=5000)
        actions["undo"].trigger()
        qtbot.waitUntil(lambda: poll.counts(scene).counts == expected, timeout=5000)

        window.lesson.reveal()
        session = Phone(poll).get("/question").json()["session"]
        actions["new_class"].trigger()
        qtbot.waitUntil(lambda: poll.counts(scene) is not None
                        and poll.counts(scene).total == 0, timeout=5000)
        qtbot.waitUntil(lambda: Phone(poll).get("/question").json()["session"] != session,
                        timeout=5000)  # the phones forget the choice they tapped before
        assert poll.kept() == ()
        assert not window.lesson.is_revealed(), "the new class has not seen the answer"
        records = window.parts.answers.history.records()
        assert [s.counts for r in records for s in r.scenes] == [expected]
        phone = Phone(poll)
        assert phone.answer(2, device(9)).status == 200, "the new class answers at once"
        counts = (0, 0, 1, *([0] * (len(window.lesson.scene.poll.choices) - 3)))
        wait_counts(qtbot, poll, scene, counts)
    finally:
        window.presentation.set_presenting(False)
        poll.stop()
    actions.update()
    window.arrangement.open_scene(_polled(window)[1], set_up=True)
    actions.update()
    assert not actions["clear_answers"].isEnabled(), "nothing answered here to clear"


def test_the_shortcuts_are_declared_once_and_clash_with_none(window) -> None:
    seen: dict[str, str] = {}
    for name, action in window.actions.items():
        for key in action.shortcuts():
            text = key.toString()
            assert text not in seen, f"{text}: {seen.get(text)} and {name}"
            seen[text] = name
    for name in ("clear_answers", "new_class", "answer_history", "save_with_answers"):
        assert window.actions[name].shortcuts(), name


def test_a_scenario_keeps_counts_only_when_saved_with_them_and_shows_them_after_reveal(
        qtbot, open_window, tmp_path) -> None:
    window = open_window("en")
    index = _polled(window)[0]
    try:
        expected = _answer(qtbot, window, index, (1, 1, 0))
    finally:
        window.parts.polls.poll.stop()
    scene = window.lesson.scene
    plain, kept = tmp_path / "plain.attnlab.json", tmp_path / "kept.attnlab.json"
    assert window.files.save_to(plain)
    assert "poll" not in json.loads(plain.read_text(encoding="utf-8"))
    assert window.files.save_to(kept, with_answers=True)
    assert [tuple(s["counts"]) for s in json.loads(kept.read_text(encoding="utf-8"))
            ["poll"]["scenes"]] == [expected]
    assert window.files.save(), "Save keeps writing the answers the file was saved with"
    assert "poll" in json.loads(kept.read_text(encoding="utf-8"))

    fresh = open_window("en")
    poll = fresh.parts.polls.poll
    assert fresh.files.open_path(plain) and poll.kept() == ()
    assert fresh.files.open_path(kept) and poll.counts(scene.id).counts == expected
    stage = fresh.arrangement.stage
    try:
        fresh.arrangement.open_scene(index, set_up=True)
        fresh.presentation.set_presenting(True)
        _settle()
        assert not stage.poll_bars.isVisible(), "a scenario's counts wait for the Reveal"
        frozen = tr("poll.bars.frozen", count=str(sum(expected)))
        assert not any(frozen in text for text in _stage_texts(fresh))
        fresh.lesson.reveal()
        _settle()
        assert stage.poll_bars.isVisible()
        assert stage.poll_bars.counts.counts == expected
        assert [i for i, row in enumerate(stage.poll_bars.rows)
                if row.mark.isVisible()] == [scene.poll.right]
    finally:
        fresh.presentation.set_presenting(False)


def test_opening_a_scenario_with_counts_hands_the_class_to_the_history(window,
                                                                        tmp_path) -> None:
    poll, files = window.parts.polls.poll, window.files
    ours = (SceneCounts("design", ("a", "b"), 0, (4, 2), True),)
    poll.bring_back(ours)
    theirs = tmp_path / "theirs.attnlab.json"
    window.session.document.flush()
    from app.model.scenario import write_scenario
    write_scenario(window.document.state, theirs,
                   (SceneCounts("design", ("a", "b"), 0, (1, 1), True),))
    assert files.open_path(theirs)
    assert [r.scenes for r in window.parts.answers.history.records()] == [ours]


def test_a_broken_history_file_is_kept_aside_and_said(qtbot, open_window) -> None:
    path = user_data_dir() / HISTORY_NAME
    broken = b'{"version": 1, "classes": [{"when": 3'
    path.write_bytes(broken)
    window = open_window("en")
    answers = window.parts.answers
    assert answers.history.records() == ()
    aside = [p for p in user_data_dir().glob("class-history.unreadable-*.json")]
    assert [p.read_bytes() for p in aside] == [broken], "kept byte for byte"
    box = answers.message
    assert box is not None and box.text() == tr("answers.history.trouble")
    assert str(aside[0]) in box.informativeText()
    box.close()
    window.parts.polls.poll.bring_back((SceneCounts("design", ("a", "b"), 0, (3, 1), True),))
    assert answers.new_class()
    assert len(read_history(path.read_text(encoding="utf-8"))) == 1
    assert aside[0].read_bytes() == broken
