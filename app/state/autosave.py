"""Owns the autosave: the document's state on disk at most a second behind, and its restore.

Saves are debounced (quiet for 0.3 s after the last change) but never more than 1 s behind
the first unsaved change, so a crash or kill -9 loses at most the last second. Each save is
atomic (temporary file, fsync, rename); the previous save is kept as a backup beside it, so
even a damaged autosave (a dying disk, a copy half made) still brings a session back.

Nothing a user made is overwritten here: a file this version cannot read (made by a newer
build, shapes that no longer match `data/`, damaged) is moved aside under a new name before
the first write, and a `QLockFile` per autosave lets a second copy of the app on the same
folder save to files of its own instead of silently replacing the first copy's.

The class's poll counts are saved beside the state (`Kept`), and a change to them is saved
like an edit.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, Qt, QTimer, Signal

from app.model.answers.tally import SceneCounts
from app.model.atomic import write_text_atomic
from app.model.errors import ScenarioError
from app.model.jsonfile import ROOT
from app.model.scenario import SUFFIX, Scenario, dumps, read_scenario_file
from app.model.state import LabState
from app.model.view import initial_state
from app.paths import user_data_dir
from app.state.document import Document
from app.state.kept import Kept
from app.state.notice import Notice

AUTOSAVE_NAME = "autosave.attnlab.json"
BACKUP_NAME = "autosave.previous.attnlab.json"
LOCK_NAME = "autosave.lock"
PROBE_NAME = ".autosave-write-test"
MAX_COPIES = 9
"""Copies of the app that can each keep an autosave of their own in one folder."""
DEBOUNCE_S = 0.3
MAX_DELAY_S = 1.0


def next_delay(now: float, first_change: float, last_change: float,
               debounce: float = DEBOUNCE_S, max_delay: float = MAX_DELAY_S) -> float:
    """Seconds until the next save: after a pause in editing, or at the deadline if none comes."""
    return max(0.0, min(last_change + debounce, first_change + max_delay) - now)


def _copy_stem(copy: int) -> str:
    """"autosave" for the first copy of the app, "autosave.copy-2" for the second, …"""
    return "autosave" if copy == 1 else f"autosave.copy-{copy}"


def autosave_paths(folder: Path | None = None, copy: int = 1) -> tuple[Path, Path]:
    """(autosave, backup) of one copy of the app in the user data folder."""
    folder = user_data_dir() if folder is None else folder
    if copy == 1:
        return folder / AUTOSAVE_NAME, folder / BACKUP_NAME
    stem = _copy_stem(copy)
    return folder / f"{stem}{SUFFIX}", folder / f"{stem}.previous{SUFFIX}"


def lock_path(folder: Path | None = None, copy: int = 1) -> Path:
    """The lock file that says a running copy of the app owns these autosave files."""
    folder = user_data_dir() if folder is None else folder
    return folder / (LOCK_NAME if copy == 1 else f"{_copy_stem(copy)}.lock")


def aside_path(path: Path, when: datetime | None = None) -> Path:
    """A new, unused name beside `path` for a file that must not be overwritten.

    autosave.attnlab.json → autosave.unreadable-20261201-031500.attnlab.json (then -2, -3 …
    if that exists), so a second kept-aside file never replaces the first.
    """
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    name = path.name
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else path.stem
    suffix = SUFFIX if name.endswith(SUFFIX) else path.suffix
    number = 1
    while True:
        extra = "" if number == 1 else f"-{number}"
        candidate = path.with_name(f"{stem}.unreadable-{stamp}{extra}{suffix}")
        if not os.path.lexists(candidate):
            return candidate
        number += 1


def write_problem(error: BaseException) -> Notice | str:
    """The reason a save failed, for the status bar and dialogs: the system's own words for
    a failed write, a notice the interface words for text a file cannot hold."""
    if isinstance(error, UnicodeEncodeError):
        bad = error.object[error.start:error.end]
        return Notice.of("classroom.unwritable_text", text=ascii(bad))
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error) or type(error).__name__


class FolderLock:
    """Which copy of the app this is: the first to start on a folder owns the autosave; a
    second copy gets `autosave.copy-2.*`, and so on, so no copy writes over another's files.

    The lock is Qt's `QLockFile` with no age limit (a lesson runs for hours); a lock left by a
    copy that was killed (kill -9, a power cut) names a process that no longer runs, and
    `tryLock` removes it, so a dead copy never blocks the next start.
    """

    def __init__(self, folder: Path | None = None, max_copies: int = MAX_COPIES) -> None:
        self.folder = user_data_dir() if folder is None else Path(folder)
        self.copy = 1
        self._lock: QLockFile | None = None
        self.problem: str | None = None
        """Why no lock could be taken (a read-only folder); then this is copy 1, unguarded."""
        for copy in range(1, max_copies + 1):
            lock = QLockFile(str(lock_path(self.folder, copy)))
            lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
            if lock.tryLock(0):
                self.copy, self._lock = copy, lock
                return
            if lock.error() != QLockFile.LockError.LockFailedError:  # cannot even write it
                self.problem = lock.error().name
                return
        self.copy = max_copies  # every slot taken: share the last one rather than refuse to run
        self.problem = QLockFile.LockError.LockFailedError.name

    @property
    def locked(self) -> bool:
        return self._lock is not None and self._lock.isLocked()

    def paths(self) -> tuple[Path, Path]:
        """(autosave, backup) this copy of the app owns."""
        return autosave_paths(self.folder, self.copy)

    def release(self) -> None:
        """Let the next copy of the app have these files (on quit)."""
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None


@dataclass
class Restored:
    """What `restore` found: the state (None = nothing usable) with the poll's counts it kept,
    and each file it had to skip."""

    state: LabState | None = None
    poll: tuple[SceneCounts, ...] = ()
    source: Path | None = None
    problems: list[ScenarioError] = field(default_factory=list)
    from_backup: bool = False


def read_autosave(path: Path, template: LabState) -> Scenario:
    """`read_scenario_file`, with every failure a ScenarioError: an autosave that cannot be
    read for any reason, an unexpected exception in the reader included, is kept aside like a
    damaged one and is never a reason the app does not open."""
    try:
        return read_scenario_file(path, template)
    except ScenarioError:
        raise
    except Exception as error:
        raise ScenarioError(path, ROOT, f"could not be read ({type(error).__name__}: "
                            f"{' '.join(str(error).split())[:200]})") from error


def restore(template: LabState, folder: Path | None = None, copy: int = 1) -> Restored:
    """The last session's state: the autosave, or the backup when the autosave is damaged."""
    result = Restored()
    for number, path in enumerate(autosave_paths(folder, copy)):
        if not path.exists():
            continue
        try:
            scenario = read_autosave(path, template)
        except ScenarioError as error:
            result.problems.append(error)
            continue
        result.state, result.poll = scenario.state, scenario.poll
        result.source = path
        result.from_backup = number == 1
        break
    return result


class Autosaver(QObject):
    """Writes the document's state (and what `kept` keeps beside it) after changes; `flush`
    writes now (on quit, before a crash)."""

    saved = Signal(str)
    """Emitted with the file's path after each write."""
    failed = Signal(object)
    """Emitted with the reason when saving starts failing: once, not again at every change,
    until a save succeeds (then `recovered`)."""
    recovered = Signal(str)
    """Emitted with the file's path when a save succeeds after `failed`."""
    kept_aside = Signal(str, str)
    """Emitted with (old path, new path) for each unreadable file moved out of the way."""

    def __init__(self, document: Document, folder: Path | None = None,
                 debounce: float = DEBOUNCE_S, max_delay: float = MAX_DELAY_S,
                 copy: int = 1, kept: Kept | None = None) -> None:
        super().__init__(document)
        self.document = document
        self.kept = kept
        self.folder = user_data_dir() if folder is None else Path(folder)
        self.path, self.backup_path = autosave_paths(self.folder, copy)
        self.debounce = debounce
        self.max_delay = max_delay
        self.save_count = 0
        self.problem: Notice | str | None = None
        """Why the last save failed (`write_problem`); None while saves work."""
        self._written: str | None = None
        self._found: str | None = None
        """A readable autosave found before the first write: the first save backs it up."""
        self._checked = False
        self._first: float | None = None
        self._last = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._on_timeout)
        document.changed.connect(self._on_changed)
        if kept is not None:
            kept.kept_changed.connect(self._on_changed)

    def _text(self) -> str:
        return dumps(self.document.state, self.kept.kept() if self.kept is not None else ())

    @property
    def pending(self) -> bool:
        """True while the document holds changes that are in no autosave file."""
        return self._text() != self._written

    def mark_saved(self, state: LabState, poll: Sequence[SceneCounts] = ()) -> None:
        """Say the files already hold `state` and `poll` (just restored), so nothing is
        rewritten."""
        self._written = dumps(state, poll)

    def keep_aside_unreadable(self) -> list[tuple[Path, Path]]:
        """Move each autosave file this version cannot read to a new name; raises OSError.

        Runs once, before the first write: a file from a newer build or a damaged one is the
        user's work too, so it is renamed (never rewritten) and the new names are returned.
        """
        moved: list[tuple[Path, Path]] = []
        if self._checked:
            return moved
        template = initial_state(self.document.data)
        for path in (self.path, self.backup_path):
            if not path.exists():
                continue
            try:
                read_autosave(path, template)
                if path == self.path:
                    self._found = path.read_text(encoding="utf-8")
            except ScenarioError:
                target = aside_path(path)
                try:
                    os.rename(path, target)
                except OSError as error:
                    self._fail(write_problem(error))
                    raise
                moved.append((path, target))
                self.kept_aside.emit(str(path), str(target))
        self._checked = True
        return moved

    def check_writable(self) -> Notice | str | None:
        """Try a small write in the folder now; the reason it failed (then `failed` is
        emitted, once), or None. Lets the start say "autosave is off" before any edit."""
        probe = self.folder / PROBE_NAME
        try:
            write_text_atomic(probe, "", private=True)
            probe.unlink()
        except OSError as error:
            self._fail(write_problem(error))
            return self.problem
        return None

    def stop(self) -> None:
        """Write no more (the window closed and released its files)."""
        self._timer.stop()
        with contextlib.suppress(RuntimeError, TypeError):  # already disconnected
            self.document.changed.disconnect(self._on_changed)
        if self.kept is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.kept.kept_changed.disconnect(self._on_changed)

    def _on_changed(self) -> None:
        now = time.monotonic()
        if self._first is None:
            self._first = now
        self._last = now
        delay = next_delay(now, self._first, self._last, self.debounce, self.max_delay)
        self._timer.start(round(delay * 1000))

    def _on_timeout(self) -> None:
        with contextlib.suppress(OSError):  # flush reported it (once); the next change retries
            self.flush()

    def _fail(self, problem: Notice | str) -> None:
        first = self.problem is None
        self.problem = problem
        if first:
            self.failed.emit(problem)

    def flush(self) -> bool:
        """Write the current state now if it differs from the last save; raises OSError.

        Returns True when a file was written. The previous save becomes the backup first, so
        at every instant at least one complete file exists. Text the file cannot hold (a lone
        surrogate) is an OSError too, so every caller that survives a full disk survives it.
        """
        self._timer.stop()
        self._first = None
        try:
            text = self._text()
            if text == self._written:
                return False
            self.keep_aside_unreadable()
            previous = self._written if self._written is not None else self._found
            if previous is not None and previous != text:
                write_text_atomic(self.backup_path, previous, private=True)
            write_text_atomic(self.path, text, private=True)
        except (OSError, ValueError) as error:  # UnicodeEncodeError is a ValueError
            self._first = time.monotonic()  # still unsaved: the next change retries
            problem = write_problem(error)
            self._fail(problem)
            if isinstance(error, OSError):
                raise
            raise OSError(errno.EINVAL, f"text that cannot be saved as UTF-8: {error}") from error
        self._written, self._found = text, None
        self.save_count += 1
        if self.problem is not None:
            self.problem = None
            self.recovered.emit(str(self.path))
        self.saved.emit(str(self.path))
        return True
