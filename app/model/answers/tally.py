"""Owns the class's answers to the polls: one answer per device, changeable until Reveal freezes
it, counts per choice, and the counts of every scene as a record to save and export.

A device is only a random token its browser made; it lives in memory while the poll runs and
is never written anywhere. What is kept (the record, the CSV) is each scene's question as the
class saw it and how many chose each answer — nothing about any student.
"""

from __future__ import annotations

import csv
import enum
import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from app.model.answers.poll import MAX_CHOICES
from app.model.csv_cells import text_cell
from app.model.errors import FieldError

__all__ = ["MAX_DEVICES", "MAX_RECORD_BYTES", "MAX_SCENE_CHARS", "MAX_TEXT", "RECORD_VERSION",
           "Outcome", "PollBook", "RecordError", "SceneCounts", "SceneTally", "counts_csv",
           "counts_rows", "read_record", "record_of"]

MAX_DEVICES = 500
"""Devices one question counts: a lecture hall, with room to spare; a flood stops there."""
MAX_SCENES = 256
MAX_COUNT = 10**6
MAX_SCENE_CHARS = 64
MAX_TEXT = 600
"""A filled prompt or choice is a line or two; the page and the stage never get a page of it.
The question (`app.poll.questions.Question`) and the record reader check the same limits, so
a record the app writes is always read back."""
MAX_RECORD_BYTES = MAX_SCENES * (6 * MAX_SCENE_CHARS + MAX_CHOICES * (6 * MAX_TEXT + 24) + 200)
"""The most JSON a record adds to a scenario: every scene and choice at its longest, in
characters JSON writes as 6-byte \\u escapes, each count at its longest with its separator and
indentation. The scenario reader's size limit includes it (about 5 MB; a real one is a few
KB), so a record the writer keeps is never a file too large to read back."""
RECORD_VERSION = 1
CSV_HEADER = ("scene", "choice", "text", "answers", "right", "frozen")


class Outcome(enum.Enum):
    """What one answer did to a tally."""

    COUNTED = "counted"
    """A device answered this question for the first time."""
    CHANGED = "changed"
    """A device moved its one vote to another choice."""
    UNCHANGED = "unchanged"
    """The device's answer was already this choice."""
    FROZEN = "frozen"
    """The answer was revealed: nothing changes any more."""
    FULL = "full"
    """A new device beyond MAX_DEVICES."""
    NO_SUCH_CHOICE = "no_such_choice"

    @property
    def accepted(self) -> bool:
        return self in (Outcome.COUNTED, Outcome.CHANGED, Outcome.UNCHANGED)


class RecordError(FieldError):
    """A saved poll record that cannot be read; `field` is its JSON path inside the record."""


@dataclass(frozen=True)
class SceneCounts:
    """One scene's question as the class saw it and how the class split: what is kept."""

    scene: str
    choices: tuple[str, ...]
    right: int | None
    counts: tuple[int, ...]
    frozen: bool

    @property
    def total(self) -> int:
        return sum(self.counts)

    def to_json(self) -> dict[str, Any]:
        return {"scene": self.scene, "choices": list(self.choices), "right": self.right,
                "counts": list(self.counts), "frozen": self.frozen}


class SceneTally:
    """The answers to one scene's question: a device's last choice, until it is frozen."""

    def __init__(self, scene: str, choices: Sequence[str], right: int | None,
                 max_devices: int = MAX_DEVICES) -> None:
        if not choices:
            raise ValueError("a poll needs choices")
        if right is not None and not 0 <= right < len(choices):
            raise ValueError(f"right choice {right} is not one of {len(choices)}")
        self.scene = scene
        self.choices = tuple(choices)
        self.right = right
        self.max_devices = max_devices
        self.frozen = False
        self._answers: dict[str, int] = {}
        self._counts = [0] * len(self.choices)

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(self._counts)

    @property
    def devices(self) -> int:
        return len(self._answers)

    def answer(self, device: str, choice: int) -> Outcome:
        """Count `device`'s answer, or say why not; an answer moves that device's one vote."""
        if self.frozen:
            return Outcome.FROZEN
        if not 0 <= choice < len(self._counts):
            return Outcome.NO_SUCH_CHOICE
        before = self._answers.get(device)
        if before == choice:
            return Outcome.UNCHANGED
        if before is None and len(self._answers) >= self.max_devices:
            return Outcome.FULL
        self._answers[device] = choice
        self._counts[choice] += 1
        if before is None:
            return Outcome.COUNTED
        self._counts[before] -= 1
        return Outcome.CHANGED

    def freeze(self) -> bool:
        """Stop every change (Reveal); the devices are forgotten, the counts stay. True when
        this call froze it."""
        if self.frozen:
            return False
        self.frozen = True
        self._answers.clear()
        return True

    def relabel(self, choices: Sequence[str], right: int | None) -> None:
        """The same question in other words (the teacher switched language)."""
        if len(choices) != len(self.choices):
            raise ValueError("relabelling cannot change the number of choices")
        self.choices, self.right = tuple(choices), right

    def summary(self) -> SceneCounts:
        return SceneCounts(self.scene, self.choices, self.right, self.counts, self.frozen)

    @classmethod
    def restored(cls, counts: SceneCounts, max_devices: int = MAX_DEVICES) -> SceneTally:
        """A saved scene: its counts, frozen, because which device gave which answer was
        never kept, so no one could change an answer without being counted twice."""
        tally = cls(counts.scene, counts.choices, counts.right, max_devices)
        tally._counts = list(counts.counts)
        tally.frozen = True
        return tally


class PollBook:
    """Every scene's tally of this session, in the order the class first met them."""

    def __init__(self, max_devices: int = MAX_DEVICES) -> None:
        self.max_devices = max_devices
        self._tallies: dict[str, SceneTally] = {}

    def __len__(self) -> int:
        return len(self._tallies)

    def get(self, scene: str) -> SceneTally | None:
        return self._tallies.get(scene)

    def open(self, scene: str, choices: Sequence[str], right: int | None) -> SceneTally:
        """The scene's tally, kept from an earlier visit when it asks as many choices (its
        texts may change with the language); a fresh one otherwise."""
        tally = self._tallies.get(scene)
        if tally is not None and len(tally.choices) == len(choices):
            tally.relabel(choices, right)
            return tally
        if tally is None and len(self._tallies) >= MAX_SCENES:
            raise ValueError(f"a session keeps at most {MAX_SCENES} polls")
        tally = SceneTally(scene, choices, right, self.max_devices)
        self._tallies[scene] = tally
        return tally

    def summaries(self) -> tuple[SceneCounts, ...]:
        return tuple(tally.summary() for tally in self._tallies.values())

    def drop(self, scene: str) -> None:
        """Forget the scene's answers: asked again, it starts from none."""
        self._tallies.pop(scene, None)

    def put(self, counts: SceneCounts) -> None:
        """The scene's answers as `counts` again, frozen (no device is known for them)."""
        self._tallies[counts.scene] = SceneTally.restored(counts, self.max_devices)

    def to_json(self) -> dict[str, Any]:
        """The record saved with a scenario: questions and counts, never a device."""
        return record_of(self.summaries())

    @classmethod
    def from_json(cls, record: Any, max_devices: int = MAX_DEVICES) -> PollBook:
        """A saved record back, every scene frozen; RecordError names the field at fault."""
        return cls.restored(read_record(record), max_devices)

    @classmethod
    def restored(cls, scenes: Iterable[SceneCounts], max_devices: int = MAX_DEVICES) -> PollBook:
        """Scenes read from a record, every one frozen (no device was kept)."""
        book = cls(max_devices)
        for counts in scenes:
            book._tallies[counts.scene] = SceneTally.restored(counts, max_devices)
        return book

    def csv_text(self) -> str:
        return counts_csv(self.summaries())


def counts_rows(scenes: Iterable[SceneCounts]) -> Iterator[tuple[str | int, ...]]:
    """The CSV rows of `scenes` under CSV_HEADER: one per choice, with its text, how many
    chose it, whether it is right and whether the poll was closed; no row names anyone."""
    return ((text_cell(s.scene), i + 1, text_cell(text), count,
             "yes" if i == s.right else "", "yes" if s.frozen else "")
            for s in scenes
            for i, (text, count) in enumerate(zip(s.choices, s.counts, strict=True)))


def counts_csv(scenes: Iterable[SceneCounts]) -> str:
    """One row per choice of every scene (`counts_rows`), under CSV_HEADER."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    writer.writerows(counts_rows(scenes))
    return out.getvalue()


def record_of(scenes: Iterable[SceneCounts]) -> dict[str, Any]:
    """The JSON record of `scenes`, as a scenario keeps it: questions and counts only."""
    return {"version": RECORD_VERSION, "scenes": [s.to_json() for s in scenes]}


def _whole(value: Any, where: str, most: int) -> int:
    if type(value) is not int or not 0 <= value <= most:
        raise RecordError(where, f"must be a whole number from 0 to {most}, found {value!r:.40}")
    return value


def read_record(record: Any) -> tuple[SceneCounts, ...]:
    """A record's scenes exactly as written (the tallies made from them are frozen);
    RecordError names the first field at fault."""
    if not isinstance(record, dict) or set(record) != {"version", "scenes"}:
        raise RecordError("(record)", "must be an object with version and scenes")
    if record["version"] != RECORD_VERSION:
        raise RecordError("version", f"this app reads {RECORD_VERSION}")
    scenes = record["scenes"]
    if not isinstance(scenes, list) or len(scenes) > MAX_SCENES:
        raise RecordError("scenes", f"must be a list of at most {MAX_SCENES} scenes")
    found: list[SceneCounts] = []
    for i, node in enumerate(scenes):
        where = f"scenes[{i}]"
        keys = {"scene", "choices", "right", "counts", "frozen"}
        if not isinstance(node, dict) or set(node) != keys:
            raise RecordError(where, f"must be an object with {', '.join(sorted(keys))}")
        scene, choices, counts = node["scene"], node["choices"], node["counts"]
        if (not isinstance(scene, str) or not 0 < len(scene) <= MAX_SCENE_CHARS
                or any(s.scene == scene for s in found)):
            raise RecordError(f"{where}.scene",
                              f"must be a scene's id of at most {MAX_SCENE_CHARS} characters, once")
        if (not isinstance(choices, list) or not 1 <= len(choices) <= MAX_CHOICES
                or not all(isinstance(text, str) and len(text) <= MAX_TEXT for text in choices)):
            raise RecordError(f"{where}.choices", f"must be a list of 1 to {MAX_CHOICES} texts of "
                              f"at most {MAX_TEXT} characters")
        if not isinstance(counts, list) or len(counts) != len(choices):
            raise RecordError(f"{where}.counts", "must hold one count per choice")
        right = node["right"]
        if right is not None:
            right = _whole(right, f"{where}.right", len(choices) - 1)
        if not isinstance(node["frozen"], bool):
            raise RecordError(f"{where}.frozen", "must be true or false")
        found.append(SceneCounts(
            scene, tuple(choices), right,
            tuple(_whole(c, f"{where}.counts[{j}]", MAX_COUNT) for j, c in enumerate(counts)),
            node["frozen"]))
    return tuple(found)
