"""The class's poll counts are saved with the scenario when the teacher asks, and with the
autosave: answered on phones (loopback), saved with the answers, opened in a fresh window and
shown frozen on the stage once the scene is revealed (the console has them before); the CSV
has them; a bad poll field is refused like any other and changes nothing; the autosave keeps
them through a crash and the next start hands them to the history of earlier classes."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "poll"))

from poll_helpers import Phone, device, wait_counts

from app.model.answers.tally import CSV_HEADER, SceneCounts
from app.model.scenario import dumps
from app.model.scores_csv import CSV_ENCODING
from app.paths import user_data_dir
from app.startup import build_window
from app.state.autosave import autosave_paths
from app.ui.main_window import MainWindow


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def _polled_scene(window: MainWindow) -> int:
    return next(i for i, s in enumerate(window.lesson.lesson.scenes)
                if s.poll is not None and s.poll.choices)


def _answer_on_phones(qtbot, window: MainWindow, index: int) -> tuple[int, ...]:
    """Three phones answer scene `index` over loopback; returns the counts the UI got."""
    polls = window.parts.polls
    window.arrangement.open_scene(index, set_up=True)
    polls.start_at("127.0.0.1", 0)
    phone = Phone(polls.poll)
    for who, choice in ((1, 0), (2, 1), (3, 1)):
        assert phone.answer(choice, device(who)).status == 200
    scene = window.lesson.scene
    expected = (1, 2, *([0] * (len(scene.poll.choices) - 2)))
    wait_counts(qtbot, polls.poll, scene.id, expected)
    return expected


def test_saved_counts_come_back_frozen_and_reach_the_stage_at_reveal(qtbot, open_window,
                                                                    tmp_path) -> None:
    window = open_window("en")
    index = _polled_scene(window)
    scene = window.lesson.lesson.scenes[index]
    try:
        expected = _answer_on_phones(qtbot, window, index)
    finally:
        window.parts.polls.poll.stop()
    path = tmp_path / "class.attnlab.json"
    assert window.files.save_to(path, with_answers=True)
    saved = path.read_text(encoding="utf-8")
    kept = json.loads(saved)["poll"]["scenes"]
    assert [(s["scene"], tuple(s["counts"])) for s in kept] == [(scene.id, expected)]
    assert not [n for n in (1, 2, 3) if device(n) in saved], "nothing about any student"

    fresh = open_window("en")
    poll = fresh.parts.polls.poll
    assert poll.counts(scene.id) is None
    assert fresh.files.open_path(path)
    assert not poll.running and poll.counts(scene.id).counts == expected
    assert poll.counts(scene.id).frozen, "no device was kept: nobody can change an answer"
    stage, console = fresh.arrangement.stage, fresh.arrangement.staging.console
    try:
        fresh.arrangement.open_scene(index, set_up=True)
        fresh.presentation.set_presenting(True)
        _settle()
        assert not stage.poll_bars.isVisible() and not stage.card.isVisible(), \
            "a file's counts would hint at the answer: the stage waits for the Reveal"
        assert console.poll_bars.counts.counts == expected, "the teacher sees them"
        fresh.lesson.reveal()
        _settle()
        shown = stage.poll_bars.counts
        assert stage.poll_bars.isVisible()
        assert shown is not None and shown.counts == expected and shown.frozen
        assert [row.number.text() for row in stage.poll_bars.rows] == [
            str(n) for n in expected]
        marked = [i for i, row in enumerate(stage.poll_bars.rows) if row.mark.isVisible()]
        assert marked == [scene.poll.right] and stage.poll_bars.counts.right == scene.poll.right
    finally:
        fresh.presentation.set_presenting(False)
    export = tmp_path / "class-poll.csv"
    assert fresh.parts.polls.export(export)
    text = export.read_bytes().decode(CSV_ENCODING)  # as the score export: Excel reads it
    assert export.read_bytes().startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(CSV_HEADER)
    assert [(r[0], int(r[3]), r[5]) for r in rows[1:]] == [
        (scene.id, n, "yes") for n in expected]


def test_a_bad_poll_field_is_refused_and_a_file_without_one_keeps_the_counts(window,
                                                                             tmp_path) -> None:
    poll, document = window.parts.polls.poll, window.document
    before_counts = (SceneCounts("design", ("a", "b", "c"), 0, (5, 1, 0), True),)
    poll.bring_back(before_counts)
    document.set_scorer("cosine")
    document.flush()
    state, steps = document.state, document.undo_stack.count()
    doc = json.loads(dumps(document.state, (SceneCounts("fails", ("x", "y"), 1, (2, 3),
                                                        True),)))
    doc["scorer"] = "dot"
    doc["poll"]["scenes"][0]["counts"][1] = -3
    broken = tmp_path / "broken.attnlab.json"
    broken.write_text(json.dumps(doc), encoding="utf-8")
    assert not window.files.open_path(broken)
    box = window.files.message
    assert box is not None and "nothing was changed" in box.text()
    assert box.informativeText().startswith("broken.attnlab.json: poll.scenes[0].counts[1]: ")
    assert "\n" not in box.informativeText()
    box.close()
    assert document.state == state and document.undo_stack.count() == steps
    assert poll.kept() == before_counts and window.files.current_path is None
    del doc["poll"]
    plain = tmp_path / "plain.attnlab.json"
    plain.write_text(json.dumps(doc), encoding="utf-8")
    assert window.files.open_path(plain)
    assert document.state.scorer == "dot" and poll.kept() == before_counts


def test_the_autosave_keeps_the_counts_and_the_next_start_hands_them_to_the_history(
        qtbot, open_window) -> None:
    window = open_window("en")
    window.files.begin_session()
    saver = window.files.start_autosave()
    index = _polled_scene(window)
    scene = window.lesson.lesson.scenes[index]
    try:
        window.arrangement.open_scene(index, set_up=True)
        with qtbot.waitSignal(saver.saved, timeout=5000):
            window.document.flush()
        with qtbot.waitSignal(saver.saved, timeout=5000):  # only the counts changed
            expected = _answer_on_phones(qtbot, window, index)
    finally:
        window.parts.polls.poll.stop()
    autosave, _ = autosave_paths(user_data_dir())
    kept = json.loads(autosave.read_text(encoding="utf-8"))["poll"]["scenes"]
    assert [(s["scene"], tuple(s["counts"])) for s in kept] == [(scene.id, expected)]
    assert window.close()
    again = build_window("en")
    qtbot.addWidget(again)
    again.files.begin_session()
    assert again.parts.polls.poll.counts(scene.id) is None, "a launch starts a new class"
    earlier = again.parts.answers.history.records()
    assert [(s.scene, s.counts) for r in earlier for s in r.scenes] == [(scene.id, expected)]
