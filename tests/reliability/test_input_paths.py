"""Every way input reaches the app — typed entries, scenario files, data files, command-line
arguments — gets a clear message naming what and where, changes nothing, and never shows a
traceback. Bad input goes through the real paths: the editor's boxes, the document, the
scenario loader and the window's open action, the data loaders, and `app.main.main`."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from bad_inputs import (
    DATA_CASES,
    LOADERS,
    SCENARIO_CASES,
    TEMPLATE,
    as_json,
    assert_names_what_and_where,
    doc_with,
    original_doc,
    refuse_reading,
    special_files,
    write_case,
    write_data,
)
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox

from app.model.errors import DataError, ScenarioError
from app.model.lesson import data as lesson_data
from app.model.scenario import POSITION_LIMIT, dumps, read_scenario
from app.model.state import EDIT_LIMIT
from app.model.view import compute_view, initial_state
from app.ui.language import apply_language
from app.ui.notices import word
from app.ui.widgets.number_box import NumberNote

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


# ---- typed vector entries ---------------------------------------------------------------------

def _type_into(qtbot, box, text: str) -> None:
    box.setFocus()
    box.selectAll()
    qtbot.keyClick(box, Qt.Key.Key_Delete)
    if text:
        qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e308", "abc", "", "1e", ".", "-"])
def test_editor_box_refuses_bad_text_and_changes_nothing(qtbot, window, text):
    editor = window.panels["editor"]
    window.document.set_world("teaching")
    window.document.flush()
    box = editor.charts[("q", 3)].boxes[1]
    before, steps = window.document.state, window.document.undo_stack.count()
    _type_into(qtbot, box, text)
    window.document.flush()
    qtbot.keyClick(box, Qt.Key.Key_Tab)
    window.document.flush()
    assert window.document.state == before, f"typing {text!r} changed the state"
    assert window.document.undo_stack.count() == steps
    assert box.value() == pytest.approx(float(before.teaching_q[3][1]), abs=0.005)
    note = NumberNote.near(box)
    assert note is not None and note.isVisible() and note.box is box
    assert "Traceback" not in note.text()


def test_editor_box_accepts_a_good_number_as_a_positive_control(qtbot, window):
    window.document.set_world("teaching")
    box = window.panels["editor"].charts[("q", 3)].boxes[1]
    _type_into(qtbot, box, "42.5")
    window.document.flush()
    assert window.document.state.teaching_q[3][1] == 42.5


def test_editor_box_out_of_range_is_refused_with_a_visible_note(qtbot, window):
    window.document.set_world("teaching")
    editor = window.panels["editor"]
    box = editor.charts[("k", 0)].boxes[0]
    before = window.document.state
    _type_into(qtbot, box, "250")
    window.document.flush()
    assert window.document.state == before
    note = NumberNote.near(box)
    assert note.isVisible() and note.isVisibleTo(editor)
    assert "250" in note.text() and f"{EDIT_LIMIT:g}" in note.text()


BAD_VECTORS = [
    ("q", 3, [math.nan, 0, 0, 0], "finite"),
    ("k", 1, [0, math.inf, 0, 0], "finite"),
    ("k", 1, [0, 0, -math.inf, 0], "finite"),
    ("q", 3, "text", "not a number"),
    ("q", 3, "", "not a number"),
    ("q", 3, None, "q[3]"),
    ("q", 3, {"x": 1}, "not a number"),
    ("q", 3, [1.0, 2.0], "q[3]"),
    ("q", 3, [[1.0, 2.0, 3.0, 4.0]], "q[3]"),
    ("k", 99, [1.0, 2.0, 3.0, 4.0], "k[99]"),
    ("k", -1, [1.0, 2.0, 3.0, 4.0], "k[-1]"),
    ("v", 0, [1.0, 2.0, 3.0, 4.0], "v[0]"),
]


@pytest.mark.parametrize(("role", "index", "values", "named"), BAD_VECTORS)
def test_document_refuses_bad_vectors_with_a_notice(qtbot, window, role, index, values, named):
    document = window.document
    document.set_world("teaching")
    document.flush()
    before, steps = document.state, document.undo_stack.count()
    with qtbot.waitSignal(document.notice, timeout=1000) as blocker:
        assert document.set_vector(role, index, values) is False
    assert named in word(blocker.args[0])
    assert document.state == before and document.undo_stack.count() == steps
    assert window.statusBar().currentMessage() == word(blocker.args[0])


def test_document_clamps_huge_values_and_says_so(qtbot, window):
    document = window.document
    document.set_world("teaching")
    with qtbot.waitSignal(document.notice, timeout=1000) as blocker:
        assert document.set_vector("k", 2, [1e308, -1e308, 5.0, -EDIT_LIMIT * 3])
    assert f"{EDIT_LIMIT:g}" in word(blocker.args[0])
    assert list(document.state.teaching_k[2]) == [EDIT_LIMIT, -EDIT_LIMIT, 5.0, -EDIT_LIMIT]
    assert window.statusBar().currentMessage() == word(blocker.args[0])
    assert np.all(np.isfinite(document.view.weights))


@pytest.mark.parametrize(("call", "args"), [
    ("set_world", ("mars",)),
    ("set_scorer", ("telepathy",)),
    ("select", (99, None)),
    ("select", (None, -3)),
    ("set_positions", ([1, 2],)),
    ("set_positions", ([0, math.nan, 1, 2],)),
    ("set_positions", ([0, 1, 2, 10 * POSITION_LIMIT],)),  # a scenario could not hold it
    ("set_options", ({"no_such_option": 1},)),
    ("set_options", ({"sink_logit": math.nan},)),
    ("set_options", ({"sink_logit": math.inf},)),
])
def test_other_document_edits_refuse_bad_values(qtbot, window, call, args):
    document = window.document
    before, steps = document.state, document.undo_stack.count()
    method = getattr(document, call)
    with qtbot.waitSignal(document.notice, timeout=1000):
        if call == "set_options":
            method(**args[0])
        else:
            method(*args)
    document.flush()
    assert document.state == before and document.undo_stack.count() == steps


# ---- scenario files ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SCENARIO_CASES))
def test_bad_scenario_raises_a_scenario_error_naming_file_and_field(tmp_path, name):
    path = write_case(tmp_path, name)
    with pytest.raises(ScenarioError) as caught:
        read_scenario(path, TEMPLATE)
    assert_names_what_and_where(caught.value, path, SCENARIO_CASES[name][1])


def test_special_scenario_files_raise_scenario_errors(tmp_path):
    for name, (path, where) in special_files(tmp_path).items():
        with pytest.raises(ScenarioError) as caught:
            read_scenario(path, TEMPLATE)
        assert_names_what_and_where(caught.value, path, where)
        assert caught.value.field == "(file)", name


def test_unreadable_scenario_says_permission(tmp_path, monkeypatch):
    path = tmp_path / "locked.attnlab.json"
    path.write_text(dumps(TEMPLATE), encoding="utf-8")
    refuse_reading(monkeypatch, path)
    with pytest.raises(ScenarioError) as caught:
        read_scenario(path, TEMPLATE)
    assert_names_what_and_where(caught.value, path, "permission")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root reads files whatever their mode; covered by the monkeypatch test")
def test_unreadable_scenario_by_file_mode(tmp_path):
    path = tmp_path / "locked.attnlab.json"
    path.write_text(dumps(TEMPLATE), encoding="utf-8")
    path.chmod(0)
    with pytest.raises(ScenarioError) as caught:
        read_scenario(path, TEMPLATE)
    assert_names_what_and_where(caught.value, path, "permission")


def _assert_open_refused(window, path: Path, where: str) -> None:
    document = window.document
    document.set_vector("q", 3, [1.5, 2.5, 3.5, 4.5])
    document.flush()
    before, steps = document.state, document.undo_stack.count()
    assert window.files.open_path(path) is False
    document.flush()
    assert document.state == before and document.undo_stack.count() == steps
    box = window.files.message
    assert box is not None and box.isVisible()
    shown = f"{box.text()} {box.informativeText()}"
    assert path.name in shown and where in shown and "Traceback" not in shown
    box.done(0)


@pytest.mark.parametrize("name", ["not_json", "newer_version", "extra_field", "nan",
                                  "zero_tokens", "thousands_of_tokens", "wrong_width"])
def test_window_open_refuses_bad_scenarios_and_keeps_the_state(qtbot, window, tmp_path, name):
    _assert_open_refused(window, write_case(tmp_path, name), SCENARIO_CASES[name][1])


def test_window_open_refuses_special_files(qtbot, window, tmp_path, monkeypatch):
    for path, where in special_files(tmp_path).values():
        _assert_open_refused(window, path, where)
    locked = tmp_path / "locked.attnlab.json"
    locked.write_text(dumps(TEMPLATE), encoding="utf-8")
    refuse_reading(monkeypatch, locked)
    _assert_open_refused(window, locked, "permission")


def test_window_open_accepts_a_good_file_as_a_positive_control(qtbot, window, tmp_path):
    path = tmp_path / "good.attnlab.json"
    good = doc_with(world="dialogue", scorer="cosine", selection={"query": 0, "key": 1})
    path.write_text(as_json(good), encoding="utf-8")
    assert window.files.open_path(path) is True
    assert window.document.state.scorer == "cosine"


# ---- data files -------------------------------------------------------------------------------


@pytest.fixture
def data_dir(tmp_path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    for name in LOADERS:
        shutil.copy(lesson_data.DEFAULT_DATA_DIR / name, folder / name)
    return folder


@pytest.mark.parametrize(("name", "case", "content", "where"), DATA_CASES,
                         ids=[f"{c[0].split('.')[0]}-{c[1]}" for c in DATA_CASES])
def test_bad_data_file_raises_a_data_error_naming_file_and_field(data_dir, name, case, content,
                                                                 where):
    path = write_data(data_dir, name, content)
    with pytest.raises(DataError) as caught:
        LOADERS[name](data_dir)
    assert_names_what_and_where(caught.value, path, where)


def test_a_smaller_teaching_world_still_starts(data_dir):
    """Three tokens are valid data; the app must start on them (or refuse them by name)."""
    doc = original_doc(lesson_data.TEACHING_FILE)
    width = len(doc["E"][0])
    doc["tokens"] = doc["tokens"][:3]
    doc["E"] = [[1.0 if i == j else 0.0 for j in range(width)] for i in range(3)]
    doc["E"][2][width - 1] = 1.0
    doc["roles"] = {"giver": 0, "object": 1, "query": 2, "answer": 1}
    write_data(data_dir, lesson_data.TEACHING_FILE, doc)
    try:
        data = lesson_data.load_lesson_data(data_dir)
    except DataError as error:
        assert error.path.name == lesson_data.TEACHING_FILE
        return
    state = initial_state(data)
    for world in ("teaching", "dialogue", "teaching"):
        state = state.with_world(world)
        view = compute_view(state, data)
        assert view.query_names[state.query] and view.key_names[state.key]


@pytest.mark.parametrize("name", list(LOADERS))
def test_extra_fields_in_data_files_are_harmless(data_dir, name):
    """Teachers may leave notes in a data file: an unknown field loads the same data or is
    refused by name, never anything in between."""
    write_data(data_dir, name, {**original_doc(name), "teacher_note": [1, {"x": None}]})
    try:
        loaded = LOADERS[name](data_dir)
    except DataError as error:
        assert "teacher_note" in str(error)
    else:
        assert type(loaded) is type(LOADERS[name]())


@pytest.mark.parametrize("name", list(LOADERS))
def test_special_data_files(data_dir, name, monkeypatch):
    path = data_dir / name
    path.unlink()
    with pytest.raises(DataError) as caught:
        LOADERS[name](data_dir)
    assert_names_what_and_where(caught.value, path, "not found")
    path.mkdir()
    with pytest.raises(DataError) as caught:
        LOADERS[name](data_dir)
    assert_names_what_and_where(caught.value, path, "folder")
    path.rmdir()
    with path.open("wb") as stream:
        stream.write(b'{"schema_version": 1, "about": "')
        stream.write(b"x" * (50 * 1024 * 1024))
        stream.write(b'"}')
    with pytest.raises(DataError) as caught:
        LOADERS[name](data_dir)
    assert_names_what_and_where(caught.value, path, "")
    shutil.copy(lesson_data.DEFAULT_DATA_DIR / name, path)
    refuse_reading(monkeypatch, path)
    with pytest.raises(DataError) as caught:
        LOADERS[name](data_dir)
    assert_names_what_and_where(caught.value, path, "ermission")


def test_data_at_every_limit_builds_the_main_window(every_dock_window, data_dir):
    """What the loaders accept, every widget and formatter can show — the
    shortest vector, the largest context a spin box holds, the most heads, the farthest
    position, the largest claim — and the window builds and paints on it."""
    from app import i18n
    from app.model.lesson.data import MIN_LENGTH
    from app.model.modelconfig import CLAIM_LIMIT, MAX_CONTEXT
    from app.model.state import MAX_HEADS

    dialogue = original_doc(lesson_data.DIALOGUE_FILE)
    dialogue["query"]["vector"] = [MIN_LENGTH, 0]
    dialogue["positions"] = [POSITION_LIMIT, 0, 1, 2]
    write_data(data_dir, lesson_data.DIALOGUE_FILE, dialogue)
    teaching = original_doc(lesson_data.TEACHING_FILE)
    teaching["n_heads"] = MAX_HEADS
    write_data(data_dir, lesson_data.TEACHING_FILE, teaching)
    write_data(data_dir, lesson_data.ANCHOR_FILE,
               {**original_doc(lesson_data.ANCHOR_FILE), "max_position_embeddings": MAX_CONTEXT})
    frontier = original_doc(lesson_data.FRONTIER_FILE)
    frontier["claims"][0]["value"] = -(CLAIM_LIMIT - 0.125)
    write_data(data_dir, lesson_data.FRONTIER_FILE, frontier)

    language = i18n.language()
    apply_language("en")
    try:
        window = every_dock_window(data_dir)
        assert not window.grab().isNull()
        shapes = window.findChild(QSpinBox, "shapes_T_spin")
        assert shapes.maximum() == MAX_CONTEXT
        position = window.findChild(QSpinBox, "timeline_position_0")
        assert position.maximum() >= POSITION_LIMIT
        timeline = window.panels["timeline"]
        timeline.choose_stage("rope")
        window.document.flush()
        timeline.catch_up()  # a panel in a tab behind another refreshes when shown
        assert window.document.state.positions[0] == POSITION_LIMIT
        assert position.value() == POSITION_LIMIT  # shown as it is, not clamped to the box
        window.document.set_options(heads=MAX_HEADS)
        assert window.document.state.options.heads == MAX_HEADS
    finally:
        apply_language(language)


# ---- command line -----------------------------------------------------------------------------

def _main_fails_with_one_line(capsys, argv: list[str]) -> str:
    from app.main import main

    try:
        code = main(argv)
    except SystemExit as leaving:
        code = leaving.code
    captured = capsys.readouterr()
    assert code == 2, (argv, captured.err)
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    assert lines[0].startswith("attention-lab: error: ")
    return lines[0]


@pytest.mark.parametrize(("argv", "named"), [
    (["--no-such-flag"], "--no-such-flag"),
    (["--lang", "fr"], "fr"),
    (["--size", "huge", "--screenshot", "x.png"], "huge"),
    (["--size", "10x10", "--screenshot", "x.png"], "10x10"),
    (["--size", "1280x", "--screenshot", "x.png"], "1280x"),
    (["--screenshot"], "--screenshot"),
    (["--screenshot", "shot.gif"], "shot.gif"),
    (["--panel", "heatmap"], "--panel"),
    (["stray-positional"], "stray-positional"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, argv, named):
    assert named in _main_fails_with_one_line(capsys, argv)


def test_bad_scenario_argument_exits_2_naming_the_file(qtbot, capsys, tmp_path):
    path = write_case(tmp_path, "nan")
    line = _main_fails_with_one_line(capsys, ["--scenario", str(path), "--screenshot",
                                              str(tmp_path / "x.png")])
    assert path.name in line and "vectors.dialogue.q[0]" in line
    missing = tmp_path / "gone.attnlab.json"
    assert missing.name in _main_fails_with_one_line(
        capsys, ["--scenario", str(missing), "--screenshot", str(tmp_path / "x.png")])


def test_unknown_panel_and_unwritable_screenshot_exit_2(qtbot, capsys, tmp_path):
    line = _main_fails_with_one_line(
        capsys, ["--screenshot", str(tmp_path / "x.png"), "--panel", "nope"])
    assert "nope" in line
    folder = tmp_path / "taken.png"
    folder.mkdir()
    assert "taken.png" in _main_fails_with_one_line(capsys, ["--screenshot", str(folder)])


def test_broken_data_folder_exits_2_naming_the_file(qtbot, capsys, tmp_path, data_dir,
                                                    monkeypatch):
    write_data(data_dir, lesson_data.TEACHING_FILE, "{ broken")
    monkeypatch.setattr(lesson_data, "DEFAULT_DATA_DIR", data_dir)
    line = _main_fails_with_one_line(capsys, ["--screenshot", str(tmp_path / "x.png")])
    assert lesson_data.TEACHING_FILE in line and "line 1 column 3" in line
