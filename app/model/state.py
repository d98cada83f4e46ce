"""The editable state of one lab session, as a plain immutable value (no Qt).

Every edit produces a new `LabState`; undo keeps the old one. Arrays are read-only so
nobody can change a state in place behind the document's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

World = Literal["dialogue", "teaching"]
WORLDS: tuple[World, ...] = ("dialogue", "teaching")
HeatmapMode = Literal["scores", "weights"]
HEATMAP_MODES: tuple[HeatmapMode, ...] = ("scores", "weights")

EDIT_LIMIT = 100.0
"""Vector entries are clamped to ±EDIT_LIMIT: large enough for any lesson, small enough that
every score stays readable and finite on screen."""

POSITION_LIMIT = 1_000_000
"""RoPE positions are token indices, not vector entries: a demo may place a token at 4096 or
262144 (the anchor's context), so they get their own range instead of ±EDIT_LIMIT."""


def frozen_array(values: object) -> np.ndarray:
    """A float64 copy that cannot be written to, so states can share arrays safely."""
    array = np.array(values, dtype=np.float64)
    array.flags.writeable = False
    return array


def clamp_entries(values: np.ndarray) -> np.ndarray:
    """Clamp to the documented editing range; the caller reports whether anything changed."""
    return np.clip(values, -EDIT_LIMIT, EDIT_LIMIT)


@dataclass(frozen=True)
class Options:
    """Display choices that change what is computed or shown, undoable like vector edits."""

    heatmap_mode: HeatmapMode = "scores"
    causal: bool = False
    heads: int = 1
    sink_logit: float | None = None
    rope: bool = False
    show_additive: bool = False
    stage: str | None = None
    scale_mode: bool = False  # heatmap shows seeded random Q, K (T × scale_d) instead
    scale_T: int = 1024
    scale_d: int = 256
    scale_seed: int = 0


MAX_SCALE_T = 4096
SINK_LIMIT = 50.0
"""A sink logit beyond ±50 already takes all or none of the weight; larger values add nothing."""


def options_problem(options: Options) -> str | None:
    """Why these options cannot be shown, or None: the document refuses such an edit."""
    if options.heatmap_mode not in HEATMAP_MODES:
        return f"heatmap mode must be one of {', '.join(HEATMAP_MODES)}"
    for name in ("causal", "rope", "show_additive", "scale_mode"):
        if not isinstance(getattr(options, name), bool):
            return f"{name} must be true or false"
    if options.heads not in (1, 2):
        return "the teaching world splits into 1 or 2 heads"
    sink = options.sink_logit
    if sink is not None and (
        isinstance(sink, bool) or not isinstance(sink, (int, float))
        or not np.isfinite(sink) or abs(sink) > SINK_LIMIT
    ):
        return f"the sink logit must be a number within ±{SINK_LIMIT:g}"
    for name, low, high in (("scale_T", 2, MAX_SCALE_T), ("scale_d", 1, 1024),
                            ("scale_seed", 0, 2**32 - 1)):
        value = getattr(options, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"{name} must be a whole number from {low} to {high}"
    if options.stage is not None and not isinstance(options.stage, str):
        return "stage must be a name"
    return None


@dataclass(frozen=True)
class LabState:
    """One complete, serialisable snapshot of what the user is looking at."""

    world: World
    scorer: str
    dialogue_q: np.ndarray
    dialogue_keys: np.ndarray
    teaching_q: np.ndarray
    teaching_k: np.ndarray
    query: int
    key: int
    positions: np.ndarray = field(default_factory=lambda: frozen_array([0, 1, 2, 3]))
    options: Options = field(default_factory=Options)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LabState):
            return NotImplemented
        return (
            self.world == other.world
            and self.scorer == other.scorer
            and self.query == other.query
            and self.key == other.key
            and self.options == other.options
            and all(
                np.array_equal(getattr(self, name), getattr(other, name))
                for name in ARRAY_FIELDS
            )
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """(queries, keys) of the active world as Tq×d and Tk×d matrices."""
        if self.world == "dialogue":
            return self.dialogue_q[np.newaxis, :], self.dialogue_keys
        return self.teaching_q, self.teaching_k

    def with_vector(self, role: Literal["q", "k"], index: int, values: np.ndarray) -> LabState:
        """Replace one query or key vector of the active world."""
        values = frozen_array(clamp_entries(np.asarray(values, dtype=np.float64)))
        if self.world == "dialogue":
            if role == "q":
                return replace(self, dialogue_q=values)
            keys = np.array(self.dialogue_keys)
            keys[index] = values
            return replace(self, dialogue_keys=frozen_array(keys))
        name = "teaching_q" if role == "q" else "teaching_k"
        matrix = np.array(getattr(self, name))
        matrix[index] = values
        return replace(self, **{name: frozen_array(matrix)})

    def with_world(self, world: World, selection: tuple[int, int] | None = None) -> LabState:
        """Switch world and select `selection` there (clamped to the world's size)."""
        moved = replace(self, world=world)
        queries, keys = moved.vectors
        query, key = selection if selection is not None else (len(queries) - 1, 0)
        return replace(moved, query=min(max(query, 0), len(queries) - 1),
                       key=min(max(key, 0), len(keys) - 1))


ARRAY_FIELDS = ("dialogue_q", "dialogue_keys", "teaching_q", "teaching_k", "positions")
