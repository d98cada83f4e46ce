"""Sessions survive: scenario files through the File menu, recent files, and the autosave,
up to a kill -9 of the real application.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QFileSystemWatcher, Qt
from PySide6.QtWidgets import QApplication

from app.model import scenario
from app.model.lesson.data import load_lesson_data
from app.model.scenario import dumps, read_scenario, write_scenario
from app.model.state import Options
from app.model.view import initial_state
from app.paths import user_data_dir
from app.startup import build_window, make_application
from app.state import autosave as autosave_module
from app.state.autosave import (
    AUTOSAVE_NAME,
    BACKUP_NAME,
    Autosaver,
    autosave_paths,
    next_delay,
    restore,
)
from app.state.document import Document
from app.ui.actions import files as files_module
from app.ui.presentation import restore_base_style

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def data():
    return load_lesson_data()


def edited_state(data):
    """Edits in both worlds, a selection and options, away from every default."""
    state = initial_state(data)
    state = state.with_vector("k", 1, state.teaching_k[1] + 0.5)
    state = replace(state, world="dialogue", query=0, key=2, scorer="cosine",
                    positions=np.array([3.0, 1.0, 4.0, 1.0]),
                    options=Options(causal=True, heads=2, sink_logit=1.5, rope=True,
                                    heatmap_mode="weights"))
    return state.with_vector("q", 0, [0.5, -2.25])


# ---- timing policy (pure) --------------------------------------------------------------------

def test_next_delay_waits_for_a_pause_but_never_past_the_deadline() -> None:
    assert next_delay(now=10.0, first_change=10.0, last_change=10.0) == pytest.approx(0.3)
    assert next_delay(now=10.5, first_change=10.0, last_change=10.5) == pytest.approx(0.3)
    assert next_delay(now=10.9, first_change=10.0, last_change=10.9) == pytest.approx(0.1)
    assert next_delay(now=11.2, first_change=10.0, last_change=11.2) == 0.0


# ---- the autosaver ---------------------------------------------------------------------------

def test_edit_is_saved_after_a_pause_and_previous_save_becomes_backup(qtbot, data,
                                                                      tmp_path) -> None:
    document = Document(data)
    saver = Autosaver(document, tmp_path)
    with qtbot.waitSignal(saver.saved, timeout=3000):
        document.set_scorer("cosine")
    first = read_scenario(tmp_path / AUTOSAVE_NAME, initial_state(data))
    assert first.scorer == "cosine"
    assert not (tmp_path / BACKUP_NAME).exists()
    with qtbot.waitSignal(saver.saved, timeout=3000):
        document.select(query=1, key=4)
    assert read_scenario(tmp_path / AUTOSAVE_NAME, initial_state(data)).key == 4
    assert read_scenario(tmp_path / BACKUP_NAME, initial_state(data)) == first
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([AUTOSAVE_NAME, BACKUP_NAME])


def test_continuous_editing_is_still_saved_within_the_deadline(qtbot, data, tmp_path) -> None:
    """Edits every 50 ms never leave a 300 ms pause; only the 1 s deadline can save."""
    document = Document(data)
    saver = Autosaver(document, tmp_path)
    edits = iter(np.linspace(-3, 3, 60))
    done: list[float] = []

    def edit() -> None:
        value = next(edits, None)
        if value is None:
            ticker.stop()
            return
        done.append(value)
        document.set_vector("q", 3, [value, 0.0, 1.0, 0.0])

    from PySide6.QtCore import QTimer

    ticker = QTimer()
    ticker.timeout.connect(edit)
    ticker.start(50)
    with qtbot.waitSignal(saver.saved, timeout=5000):
        pass
    assert ticker.isActive(), "saved only after editing stopped: the deadline did not work"
    saved = read_scenario(tmp_path / AUTOSAVE_NAME, initial_state(data))
    assert saved.teaching_q[3][0] in done
    ticker.stop()


def test_flush_writes_now_and_skips_unchanged_state(data, tmp_path) -> None:
    document = Document(data)
    saver = Autosaver(document, tmp_path)
    assert saver.flush() is True
    assert saver.flush() is False
    assert saver.save_count == 1
    saver.mark_saved(edited_state(data))
    document.load_state(edited_state(data))
    assert saver.flush() is False, "mark_saved says the file already holds this state"


def test_write_failure_is_reported_and_retried(qtbot, data, tmp_path, monkeypatch) -> None:
    document = Document(data)
    saver = Autosaver(document, tmp_path)

    def full_disk(path: Path, text: str, **_options: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosave_module, "write_text_atomic", full_disk)
    with qtbot.waitSignal(saver.failed, timeout=3000) as failed:
        document.set_scorer("cosine")
    assert failed.args == ["No space left on device"]
    with pytest.raises(OSError):
        saver.flush()
    monkeypatch.undo()
    assert saver.flush() is True
    assert read_scenario(tmp_path / AUTOSAVE_NAME, initial_state(data)).scorer == "cosine"


def test_restore_prefers_the_autosave_then_the_backup(data, tmp_path) -> None:
    template = initial_state(data)
    main, backup = autosave_paths(tmp_path)
    assert restore(template, tmp_path).state is None
    write_scenario(template, backup)
    write_scenario(edited_state(data), main)
    found = restore(template, tmp_path)
    assert (found.state, found.from_backup) == (edited_state(data), False)
    main.write_text(dumps(edited_state(data))[:300], encoding="utf-8")  # half written
    found = restore(template, tmp_path)
    assert (found.state, found.from_backup) == (template, True)
    assert "not valid JSON" in found.problems[0].problem
    backup.write_bytes(b"\x00\xff garbage")
    found = restore(template, tmp_path)
    assert found.state is None and len(found.problems) == 2


# ---- the File menu ---------------------------------------------------------------------------

def test_save_new_document_open_restores_everything(qtbot, window, tmp_path, data) -> None:
    document = window.document
    document.load_state(edited_state(data))
    path = tmp_path / "class.attnlab.json"
    assert window.files.save_to(path)
    assert document.undo_stack.isClean()
    fresh = build_window("en")
    qtbot.addWidget(fresh)
    assert fresh.document.state != edited_state(data)
    assert fresh.files.open_path(path)
    assert fresh.document.state == edited_state(data)
    fresh.document.undo_stack.undo()
    assert fresh.document.state == initial_state(data), "opening is one undo step"


def test_save_and_open_through_the_menu_shortcuts(qtbot, window, tmp_path, monkeypatch) -> None:
    path = tmp_path / "lesson"
    monkeypatch.setattr(files_module.QFileDialog, "getSaveFileName",
                        lambda *args: (str(path), ""))
    window.document.set_scorer("neg_euclidean")
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    saved = tmp_path / "lesson.attnlab.json"
    assert saved.exists() and window.files.current_path == saved
    window.document.set_scorer("dot")
    monkeypatch.setattr(files_module.QFileDialog, "getOpenFileName",
                        lambda *args: (str(saved), ""))
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert window.document.state.scorer == "neg_euclidean"


def test_invalid_file_shows_what_and_where_and_changes_nothing(window, tmp_path, data) -> None:
    document = window.document
    document.set_scorer("cosine")
    before, steps = document.state, document.undo_stack.count()
    doc = json.loads(dumps(edited_state(data)))
    doc["vectors"]["teaching"]["K"][2][3] = "seven"
    path = tmp_path / "broken.attnlab.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert not window.files.open_path(path)
    assert document.state == before and document.undo_stack.count() == steps
    box = window.files.message
    assert box is not None and box.isVisible()
    assert "nothing was changed" in box.text()
    assert "vectors.teaching.K[2][3]" in box.informativeText()
    assert "must be a number" in box.informativeText()
    box.close()


def test_recent_files_reopen_by_shortcut_and_forget_missing_ones(qtbot, window, tmp_path,
                                                                 data) -> None:
    first, second = tmp_path / "a.attnlab.json", tmp_path / "b.attnlab.json"
    write_scenario(replace(initial_state(data), scorer="cosine"), first)
    write_scenario(replace(initial_state(data), scorer="additive"), second)
    assert window.files.open_path(first) and window.files.open_path(second)
    assert window.files.recent_files() == [str(second), str(first)]
    assert window.actions["recent_1"].text().endswith("b.attnlab.json")
    assert not window.actions["recent_3"].isVisible()
    window.document.set_scorer("dot")
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.AltModifier)
    assert window.document.state.scorer == "cosine"
    second.unlink()
    window.actions["recent_2"].trigger()
    assert window.files.recent_files() == [str(first)]
    window.files.message.close()


# ---- a whole session -------------------------------------------------------------------------

def test_next_start_restores_the_session(qtbot, window, data) -> None:
    window.files.begin_session()
    saver = window.files.start_autosave()
    assert window.files.autosave is saver
    with qtbot.waitSignal(saver.saved, timeout=3000):
        window.document.load_state(edited_state(data))
    assert window.close(), "quitting: the next start is a new session, not a second copy"
    again = build_window("en")
    qtbot.addWidget(again)
    again.files.begin_session()
    assert again.document.state == edited_state(data)
    assert not again.document.undo_stack.canUndo()
    assert "last session" in again.statusBar().currentMessage()


@pytest.mark.slow
def test_kill_9_loses_nothing_saved_and_the_next_start_restores(qtbot, data, tmp_path) -> None:
    """The real app, killed without warning once its autosave holds the edits."""
    wanted = edited_state(data)
    source = tmp_path / "edits.attnlab.json"
    write_scenario(wanted, source)
    home = Path(os.environ["ATTENTION_LAB_HOME"])
    env = dict(os.environ, ATTENTION_LAB_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    watcher = QFileSystemWatcher([str(home)])
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--lang", "en", "--scenario", str(source)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    autosave_file = home / AUTOSAVE_NAME
    try:
        for _ in range(20):  # each save is a temporary file and a rename: a few changes
            if _holds(autosave_file, wanted, data) or process.poll() is not None:
                break
            with qtbot.waitSignal(watcher.directoryChanged, timeout=15000):
                pass
        assert process.poll() is None, process.communicate()[1].decode()
        assert _holds(autosave_file, wanted, data), "the autosave never held the edits"
    finally:
        process.kill()  # SIGKILL: no handler, no flush, no goodbye
        _, stderr = process.communicate(timeout=10)
    assert b"Traceback" not in stderr, stderr.decode()
    assert home == user_data_dir()
    make_application()
    again = build_window("en")
    qtbot.addWidget(again)
    again.files.begin_session()
    assert again.document.state == wanted
    QApplication.processEvents()
    restore_base_style()


def _holds(path: Path, state, data) -> bool:
    try:
        return read_scenario(path, initial_state(data)) == state
    except scenario.ScenarioError:
        return False
