"""Nothing a user made is lost by the autosave itself: a file this version cannot read is kept
aside, a second copy of the app on the same folder saves to its own files, a failing save is
reported once and retried, and a folder that cannot be written is said at start and on quit.

Tests run as root, where chmod does not make a folder read-only: a read-only folder is
simulated by the autosave's writer raising PermissionError, as the operating system would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox

from app.i18n import tr
from app.model.lesson.data import load_lesson_data
from app.model.scenario import dumps, read_scenario, write_scenario
from app.model.view import initial_state
from app.state import autosave as autosave_module
from app.state.autosave import (
    AUTOSAVE_NAME,
    BACKUP_NAME,
    Autosaver,
    FolderLock,
    aside_path,
    autosave_paths,
    lock_path,
)
from app.state.document import Document
from app.ui.actions import files as files_module
from app.ui.notices import word

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
REAL_WRITER = autosave_module.write_text_atomic
HOLDER = (
    "import sys\n"
    "from PySide6.QtCore import QLockFile\n"
    "lock = QLockFile(sys.argv[1])\n"
    "lock.setStaleLockTime(0)\n"
    "print(lock.tryLock(0), flush=True)\n"
    "sys.stdin.readline()\n"
)
"""Another copy of the app, as far as the folder can tell: it holds the lock until told."""


@pytest.fixture(scope="module")
def data():
    return load_lesson_data()


def _home() -> Path:
    return Path(os.environ["ATTENTION_LAB_HOME"])


def _edited(data):
    state = initial_state(data)
    return state.with_vector("k", 1, state.teaching_k[1] + 0.5)


def _unreadable(kind: str, data) -> bytes:
    """A file this version cannot read, three ways."""
    if kind == "garbage":
        return b"\x00\xff garbage \x9c"
    doc = json.loads(dumps(_edited(data)))
    if kind == "newer":
        doc["schema_version"] = 99  # a USB stick also used with a newer build
    else:  # shapes that no longer match data/: a fifth number in a 4-D key
        doc["vectors"]["teaching"]["K"][0].append(1.0)
    return json.dumps(doc).encode("utf-8")


def _kept(folder: Path, original: Path) -> list[Path]:
    stem = original.name[: -len(".attnlab.json")]
    return sorted(folder.glob(f"{stem}.unreadable-*.attnlab.json"))


# ---- 1. an autosave this version cannot read is kept aside ----------------------------------

@pytest.mark.parametrize("which", ["autosave", "backup"])
@pytest.mark.parametrize("kind", ["newer", "shapes", "garbage"])
def test_unreadable_autosave_is_kept_aside_and_never_overwritten(qtbot, window, data, kind,
                                                                 which) -> None:
    home = _home()
    main, backup = autosave_paths(home)
    bad = _unreadable(kind, data)
    if which == "autosave":
        main.write_bytes(bad)
        target = main
    else:
        write_scenario(_edited(data), main)
        backup.write_bytes(bad)
        target = backup
    window.files.begin_session()
    saver = window.files.start_autosave()
    kept = _kept(home, target)
    assert len(kept) == 1 and kept[0].read_bytes() == bad
    note = window.files.note
    assert note is not None and note.isVisible()
    assert str(kept[0]) in note.informativeText(), "the note must give the full new path"
    assert tr("classroom.kept_aside_status", count=1) in window.statusBar().currentMessage()
    for scorer in ("cosine", "additive"):  # two saves: the backup is rewritten too
        window.document.set_scorer(scorer)
        window.document.flush()
        saver.flush()
    assert kept[0].read_bytes() == bad, "the kept-aside file must stay byte for byte"
    assert read_scenario(main, initial_state(data)).scorer == "additive"
    assert read_scenario(backup, initial_state(data)).scorer == "cosine"
    assert _kept(home, main if target is backup else backup) == []
    note.close()


def test_kept_aside_names_never_collide(tmp_path) -> None:
    path = tmp_path / AUTOSAVE_NAME
    when = datetime(2026, 12, 1, 3, 15, 0)
    first = aside_path(path, when)
    assert first.name == "autosave.unreadable-20261201-031500.attnlab.json"
    first.write_text("kept")
    second = aside_path(path, when)
    assert second != first and second.name.endswith(".attnlab.json")
    assert aside_path(tmp_path / BACKUP_NAME, when).name == (
        "autosave.previous.unreadable-20261201-031500.attnlab.json")


# ---- 2. two copies of the app on one folder --------------------------------------------------

class _OtherCopy:
    """A process holding the folder's lock, as a first copy of the app does."""

    def __init__(self, lock: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        assert self.process.stdout.readline().strip() == "True"

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.send_signal(signal.SIGKILL)  # no goodbye: the lock file stays
        else:
            self.process.stdin.write("\n")
            self.process.stdin.flush()
        self.process.wait(timeout=30)


@pytest.fixture
def other_copy():
    copies: list[_OtherCopy] = []

    def start(lock: Path) -> _OtherCopy:
        copies.append(_OtherCopy(lock))
        return copies[-1]

    yield start
    for copy in copies:
        if copy.process.poll() is None:
            copy.process.kill()
            copy.process.wait()


def test_second_copy_keeps_its_own_autosave_and_says_so(qtbot, window, data,
                                                        other_copy) -> None:
    home = _home()
    first_main, first_backup = autosave_paths(home)
    write_scenario(_edited(data), first_main)
    first_bytes = first_main.read_bytes()
    first = other_copy(lock_path(home))
    window.files.begin_session()
    assert window.document.state == initial_state(data), "must not take over the first's work"
    saver = window.files.start_autosave()
    assert saver.path == home / "autosave.copy-2.attnlab.json"
    assert saver.path.name in window.statusBar().currentMessage()
    note = window.files.note
    assert note.isVisible() and str(saver.path) in note.informativeText()
    for scorer in ("cosine", "additive"):
        window.document.set_scorer(scorer)
        window.document.flush()
        saver.flush()
    assert first_main.read_bytes() == first_bytes and not first_backup.exists()
    assert read_scenario(saver.path, initial_state(data)).scorer == "additive"
    assert read_scenario(saver.backup_path, initial_state(data)).scorer == "cosine"
    first.stop()
    note.close()


def test_two_copies_in_one_process_get_different_files(tmp_path) -> None:
    one, two = FolderLock(tmp_path), FolderLock(tmp_path)
    assert (one.copy, two.copy) == (1, 2) and one.locked and two.locked
    assert one.paths() != two.paths()
    one.release()
    three = FolderLock(tmp_path)
    assert three.copy == 1, "a released folder belongs to the next copy"
    two.release()
    three.release()


def test_a_killed_copy_never_blocks_the_next_start(tmp_path, other_copy) -> None:
    lock = lock_path(tmp_path)
    holder = other_copy(lock)
    assert FolderLock(tmp_path).copy == 2
    holder.stop(kill=True)
    assert lock.exists(), "kill -9 leaves its lock file behind"
    claimed = FolderLock(tmp_path)
    assert claimed.copy == 1 and claimed.locked
    claimed.release()


def test_a_lock_file_naming_a_dead_process_does_not_block(tmp_path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock_path(tmp_path).write_text(f"{dead.pid}\npython\n{os.uname().nodename}\n")
    claimed = FolderLock(tmp_path)
    assert claimed.copy == 1 and claimed.locked
    claimed.release()


def test_quitting_releases_the_folder(qtbot, window) -> None:
    window.files.begin_session()
    window.files.start_autosave()
    assert window.session.folder_lock.copy == 1
    assert FolderLock(_home()).copy == 2, "held while the window is open"
    assert window.close()
    again = FolderLock(_home())
    assert again.copy == 1
    again.release()


# ---- 3. a failing save is reported once and retried ------------------------------------------

class _Attempts(QObject):
    tried = Signal()


def _failing_writer(attempts: _Attempts, error: BaseException | None):
    def write(path: Path, text: str, **options: object) -> None:
        attempts.tried.emit()
        if error is None:
            (text + "\udc80").encode("utf-8")  # exactly what writing a lone surrogate raises
        raise error

    return write


@pytest.mark.parametrize("error", [None, OSError(28, "No space left on device")],
                         ids=["lone-surrogate", "disk-full"])
def test_failing_save_is_reported_once_and_later_saves_still_happen(qtbot, data, monkeypatch,
                                                                    error) -> None:
    document = Document(data)
    saver = Autosaver(document, _home(), debounce=0.01, max_delay=0.02)
    reports: list[str] = []
    recovered: list[str] = []
    saver.failed.connect(lambda problem: reports.append(word(problem)))
    saver.recovered.connect(recovered.append)
    attempts = _Attempts()
    monkeypatch.setattr(autosave_module, "write_text_atomic", _failing_writer(attempts, error))
    for scorer in ("cosine", "additive", "neg_euclidean"):
        with qtbot.waitSignal(attempts.tried, timeout=3000):
            document.set_scorer(scorer)
    assert len(reports) == 1, "reported once, not at every change"
    assert ("UTF-8" in reports[0]) if error is None else reports[0] == error.strerror
    with pytest.raises(OSError):
        saver.flush()
    assert len(reports) == 1
    monkeypatch.setattr(autosave_module, "write_text_atomic", REAL_WRITER)
    with qtbot.waitSignal(saver.saved, timeout=3000):
        document.set_scorer("qk_norm")
    assert recovered == [str(saver.path)] and saver.problem is None
    assert read_scenario(saver.path, initial_state(data)).scorer == "qk_norm"


def test_window_shows_a_failing_autosave_until_it_works_again(qtbot, window, monkeypatch) -> None:
    window.files.begin_session()
    saver = window.files.start_autosave()
    mark = window.files.autosave_off
    assert not mark.isVisible()
    attempts = _Attempts()
    monkeypatch.setattr(autosave_module, "write_text_atomic", _failing_writer(attempts, None))
    with qtbot.waitSignal(saver.failed, timeout=3000):
        window.document.set_scorer("cosine")
    assert mark.isVisible() and "UTF-8" in mark.toolTip()
    assert tr("classroom.autosave_failed", problem=word(saver.problem)) == (
        window.statusBar().currentMessage())
    monkeypatch.setattr(autosave_module, "write_text_atomic", REAL_WRITER)
    with qtbot.waitSignal(saver.recovered, timeout=3000):
        window.document.set_scorer("additive")
    assert not mark.isVisible()


def test_save_that_cannot_encode_the_text_is_a_message_not_a_crash(window, tmp_path,
                                                                   monkeypatch) -> None:
    from app.model import scenario

    def surrogate(path: Path, text: str, **options: object) -> None:
        (text + "\udc80").encode("utf-8")

    monkeypatch.setattr(scenario, "write_text_atomic", surrogate)
    path = tmp_path / "lesson.attnlab.json"
    assert window.files.save_to(path) is False
    box = window.files.message
    assert box.isVisible() and "UTF-8" in box.informativeText()
    assert path.name in box.informativeText() and not path.exists()
    box.close()


# ---- 4. a read-only user folder ----------------------------------------------------------------

def _read_only(monkeypatch) -> None:
    def refuse(path: Path, text: str, **options: object) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(autosave_module, "write_text_atomic", refuse)


def _start_read_only(window, monkeypatch) -> None:
    """A session whose folder cannot be written, its start-up note read and closed."""
    _read_only(monkeypatch)
    window.files.begin_session()
    window.files.start_autosave()
    window.files.note.close()


def test_read_only_folder_is_said_at_start(qtbot, window, monkeypatch) -> None:
    _read_only(monkeypatch)
    window.files.begin_session()
    window.files.start_autosave()
    note = window.files.note
    assert note is not None and note.isVisible()
    assert str(_home()) in note.informativeText() and "Permission denied" in (
        note.informativeText())
    assert window.files.autosave_off.isVisible()
    assert "Permission denied" in window.statusBar().currentMessage()
    note.close()


def _quit_box(window) -> QMessageBox:
    box = window.files.quit_box
    assert box is not None and box.isVisible()
    return box


def test_quit_with_unsaved_work_in_a_read_only_folder_asks_first(qtbot, window,
                                                                 monkeypatch) -> None:
    _start_read_only(window, monkeypatch)
    window.document.set_scorer("cosine")
    window.document.flush()
    assert window.close() is False, "unsaved work: the window must ask, not close"
    box = _quit_box(window)
    assert str(_home()) in box.informativeText()
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert window.isVisible() and window.files.quit_box is None
    assert window.close() is False
    _quit_box(window).button(QMessageBox.StandardButton.Discard).click()
    assert not window.isVisible(), "Discard quits"


def test_quit_dialog_can_save_the_work_to_a_file(qtbot, window, tmp_path, data,
                                                 monkeypatch) -> None:
    _start_read_only(window, monkeypatch)
    window.document.set_scorer("additive")
    target = tmp_path / "kept.attnlab.json"
    monkeypatch.setattr(files_module.QFileDialog, "getSaveFileName",
                        lambda *args: (str(target), ""))
    assert window.close() is False
    _quit_box(window).button(QMessageBox.StandardButton.Save).click()
    assert read_scenario(target, initial_state(data)).scorer == "additive"
    assert not window.isVisible()


def test_quit_does_not_ask_when_the_work_is_autosaved(qtbot, window) -> None:
    window.files.begin_session()
    window.files.start_autosave()
    window.document.set_scorer("cosine")
    assert window.close(), "autosave works: nothing to ask"
    assert window.files.quit_box is None


def test_quit_does_not_ask_when_the_work_is_saved_to_a_file(qtbot, window, tmp_path,
                                                            monkeypatch) -> None:
    _start_read_only(window, monkeypatch)
    window.document.set_scorer("additive")
    assert window.files.save_to(tmp_path / "saved.attnlab.json")
    assert window.close(), "saved to a file: nothing to ask"
    assert window.files.quit_box is None


def test_the_last_session_becomes_the_backup_when_a_scenario_replaces_it(qtbot, data,
                                                                          tmp_path) -> None:
    """Starting from a scenario (or the lesson) writes a new autosave at once: the previous
    session, never restored into this window, must survive as the backup."""
    session = initial_state(data)
    session = session.with_vector("k", 1, session.teaching_k[1] + 0.5)
    write_scenario(session, tmp_path / AUTOSAVE_NAME)
    before = (tmp_path / AUTOSAVE_NAME).read_bytes()
    document = Document(data)  # the lesson, as after --scenario or a fresh start
    saver = Autosaver(document, tmp_path)
    assert saver.flush()
    assert (tmp_path / BACKUP_NAME).read_bytes() == before
    assert read_scenario(tmp_path / AUTOSAVE_NAME, initial_state(data)) == document.state
