"""Owns the file of earlier classes' answers in the user folder (`class-history.json`): read
once when first needed, each new class added and the whole file written atomically.

A file this version cannot read is the teacher's record too: it is renamed beside itself
(`class-history.unreadable-<time>.json`, as the autosave does) before anything is written,
and the window is told where it went. When it cannot even be renamed, nothing is written over
it: the classes of this session stay in memory (the dialog shows them, the CSV exports them).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.model.answers.class_history import (
    ClassRecord,
    HistoryError,
    history_text,
    read_history,
    with_class,
)
from app.model.answers.tally import SceneCounts
from app.model.atomic import write_text_atomic
from app.paths import user_data_dir
from app.state.autosave import aside_path

__all__ = ["HISTORY_NAME", "ClassHistory"]

HISTORY_NAME = "class-history.json"


class ClassHistory(QObject):
    """Earlier classes' answers, oldest first, as the file holds them (and this session's
    classes that could not be written yet)."""

    changed = Signal()
    """A class was added."""
    troubled = Signal(str, str)
    """(problem, what became of the file): the file could not be read, or a write failed.
    `problem` is one line naming the field or the system's reason; the second is the path
    the unreadable file was kept as, or "" when it stays where it is."""

    def __init__(self, folder: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folder = folder
        self._records: tuple[ClassRecord, ...] | None = None
        self._blocked = False
        """The file could not be read nor moved aside: nothing is written over it."""
        self.problem: str | None = None
        """Why the last read or write failed; None while the file is fine."""

    @property
    def path(self) -> Path:
        return (user_data_dir() if self.folder is None else self.folder) / HISTORY_NAME

    def records(self) -> tuple[ClassRecord, ...]:
        """Every class, oldest first (read from the file the first time)."""
        if self._records is None:
            self._records = self._read()
        return self._records

    def add(self, scenes: Sequence[SceneCounts], when: datetime | None = None) -> bool:
        """Keep one class's answers (`when`: when they were last counted; now if not said).
        Returns True when the file holds them; on False, `troubled` said why and the class
        stays in memory for this session."""
        record = ClassRecord((when or datetime.now()).astimezone().replace(microsecond=0),
                             tuple(scenes))
        before = self.records()
        after = with_class(before, record)
        if after == before:
            return self.problem is None
        self._records = after
        self.changed.emit()
        return self._write()

    def _read(self) -> tuple[ClassRecord, ...]:
        path = self.path
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ()
        except (OSError, UnicodeDecodeError) as error:
            return self._unreadable(getattr(error, "strerror", None) or str(error))
        try:
            return read_history(text)
        except HistoryError as error:
            return self._unreadable(str(error))

    def _unreadable(self, problem: str) -> tuple[ClassRecord, ...]:
        """Keep the file aside under a new name and start an empty history."""
        path = self.path
        line = f"{path.name}: {' '.join(problem.split())[:300]}"
        target = aside_path(path)
        try:
            os.rename(path, target)
        except OSError:
            self._blocked = True
            self._trouble(line, "")
            return ()
        self._trouble(line, str(target))
        return ()

    def _write(self) -> bool:
        if self._blocked:
            self._trouble(self.problem or self.path.name, "")
            return False
        try:
            write_text_atomic(self.path, history_text(self.records()), private=True)
        except (OSError, ValueError) as error:
            self._trouble(f"{self.path.name}: {getattr(error, 'strerror', None) or error}", "")
            return False
        self.problem = None
        return True

    def _trouble(self, problem: str, kept_as: str) -> None:
        self.problem = problem
        self.troubled.emit(problem, kept_as)
