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
MAX_SCALE_D = 1024
MAX_SEED = 2**32 - 1
MAX_HEADS = 2
"""The timeline's heads stage shows the teaching world split into at most two heads."""
SINK_LIMIT = 50.0
"""A sink logit beyond ±50 already takes all or none of the weight; larger values add nothing."""
MAX_STAGE_NAME = 200
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "heads": (1, MAX_HEADS),
    "scale_T": (2, MAX_SCALE_T),
    "scale_d": (1, MAX_SCALE_D),
    "scale_seed": (0, MAX_SEED),
}
"""Whole-number options and their ranges: what the document accepts, a scenario may hold."""


def _shown(value: object) -> str:
    """A value as a message names it, never as a NumPy repr (np.float64(0.5) → 0.5)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    return repr(value) if isinstance(value, (int, float)) else type(value).__name__


def option_problem(options: Options) -> tuple[str, str] | None:
    """(option name, what is wrong) for the first option that cannot be shown, or None.

    The one rule for options: the document refuses such an edit and the scenario reader
    refuses such a file, so nothing a file holds is something the app would then refuse.
    """
    if options.heatmap_mode not in HEATMAP_MODES:
        return "heatmap_mode", (f"must be one of {', '.join(HEATMAP_MODES)}, "
                                f"found {_shown(options.heatmap_mode)}")
    for name in ("causal", "rope", "show_additive", "scale_mode"):
        value = getattr(options, name)
        if not isinstance(value, bool):
            return name, f"must be true or false, found {_shown(value)}"
    for name, (low, high) in OPTION_RANGES.items():
        value = getattr(options, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return name, f"must be a whole number from {low} to {high}, found {_shown(value)}"
    sink = options.sink_logit
    if sink is not None and (
        isinstance(sink, bool) or not isinstance(sink, (int, float))
        or not np.isfinite(sink) or abs(sink) > SINK_LIMIT
    ):
        return "sink_logit", (f"must be off (null) or a number from −{SINK_LIMIT:g} to "
                              f"{SINK_LIMIT:g}, found {_shown(sink)}")
    stage = options.stage
    if stage is not None and (not isinstance(stage, str) or len(stage) > MAX_STAGE_NAME):
        return "stage", f"must be a stage name (short text), found {_shown(stage)}"
    if stage is not None and not stage.isascii():
        try:
            stage.encode("utf-8")
        except UnicodeEncodeError:
            return "stage", "text contains a lone surrogate, which cannot be saved as UTF-8"
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
