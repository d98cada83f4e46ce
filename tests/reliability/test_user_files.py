"""Files the user owns keep what the user gave them, and the app's own files stay private.

A saved scenario written over an existing file keeps its permissions and, when it is a symbolic
link, stays a link whose target gets the content. The autosave is the app's own: mode 0600, and
a link planted at its path is replaced by a regular file (the link's target is never written).
A question log with an impossible date typed by hand no longer stops the app from starting.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.model import atomic
from app.model.atomic import write_bytes_atomic, write_text_atomic
from app.model.lesson.data import load_lesson_data
from app.model.questions import LOG_NAME
from app.model.scenario import write_scenario
from app.model.view import initial_state
from app.paths import user_data_dir
from app.state.autosave import Autosaver
from app.state.document import Document

posix_only = pytest.mark.skipif(sys.platform == "win32",
                                reason="POSIX modes and symlinks (links need privileges)")


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(scope="module")
def lesson():
    return load_lesson_data()


@posix_only
def test_saving_over_a_scenario_keeps_its_mode(tmp_path: Path, lesson) -> None:
    path = tmp_path / "lesson.attnlab.json"
    path.write_text("{}", encoding="utf-8")
    os.chmod(path, 0o644)
    write_scenario(initial_state(lesson), path)
    assert _mode(path) == 0o644
    assert path.read_text(encoding="utf-8") != "{}"


@posix_only
def test_a_new_user_file_gets_the_usual_mode_not_0600(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_bytes_atomic(tmp_path / "new.csv", b"x")
    finally:
        os.umask(umask)
    assert _mode(tmp_path / "new.csv") == 0o644


@posix_only
def test_saving_to_a_link_writes_its_target_and_keeps_the_link(tmp_path: Path, lesson) -> None:
    folder = tmp_path / "real"
    folder.mkdir()
    target = folder / "shared.attnlab.json"
    target.write_text("{}", encoding="utf-8")
    os.chmod(target, 0o640)
    link = tmp_path / "lesson.attnlab.json"
    link.symlink_to(target)
    write_scenario(initial_state(lesson), link)
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text(encoding="utf-8").startswith("{\n")
    assert _mode(target) == 0o640
    assert sorted(p.name for p in folder.iterdir()) == ["shared.attnlab.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lesson.attnlab.json", "real"]


@posix_only
def test_the_autosave_never_follows_a_link_and_stays_private(qtbot, tmp_path: Path,
                                                              lesson) -> None:
    """Chosen behaviour: a link at the autosave's path is replaced by a regular file."""
    document = Document(lesson)
    saver = Autosaver(document, tmp_path)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("someone else's file\n", encoding="utf-8")
    saver.path.symlink_to(elsewhere)
    with qtbot.waitSignal(saver.saved, timeout=3000):
        document.set_scorer("cosine")
    saver.stop()
    assert elsewhere.read_text(encoding="utf-8") == "someone else's file\n"
    assert not saver.path.is_symlink() and saver.path.is_file()
    assert '"cosine"' in saver.path.read_text(encoding="utf-8")
    assert _mode(saver.path) == 0o600


@posix_only
def test_a_settings_file_that_is_a_link_is_never_written_through(qapp, tmp_path: Path) -> None:
    """Chosen behaviour, as the autosave's: the link becomes a regular file of its own that
    starts with the settings the link pointed to; the target is never rewritten."""
    from app.ui import settings as keys
    from app.ui.settings import settings, settings_path, settings_problem

    elsewhere = tmp_path / "elsewhere.ini"
    original = "[ui]\nlanguage=en\n# someone else's file, outside the user folder\n"
    elsewhere.write_text(original, encoding="utf-8")
    path = settings_path()
    path.symlink_to(elsewhere)
    store = settings()
    assert store.value(keys.LANGUAGE) == "en"  # what the link held is kept
    store.setValue(keys.LANGUAGE, "zh")
    store.sync()
    assert elsewhere.read_text(encoding="utf-8") == original
    assert not path.is_symlink() and "language=zh" in path.read_text(encoding="utf-8")
    assert settings_problem() is None and _mode(path) == 0o600


@posix_only
def test_a_settings_link_in_a_folder_that_cannot_be_written_is_not_used(
        qapp, tmp_path: Path, monkeypatch) -> None:
    from app.ui import settings as settings_module

    elsewhere = tmp_path / "elsewhere.ini"
    elsewhere.write_text("[ui]\nlanguage=en\n", encoding="utf-8")
    path = settings_module.settings_path()
    path.symlink_to(elsewhere)

    def read_only(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(settings_module, "write_bytes_atomic", read_only)
    store = settings_module.settings()
    store.setValue("ui/language", "zh")
    store.sync()
    assert elsewhere.read_text(encoding="utf-8") == "[ui]\nlanguage=en\n"
    assert "is a link" in settings_module.settings_problem()


def test_a_failed_write_keeps_the_old_bytes_and_leaves_no_temp(tmp_path: Path,
                                                               monkeypatch) -> None:
    path = tmp_path / "kept.txt"
    path.write_bytes(b"old")

    def full_disk(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    for write in (lambda: write_bytes_atomic(path, b"new"),
                  lambda: write_text_atomic(path, "new", private=True)):
        with pytest.raises(OSError, match="No space"):
            write()
        assert path.read_bytes() == b"old"
        assert os.listdir(tmp_path) == ["kept.txt"]


def test_the_window_starts_with_an_impossible_date_in_the_question_log(qtbot) -> None:
    from app.startup import build_window, make_application

    log = user_data_dir() / LOG_NAME
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("# log\n\n## 2026-13-45 99:00:00\n\n> typed by hand\n\n"
                   "## 2025-03-01 09:30:00\n\n> why the dot product?\n", encoding="utf-8")
    make_application()
    window = build_window("en")
    qtbot.addWidget(window)
    QApplication.processEvents()
    listing = window.panels["guide"].ask.listing.text()
    assert "why the dot product?" in listing
    assert "2026-13-45 99:00:00" in listing and LOG_NAME in listing
    window.close()
