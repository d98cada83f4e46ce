"""The global exception hook: a crash is logged, the autosave flushed first, and the user sees
one translated paragraph (no traceback) in a dialog — from slots, threads and start-up alike."""

from __future__ import annotations

import io
import logging
import logging.handlers
import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app import i18n
from app.model.errors import DataError
from app.model.scenario import read_scenario
from app.model.view import initial_state
from app.startup import build_window, make_application
from app.ui import errors
from app.ui.language import apply_language

pytestmark = pytest.mark.qt_log_ignore(
    "This plugin does not support propagateSizeHints"  # offscreen platform, any dialog
)


class RecordingAutosave:
    """Stands in for the autosave: records whether a dialog already existed when flushed."""

    def __init__(self, hook: errors.ErrorHook, fail: bool = False) -> None:
        self.hook = hook
        self.fail = fail
        self.flushes: list[bool] = []

    def flush(self) -> None:
        self.flushes.append(self.hook.dialog is not None)
        if self.fail:
            raise OSError("disk full")


@pytest.fixture
def hook(qtbot):
    """A fresh hook installed for one test, then uninstalled and its dialog closed."""
    language = i18n.language()
    apply_language("en")
    installed = errors.ErrorHook()
    installed.install()
    yield installed
    installed.uninstall()
    if installed.dialog is not None:
        installed.dialog.done(0)
    apply_language(language)


def _raise_in_slot(exc: BaseException) -> None:
    def slot() -> None:
        raise exc

    QTimer.singleShot(0, slot)


def _error_dialogs() -> list[QWidget]:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, QMessageBox) and w.objectName() == "error_dialog" and w.isVisible()]


@pytest.mark.qt_no_exception_capture
def test_slot_exception_is_logged_saved_then_shown(qtbot, hook, capfd):
    autosave = RecordingAutosave(hook)
    hook.watch_autosave(autosave)
    with qtbot.waitSignal(hook.reported, timeout=3000) as blocker:
        _raise_in_slot(ZeroDivisionError("weights summed to zero"))
    message = blocker.args[0]
    assert autosave.flushes == [False], "the autosave must be flushed before the dialog appears"
    log = errors.log_path().read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in log
    assert "ZeroDivisionError: weights summed to zero" in log
    assert hook.dialog is not None and hook.dialog.isVisible()
    assert hook.dialog.text() == message
    assert "Traceback" not in message and 'File "' not in message
    assert "weights summed to zero" in message
    assert str(errors.log_path()) in message
    assert i18n.tr("reliability.saved") in message
    assert hook.dialog.windowTitle() == i18n.tr("reliability.dialog_title")
    stderr = capfd.readouterr().err
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1 and "weights summed to zero" in stderr


@pytest.mark.qt_no_exception_capture
def test_a_sessions_autosave_is_flushed_once_it_starts_and_forgotten_when_deleted(qtbot, hook):
    make_application()
    errors._installed, previous = hook, errors._installed  # the hook the app would install
    try:
        window = build_window("en")
        qtbot.addWidget(window)
        autosave = window.files.start_autosave()
        window.document.set_scorer("cosine")
        with qtbot.waitSignal(hook.reported, timeout=3000):
            _raise_in_slot(RuntimeError("boom"))
        assert read_scenario(autosave.path, initial_state(window.document.data)).scorer == "cosine"
        assert any(watched is autosave for watched in hook._autosaves)
        window.files.session.end()
        with qtbot.waitSignal(autosave.destroyed, timeout=3000):
            autosave.deleteLater()
        assert not any(watched is autosave for watched in hook._autosaves)
    finally:
        errors._installed = previous


@pytest.mark.qt_no_exception_capture
def test_dialog_speaks_the_current_language(qtbot, hook):
    apply_language("zh")
    with qtbot.waitSignal(hook.reported, timeout=3000) as blocker:
        _raise_in_slot(ValueError("坏了"))
    assert blocker.args[0].startswith(i18n.tr("reliability.unexpected", problem="ValueError: 坏了"))
    assert i18n.tr("reliability.no_autosave") in blocker.args[0]
    assert hook.dialog.windowTitle() == "实验台遇到了问题"


def test_thread_exception_reaches_the_gui_thread(qtbot, hook):
    hook.watch_autosave(autosave := RecordingAutosave(hook))

    def work() -> None:
        raise KeyError("missing-token")

    worker = threading.Thread(target=work, name="scorer-worker")
    with qtbot.waitSignal(hook.reported, timeout=3000) as blocker:
        worker.start()
        worker.join()
    assert "missing-token" in blocker.args[0]
    assert autosave.flushes == [False]
    assert hook.dialog is not None and hook.dialog.isVisible()
    assert "in thread scorer-worker: KeyError" in errors.log_path().read_text(encoding="utf-8")


def test_failed_autosave_is_reported_and_logged_but_the_dialog_still_shows(qtbot, hook):
    hook.watch_autosave(RecordingAutosave(hook, fail=True))
    with qtbot.waitSignal(hook.reported, timeout=3000) as blocker:
        hook.handle_exception(RuntimeError, RuntimeError("bad"), None)
    assert i18n.tr("reliability.not_saved") in blocker.args[0]
    assert hook.dialog is not None and hook.dialog.isVisible()
    log = errors.log_path().read_text(encoding="utf-8")
    assert "autosave flush failed" in log and "OSError: disk full" in log


def test_repeated_errors_share_one_dialog_and_all_are_logged(qtbot, hook):
    for number in range(3):
        with qtbot.waitSignal(hook.reported, timeout=3000):
            hook.handle_exception(RuntimeError, RuntimeError(f"repeat {number}"), None)
    assert len(_error_dialogs()) == 1
    assert hook.reports == 3
    log = errors.log_path().read_text(encoding="utf-8")
    assert all(f"repeat {number}" in log for number in range(3))
    hook.dialog.done(0)
    qtbot.waitUntil(lambda: not _error_dialogs(), timeout=3000)
    with qtbot.waitSignal(hook.reported, timeout=3000):
        hook.handle_exception(RuntimeError, RuntimeError("after closing"), None)
    assert "after closing" in hook.dialog.text()


def test_our_own_errors_are_shown_with_file_and_field(qtbot, hook):
    error = DataError(Path("/tmp/lesson.json"), "teaching.E[2][1]", "must be a finite number")
    with qtbot.waitSignal(hook.reported, timeout=3000) as blocker:
        hook.handle_exception(DataError, error, None)
    message = blocker.args[0]
    assert message.startswith(i18n.tr("reliability.known", problem=str(error)))
    assert "lesson.json" in message and "teaching.E[2][1]" in message
    assert "DataError" not in message


def test_keyboard_interrupt_goes_to_the_previous_hook(qtbot, hook, monkeypatch):
    seen: list[type] = []
    hook.uninstall()
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: seen.append(kind))
    hook.install()
    sys.excepthook(KeyboardInterrupt, KeyboardInterrupt(), None)
    assert seen == [KeyboardInterrupt]
    assert hook.reports == 0


def test_unwritable_log_still_shows_the_dialog(qtbot, hook, monkeypatch, tmp_path):
    folder = tmp_path / "not-a-file.log"
    folder.mkdir()
    monkeypatch.setattr(errors, "log_path", lambda: folder)
    with qtbot.waitSignal(hook.reported, timeout=3000):
        hook.handle_exception(RuntimeError, RuntimeError("no log"), None)
    assert hook.dialog is not None and "no log" in hook.dialog.text()


def test_the_log_rotates_instead_of_filling_the_disk(monkeypatch):
    monkeypatch.setattr(errors, "LOG_MAX_BYTES", 4000)
    for number in range(60):
        errors.log_error(f"entry {number}", "x" * 500)
    logs = sorted(errors.log_path().parent.glob(errors.LOG_NAME + "*"))
    assert len(logs) == 1 + errors.LOG_BACKUPS
    assert all(path.stat().st_size <= 4000 + 700 for path in logs)
    assert "entry 59" in errors.log_path().read_text(encoding="utf-8")


def test_start_up_installs_the_hook(qtbot, tmp_path, monkeypatch):
    from app.main import main

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    assert main(["--screenshot", str(tmp_path / "shot.png"), "--size", "640x480",
                 "--lang", "en"]) == 0
    installed = errors.installed()
    assert installed is not None
    assert sys.excepthook == installed.handle_exception
    assert threading.excepthook == installed.handle_thread_exception
    installed.uninstall()
    for widget in QApplication.topLevelWidgets():
        widget.close()


# ---- the dialog and the autosave never depend on the log or the terminal ----


class _ClosedStream(io.StringIO):
    """A terminal that went away: every write raises ValueError."""

    def __init__(self) -> None:
        super().__init__()
        self.close()


@pytest.mark.parametrize("stderr", ["closed", "none"])
def test_a_closed_or_missing_stderr_still_saves_and_shows_the_dialog(qtbot, hook, monkeypatch,
                                                                     stderr: str):
    autosave = RecordingAutosave(hook)
    hook.watch_autosave(autosave)
    monkeypatch.setattr(sys, "stderr", _ClosedStream() if stderr == "closed" else None)
    with qtbot.waitSignal(hook.reported, timeout=3000):
        hook.handle_exception(RuntimeError, RuntimeError("no terminal"), None)
    assert autosave.flushes == [False]
    assert hook.dialog is not None and hook.dialog.isVisible()
    assert "no terminal" in hook.dialog.text()
    assert "RuntimeError: no terminal" in errors.log_path().read_text(encoding="utf-8")


def test_a_failing_log_handler_is_swallowed_after_the_save_and_the_dialog(qtbot, hook, capfd,
                                                                          monkeypatch):
    """A log that cannot rotate (read-only folder) made logging print a traceback; the dialog
    says the log could not be written and the terminal gets one plain line."""

    def cannot_rotate(_self) -> None:
        raise PermissionError(13, "Permission denied", str(errors.log_path()))

    errors.log_error("an older entry")  # the log file and its handler exist
    for handler in logging.getLogger("attention_lab.errors").handlers:
        monkeypatch.setattr(handler, "maxBytes", 1)  # the next entry rotates
    monkeypatch.setattr(logging.handlers.RotatingFileHandler, "doRollover", cannot_rotate)
    autosave = RecordingAutosave(hook)
    hook.watch_autosave(autosave)
    capfd.readouterr()
    with qtbot.waitSignal(hook.reported, timeout=3000) as blocker:
        hook.handle_exception(RuntimeError, RuntimeError("read-only disk"), None)
    assert autosave.flushes == [False]
    assert hook.dialog is not None and hook.dialog.text() == blocker.args[0]
    assert i18n.tr("reliability.no_log") in blocker.args[0]
    err = capfd.readouterr().err
    assert "Logging error" not in err and "Traceback" not in err
    assert err.count("\n") == 1 and "read-only disk" in err


def test_the_dialog_is_up_before_the_log_is_written(qtbot, hook, monkeypatch):
    seen: list[bool] = []
    real = errors.log_error

    def recording(summary: str, details: str = ""):
        seen.append(hook.dialog is not None)
        return real(summary, details)

    monkeypatch.setattr(errors, "log_error", recording)
    with qtbot.waitSignal(hook.reported, timeout=3000):
        hook.handle_exception(RuntimeError, RuntimeError("order"), None)
    assert seen == [True]


def test_a_user_folder_that_is_a_file_still_shows_the_dialog(qtbot, hook, capfd, monkeypatch,
                                                            tmp_path):
    blocker = tmp_path / "home-file"
    blocker.write_text("")
    monkeypatch.setenv("ATTENTION_LAB_HOME", str(blocker))
    capfd.readouterr()
    with qtbot.waitSignal(hook.reported, timeout=3000) as blocker_signal:
        hook.handle_exception(RuntimeError, RuntimeError("no folder"), None)
    assert hook.dialog is not None and "no folder" in hook.dialog.text()
    assert i18n.tr("reliability.no_log") in blocker_signal.args[0]
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "no folder" in err
