"""Owns the last line of defence: an uncaught exception is logged, the autosave is flushed,
and the user sees one calm translated paragraph instead of a traceback.

Installed once at start-up (`install()`), it replaces `sys.excepthook` (which PySide6 also
calls for exceptions escaping slots and event handlers) and `threading.excepthook`. Thread
errors are logged in their thread and shown on the GUI thread through a queued signal.
"""

from __future__ import annotations

import functools
import logging
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.i18n import tr
from app.model.errors import AttentionLabError
from app.paths import ensure_log_dir
from app.ui.fonts import STRONG, emphasize

if TYPE_CHECKING:
    import logging.handlers

LOG_NAME = "attention-lab.log"
LOG_MAX_BYTES = 1_000_000
LOG_BACKUPS = 3
"""A crash loop fills at most (1 + LOG_BACKUPS) MB of a student's disk."""

_LOGGER = logging.getLogger("attention_lab.errors")
_LOGGER.propagate = False
_LOGGER.setLevel(logging.INFO)
_log_lock = threading.Lock()


class Flushable(Protocol):
    """Anything that can write its pending state to disk now (the autosave)."""

    def flush(self) -> object: ...


def log_path() -> Path:
    """The rotating error log, in the app's log folder (raises OSError when that folder
    cannot be made)."""
    return ensure_log_dir() / LOG_NAME


def _log_location() -> str | None:
    """Where the log is, for the dialog and the terminal; None when there can be no log."""
    try:
        return str(log_path())
    except Exception:  # a file where the folder should be, a read-only disk, …
        return None


@functools.cache
def _handler_class() -> type[logging.handlers.RotatingFileHandler]:
    """The log's handler class, made when the first error is logged (logging's handlers
    module and the queue it brings are no part of a start)."""
    import logging.handlers

    class LogHandler(logging.handlers.RotatingFileHandler):
        """A rotating file handler that lets its caller see a failed write.

        logging's own handler prints "--- Logging error ---" and a traceback to stderr
        instead, which is noise on a terminal and raises when stderr is closed.
        """

        def handleError(self, record: logging.LogRecord) -> None:  # logging names it so
            raise

    return LogHandler


def _file_handler() -> logging.FileHandler:
    """The handler for the current data folder (tests and kiosks move it via the environment)."""
    path = log_path()
    for handler in _LOGGER.handlers:
        if isinstance(handler, logging.FileHandler) and Path(handler.baseFilename) == path:
            return handler
    for handler in list(_LOGGER.handlers):
        _LOGGER.removeHandler(handler)
        handler.close()
    handler = _handler_class()(
        path, maxBytes=LOG_MAX_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    _LOGGER.addHandler(handler)
    return handler


def log_error(summary: str, details: str = "") -> Path | None:
    """Append one entry to the log; returns its path, or None when even the log is unwritable.

    Never raises: the log is the last thing the error path depends on.
    """
    with _log_lock:
        try:
            handler = _file_handler()
            _LOGGER.error("%s\n%s", summary, details.rstrip())
            handler.flush()
            return Path(handler.baseFilename)
        except Exception:  # OSError, a handler that broke, an encoding problem
            return None


def _tell_terminal(line: str) -> None:
    """One line on stderr if there is one (None under pythonw, maybe closed or broken)."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except Exception:
        pass


def summarize(error: BaseException) -> str:
    """One line naming what went wrong: our own errors already say file, field and problem."""
    if isinstance(error, AttentionLabError):
        return str(error)
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


class ErrorHook(QObject):
    """Catches what nobody else caught; keeps the autosave intact and tells the user calmly."""

    reported = Signal(str)
    """Emitted on the GUI thread with the paragraph just shown to the user."""
    _thread_failed = Signal(str, bool, str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dialog: QMessageBox | None = None
        self.reports = 0
        self._autosaves: list[Flushable] = []
        self._previous_sys: Callable[..., object] | None = None
        self._previous_threading: Callable[..., object] | None = None
        self._thread_failed.connect(self._report)

    def watch_autosave(self, autosave: Flushable) -> None:
        """Flush this autosave before any error dialog; a session registers its autosave when
        it starts one, and an autosave that is a QObject is forgotten when it is deleted."""
        if any(existing is autosave for existing in self._autosaves):
            return
        self._autosaves.append(autosave)
        destroyed = getattr(autosave, "destroyed", None)
        if destroyed is not None:
            # a slot without the argument: PySide would wrap the half-destroyed object for it
            destroyed.connect(lambda: self._forget(autosave))

    def _forget(self, autosave: Flushable) -> None:
        self._autosaves = [a for a in self._autosaves if a is not autosave]

    def install(self) -> None:
        if sys.excepthook == self.handle_exception:
            return
        self._previous_sys = sys.excepthook
        self._previous_threading = threading.excepthook
        sys.excepthook = self.handle_exception
        threading.excepthook = self.handle_thread_exception

    def uninstall(self) -> None:
        if sys.excepthook == self.handle_exception and self._previous_sys is not None:
            sys.excepthook = self._previous_sys
        if (threading.excepthook == self.handle_thread_exception
                and self._previous_threading is not None):
            threading.excepthook = self._previous_threading

    def handle_exception(self, exc_type: type[BaseException], error: BaseException,
                         tb: TracebackType | None) -> None:
        """`sys.excepthook`: save and tell the user first, then log; never raises."""
        if issubclass(exc_type, KeyboardInterrupt):
            (self._previous_sys or sys.__excepthook__)(exc_type, error, tb)
            return
        try:
            summary = summarize(error)
            details = "".join(traceback.format_exception(exc_type, error, tb))
            self._dispatch(summary, isinstance(error, AttentionLabError), details)
        except Exception:  # the hook itself must never raise: that would print a traceback
            log_error("error hook failed", traceback.format_exc())

    def handle_thread_exception(self, args: threading.ExceptHookArgs) -> None:
        """`threading.excepthook`: the same, naming the thread in the log."""
        if args.exc_type is SystemExit or args.exc_value is None:
            return
        try:
            summary = summarize(args.exc_value)
            name = args.thread.name if args.thread is not None else "?"
            details = "".join(traceback.format_exception(
                args.exc_type, args.exc_value, args.exc_traceback))
            self._dispatch(summary, isinstance(args.exc_value, AttentionLabError), details,
                           f"in thread {name}: {summary}")
        except Exception:
            log_error("error hook failed", traceback.format_exc())

    def _dispatch(self, summary: str, known: bool, details: str,
                  logged_as: str | None = None) -> None:
        """Report on the GUI thread (queued from other threads); without an application,
        just log and print the one line."""
        app = QApplication.instance()
        if app is None:
            self._log_and_echo(summary, details, logged_as)
        elif QThread.currentThread() is app.thread():
            self._report(summary, known, details, logged_as or summary)
        else:
            self._thread_failed.emit(summary, known, details, logged_as or summary)

    def _report(self, summary: str, known: bool, details: str = "",
                logged_as: str | None = None) -> None:
        """On the GUI thread: flush every reachable autosave, show one dialog, and only then
        write the log and the terminal line, so neither can stop the first two."""
        saved = self._flush_autosaves()
        self.reports += 1
        log = _log_location()
        message = self.message(summary, known, saved, log)
        shown = self.dialog is None or not self.dialog.isVisible()
        if shown:
            self._show(message)
        if self._log_and_echo(summary, details, logged_as) is None and log is not None:
            message = self.message(summary, known, saved, None)  # the log could not be written
            if shown and self.dialog is not None:
                self.dialog.setText(message)
        self.reported.emit(message)  # one dialog at a time: a repeating error only logs

    def _show(self, message: str) -> None:
        box = QMessageBox(_parent_window())
        box.setObjectName("error_dialog")
        emphasize(box, STRONG)  # legible from the back of a room, zoomed like the window
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(tr("reliability.dialog_title"))
        box.setText(message)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.finished.connect(self._on_dialog_finished)
        self.dialog = box
        box.open()

    @staticmethod
    def _log_and_echo(summary: str, details: str, logged_as: str | None) -> Path | None:
        """The log entry, then one line for a terminal (never the traceback); both quiet."""
        logged = log_error(logged_as or summary, details)
        where = f" (details in {logged})" if logged is not None else ""
        _tell_terminal(f"attention-lab: error: {summary}{where}")
        return logged

    def _on_dialog_finished(self, _result: int) -> None:
        if self.dialog is not None:
            self.dialog.deleteLater()
        self.dialog = None

    @staticmethod
    def message(summary: str, known: bool, saved: bool | None,
                log: str | None = "") -> str:
        """The paragraph the user reads: what happened, whether work is safe, where the log is
        (`log` None: no log could be written; "" means the usual log file)."""
        what = tr("reliability.known", problem=summary) if known else tr(
            "reliability.unexpected", problem=summary)
        if saved is None:
            work = tr("reliability.no_autosave")
        elif saved:
            work = tr("reliability.saved")
        else:
            work = tr("reliability.not_saved")
        if log == "":
            log = _log_location()
        where = tr("reliability.log", log=log) if log is not None else tr("reliability.no_log")
        return tr("reliability.paragraph", what=what, work=work, log=where)

    def _flush_autosaves(self) -> bool | None:
        """True when every autosave was written, False when one failed, None when none exists."""
        autosaves = list(self._autosaves)
        if not autosaves:
            return None
        saved = True
        for autosave in autosaves:
            try:
                autosave.flush()
            except Exception:
                saved = False
                log_error("autosave flush failed", traceback.format_exc())
        return saved


def _parent_window() -> QWidget | None:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return None
    active = app.activeWindow()
    if active is not None:
        return active
    visible = [w for w in app.topLevelWidgets() if w.isVisible() and w.isWindow()
               and not isinstance(w, QMessageBox)]
    return visible[0] if visible else None


_installed: ErrorHook | None = None


def install(autosave: Flushable | None = None) -> ErrorHook:
    """Install the application-wide hook once (idempotent) and return it."""
    global _installed
    if _installed is None:
        _installed = ErrorHook(QApplication.instance())
    _installed.install()
    if autosave is not None:
        _installed.watch_autosave(autosave)
    return _installed


def installed() -> ErrorHook | None:
    """The hook `install()` created, if any (tests uninstall it again)."""
    return _installed
