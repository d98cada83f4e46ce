"""Owns the autosave: the document's state on disk at most a second behind, and its restore.

Saves are debounced (quiet for 0.3 s after the last change) but never more than 1 s behind
the first unsaved change, so a crash or kill -9 loses at most the last second. Each save is
atomic (temporary file, fsync, rename); the previous save is kept as a backup beside it, so
even a damaged autosave (a dying disk, a copy half made) still brings a session back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.model.atomic import write_text_atomic
from app.model.errors import ScenarioError
from app.model.scenario import dumps, read_scenario
from app.model.state import LabState
from app.paths import user_data_dir
from app.state.document import Document

AUTOSAVE_NAME = "autosave.attnlab.json"
BACKUP_NAME = "autosave.previous.attnlab.json"
DEBOUNCE_S = 0.3
MAX_DELAY_S = 1.0


def next_delay(now: float, first_change: float, last_change: float,
               debounce: float = DEBOUNCE_S, max_delay: float = MAX_DELAY_S) -> float:
    """Seconds until the next save: after a pause in editing, or at the deadline if none comes."""
    return max(0.0, min(last_change + debounce, first_change + max_delay) - now)


def autosave_paths(folder: Path | None = None) -> tuple[Path, Path]:
    """(autosave, backup) in the user data folder."""
    folder = user_data_dir() if folder is None else folder
    return folder / AUTOSAVE_NAME, folder / BACKUP_NAME


@dataclass
class Restored:
    """What `restore` found: the state (None = nothing usable) and each file it had to skip."""

    state: LabState | None = None
    source: Path | None = None
    problems: list[ScenarioError] = field(default_factory=list)

    @property
    def from_backup(self) -> bool:
        return self.source is not None and self.source.name == BACKUP_NAME


def restore(template: LabState, folder: Path | None = None) -> Restored:
    """The last session's state: the autosave, or the backup when the autosave is damaged."""
    result = Restored()
    for path in autosave_paths(folder):
        if not path.exists():
            continue
        try:
            result.state = read_scenario(path, template)
        except ScenarioError as error:
            result.problems.append(error)
            continue
        result.source = path
        break
    return result


class Autosaver(QObject):
    """Writes the document's state after changes; `flush` writes now (on quit, before a crash)."""

    saved = Signal(str)
    """Emitted with the file's path after each write."""
    failed = Signal(str)
    """Emitted with the operating system's reason when a timed save could not be written."""

    def __init__(self, document: Document, folder: Path | None = None,
                 debounce: float = DEBOUNCE_S, max_delay: float = MAX_DELAY_S) -> None:
        super().__init__(document)
        self.document = document
        self.path, self.backup_path = autosave_paths(folder)
        self.debounce = debounce
        self.max_delay = max_delay
        self.save_count = 0
        self._written: str | None = None
        self._first: float | None = None
        self._last = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._on_timeout)
        document.changed.connect(self._on_changed)

    def mark_saved(self, state: LabState) -> None:
        """Say the files already hold `state` (just restored), so nothing is rewritten."""
        self._written = dumps(state)

    def _on_changed(self) -> None:
        now = time.monotonic()
        if self._first is None:
            self._first = now
        self._last = now
        delay = next_delay(now, self._first, self._last, self.debounce, self.max_delay)
        self._timer.start(round(delay * 1000))

    def _on_timeout(self) -> None:
        try:
            self.flush()
        except OSError as error:
            self.failed.emit(error.strerror or str(error))

    def flush(self) -> bool:
        """Write the current state now if it differs from the last save; raises OSError.

        Returns True when a file was written. The previous save becomes the backup first, so
        at every instant at least one complete file exists.
        """
        self._timer.stop()
        self._first = None
        text = dumps(self.document.state)
        if text == self._written:
            return False
        try:
            if self._written is not None:
                write_text_atomic(self.backup_path, self._written)
            write_text_atomic(self.path, text)
        except OSError:
            self._first = time.monotonic()  # still unsaved: the next change retries
            raise
        self._written = text
        self.save_count += 1
        self.saved.emit(str(self.path))
        return True
