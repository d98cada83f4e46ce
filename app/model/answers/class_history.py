"""Owns the answers of earlier classes: one record per class (when it answered, and each
scene's question and counts), the history file's text, and its CSV.

A launch starts a new class, so the counts a session kept never reach the next class's stage;
they are written here instead, where only the teacher opens them. The file is JSON:

    {"version": 1, "classes": [{"when": "2026-03-05T14:03:00+08:00",
                                "poll": {"version": 1, "scenes": [...]}}]}

`poll` is the record a scenario keeps (`app.model.answers.tally.record_of`), read by the
same reader.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.model.answers.tally import (
    CSV_HEADER,
    RecordError,
    SceneCounts,
    counts_rows,
    read_record,
    record_of,
)
from app.model.errors import FieldError

__all__ = ["HISTORY_CSV_HEADER", "HISTORY_VERSION", "ClassRecord", "HistoryError", "history_csv",
           "history_text", "read_history", "shown_time", "with_class"]

HISTORY_VERSION = 1
HISTORY_CSV_HEADER = ("class", *CSV_HEADER)


class HistoryError(FieldError):
    """A history file that cannot be read; `field` is the JSON path of the first problem."""


@dataclass(frozen=True)
class ClassRecord:
    """One class's answers: when they were last counted, and every scene it answered."""

    when: datetime
    scenes: tuple[SceneCounts, ...]

    @property
    def total(self) -> int:
        """Answers given in the class, over every scene."""
        return sum(scene.total for scene in self.scenes)

    def to_json(self) -> dict[str, Any]:
        return {"when": self.when.isoformat(timespec="seconds"), "poll": record_of(self.scenes)}


def shown_time(when: datetime) -> str:
    """The class's date and time as a teacher reads it (and a spreadsheet sorts it)."""
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def with_class(records: Sequence[ClassRecord], record: ClassRecord) -> tuple[ClassRecord, ...]:
    """`records` and `record` after them, unless it is already there (the same class handed
    in twice, e.g. when the autosave could not be rewritten without it) or answered nothing."""
    if not record.total or record in records:
        return tuple(records)
    return (*records, record)


def history_text(records: Iterable[ClassRecord]) -> str:
    """The history file's text (UTF-8, Chinese choices as written)."""
    doc = {"version": HISTORY_VERSION, "classes": [record.to_json() for record in records]}
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def _when(value: Any, where: str) -> datetime:
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            if when.tzinfo is not None:
                return when
    raise HistoryError(where, f"must be a date and time with its UTC offset, found {value!r:.40}")


def read_history(text: str) -> tuple[ClassRecord, ...]:
    """The classes a history file holds, oldest first; HistoryError names the first field at
    fault (a file that is not JSON at all: the root)."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise HistoryError("(file)", f"is not JSON ({error})") from None
    if not isinstance(doc, dict) or set(doc) != {"version", "classes"}:
        raise HistoryError("(file)", "must be an object with version and classes")
    if doc["version"] != HISTORY_VERSION:
        raise HistoryError("version", f"this app reads {HISTORY_VERSION}")
    if not isinstance(doc["classes"], list):
        raise HistoryError("classes", "must be a list")
    records: list[ClassRecord] = []
    for i, node in enumerate(doc["classes"]):
        where = f"classes[{i}]"
        if not isinstance(node, dict) or set(node) != {"when", "poll"}:
            raise HistoryError(where, "must be an object with when and poll")
        try:
            scenes = read_record(node["poll"])
        except RecordError as error:
            raise HistoryError(f"{where}.poll.{error.field}", error.problem) from None
        records.append(ClassRecord(_when(node["when"], f"{where}.when"), scenes))
    return tuple(records)


def history_csv(records: Iterable[ClassRecord]) -> str:
    """Every class's counts, one row per choice, each row led by the class's date and time."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HISTORY_CSV_HEADER)
    writer.writerows((shown_time(record.when), *row)
                     for record in records for row in counts_rows(record.scenes))
    return out.getvalue()
