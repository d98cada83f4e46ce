"""Owns a guess-first scene's poll as data: its choices, which one is right, and for a number
guess the ranges it is asked in; read from `data/lesson-scenes.json` and checked field by field.

Two kinds, one schema each, under a scene's `answer`:

- choices: `{"choices": ["scene.design.choice.a", …], "right": 1}`, 2–5 texts (catalogue
  keys, worded and checked as every scene text is), `right` the 0-based index of the true one;
- ranges: `{"ranges": {"figure": "additive_intermediate_gib", "unit": "MiB",
  "edges": [1, 64, 1024, 16384]}}`: 1–4 increasing edges cut the number line into 2–5
  choices, and the right one is the range that holds the figure as the app computes it, so a
  change of the data files can never make the poll's answer wrong.

Pure: the texts stay as parsed (filled and shown by the UI), and nothing here imports Qt.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from app.model.jsonfile import JsonFile, describe, join
from app.model.lesson.figures import PUBLISHED, Figure

__all__ = ["BYTE_UNITS", "MAX_CHOICES", "MIN_CHOICES", "Localized", "Poll", "Ranges",
           "figure_in", "parse_poll"]

MIN_CHOICES = 2
MAX_CHOICES = 5
"""A phone shows five large buttons without scrolling; fewer than two is not a question."""
BYTE_UNITS: dict[str, int] = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3,
                              "TiB": 1024**4}
"""Sizes a range may be written in; a figure in any of them compares with edges in any other."""
_KEYS = ("choices", "right", "ranges")
_RANGE_KEYS = ("figure", "unit", "edges")


class Localized(Protocol):
    """A text the interface words in the language on screen (the scene loader's own type)."""

    @property
    def key(self) -> str: ...


TextReader = Callable[[dict[Any, Any], str, Any], Localized]
"""`read(node, base, key)`: the scene loader's check of one text's catalogue key at
`node[key]`."""


@dataclass(frozen=True)
class Ranges:
    """A number guess: the figure the answer is, the unit of the edges, the edges."""

    figure: str
    unit: str
    edges: tuple[float, ...]

    @property
    def count(self) -> int:
        return len(self.edges) + 1

    def bounds(self, index: int) -> tuple[float | None, float | None]:
        """(low, high) of choice `index` in the edges' unit; None for an open end."""
        low = self.edges[index - 1] if index > 0 else None
        high = self.edges[index] if index < len(self.edges) else None
        return low, high

    def index_of(self, value: float) -> int:
        """The range holding `value` (in the edges' unit): low ≤ value < high."""
        return bisect.bisect_right(self.edges, value)


@dataclass(frozen=True)
class Poll:
    """The class's question for one scene: either texts with a right one, or ranges."""

    choices: tuple[Localized, ...] = ()
    right: int | None = None
    ranges: Ranges | None = None

    @property
    def count(self) -> int:
        return self.ranges.count if self.ranges is not None else len(self.choices)

    def right_choice(self, figures: Mapping[str, Figure]) -> int:
        """The index of the true choice; a range poll's is computed from `figures` now."""
        if self.ranges is None:
            assert self.right is not None
            return self.right
        return self.ranges.index_of(figure_in(figures[self.ranges.figure], self.ranges.unit))


def figure_in(figure: Figure, unit: str) -> float:
    """A figure's value in `unit`: converted between sizes, otherwise the figure's own unit."""
    value = float(figure.value)  # type: ignore[arg-type]
    if figure.unit in BYTE_UNITS and unit in BYTE_UNITS:
        return value * BYTE_UNITS[figure.unit] / BYTE_UNITS[unit]
    return value


def _unknown(f: JsonFile, obj: dict[str, Any], where: str, allowed: tuple[str, ...]) -> None:
    extra = sorted(set(obj) - set(allowed))
    if extra:
        raise f.fail(join(where, extra[0]), f"is not part of a poll; use {', '.join(allowed)}")


def _choices(f: JsonFile, obj: dict[str, Any], where: str, read: TextReader) -> Poll:
    items = f.items(obj, where, "choices")
    base = join(where, "choices")
    if not MIN_CHOICES <= len(items) <= MAX_CHOICES:
        raise f.fail(base, f"must hold {MIN_CHOICES} to {MAX_CHOICES} choices, "
                           f"found {len(items)}")
    by_index = dict(enumerate(items))  # the reader looks texts up by key, here an index
    texts = tuple(read(by_index, base, i) for i in range(len(items)))
    seen = [text.key for text in texts]
    for i, value in enumerate(seen):
        if value in seen[:i]:
            raise f.fail(join(base, i), "names the same text as an earlier choice")
    right = f.get(obj, where, "right")
    if type(right) is not int or not 0 <= right < len(items):
        raise f.fail(join(where, "right"), f"must be the index of a choice (0 to "
                                           f"{len(items) - 1}), found {describe(right)}")
    return Poll(choices=texts, right=right)


def _ranges(f: JsonFile, obj: dict[str, Any], where: str) -> Poll:
    if "right" in obj:
        raise f.fail(join(where, "right"), "is computed for ranges (the range that holds the "
                                           "figure); remove it")
    node = f.obj(obj, where, "ranges")
    base = join(where, "ranges")
    _unknown(f, node, base, _RANGE_KEYS)
    figure = f.text(node, base, "figure")
    if figure not in PUBLISHED or PUBLISHED[figure][3] != "equal" or isinstance(
            PUBLISHED[figure][0], tuple):
        raise f.fail(join(base, "figure"), f"must name one computed number of the lesson "
                                           f"(a key of lesson_figures()), found {describe(figure)}")
    own = PUBLISHED[figure][1]
    unit = f.text(node, base, "unit")
    sizes = own in BYTE_UNITS and unit in BYTE_UNITS
    if unit != own and not sizes:
        allowed = ", ".join(BYTE_UNITS) if own in BYTE_UNITS else own
        raise f.fail(join(base, "unit"), f"must be the figure's unit ({allowed}), "
                                         f"found {describe(unit)}")
    values = f.items(node, base, "edges")
    edges_at = join(base, "edges")
    if len(values) > MAX_CHOICES - 1:
        raise f.fail(edges_at, f"must hold 1 to {MAX_CHOICES - 1} edges "
                               f"({MAX_CHOICES} ranges at most), found {len(values)}")
    edges = tuple(f.check_number(value, join(edges_at, i)) for i, value in enumerate(values))
    for i in range(1, len(edges)):
        if not edges[i] > edges[i - 1]:
            raise f.fail(join(edges_at, i), f"must be larger than the edge before it "
                                            f"({edges[i - 1]:g}), found {edges[i]:g}")
    return Poll(ranges=Ranges(figure=figure, unit=unit, edges=edges))


def parse_poll(f: JsonFile, answer: dict[str, Any], where: str,
               read: TextReader) -> Poll | None:
    """The `poll` of a scene's `answer` (None when it has none); `read` reads one text as
    the scene loader reads its own. Raises DataError."""
    obj = f.obj(answer, where, "poll", required=False)
    if obj is None:
        return None
    base = join(where, "poll")
    _unknown(f, obj, base, _KEYS)
    if ("choices" in obj) == ("ranges" in obj):
        raise f.fail(base, "must hold either choices (with right) or ranges, not "
                           + ("both" if "choices" in obj else "neither"))
    return _choices(f, obj, base, read) if "choices" in obj else _ranges(f, obj, base)
