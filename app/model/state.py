"""The editable state of one lab session, as a plain immutable value (no Qt).

Every edit produces a new `LabState`; undo keeps the old one. Arrays are read-only so
nobody can change a state in place behind the document's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Literal

import numpy as np
import numpy.typing as npt

from app.model.capture import VALUE_LIMIT, Capture

Role = Literal["q", "k"]
"""A vector's role: a query or a key."""
World = Literal["dialogue", "teaching", "imported"]
WORLDS: tuple[World, ...] = ("dialogue", "teaching", "imported")
"""imported: a trained model's own q and k (`app.model.capture`), once a file was imported."""
HeatmapMode = Literal["scores", "weights"]
HEATMAP_MODES: tuple[HeatmapMode, ...] = ("scores", "weights")
HeatmapSource = Literal["qk", "embeddings"]
HEATMAP_SOURCES: tuple[HeatmapSource, ...] = ("qk", "embeddings")
"""What the teaching world's heatmap compares: projected Q, K or the raw embeddings E."""
ShapesScale = Literal["lesson", "anchor"]
SHAPES_SCALES: tuple[ShapesScale, ...] = ("lesson", "anchor")
"""The head the shapes panel draws: the lesson's d_h and tokens, or the anchor model's."""
Q_SCALES: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 4.0)
"""Lengths of q the weights may be computed at: powers of two, so scaling q is exact."""

EDIT_LIMIT = 100.0
"""Vector entries are clamped to ±EDIT_LIMIT: large enough for any lesson, small enough that
every score stays readable and finite on screen."""

POSITION_LIMIT = 1_000_000
"""RoPE positions are token indices, not vector entries: a demo may place a token at 4096 or
262144 (the anchor's context), so they get their own range instead of ±EDIT_LIMIT."""


def frozen_array(values: object) -> npt.NDArray[np.float64]:
    """A float64 copy that cannot be written to, so states can share arrays safely."""
    array = np.array(values, dtype=np.float64)
    array.flags.writeable = False
    return array


def clamp_entries(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Clamp to the documented editing range; the caller reports whether anything changed."""
    clamped: npt.NDArray[np.float64] = np.clip(values, -EDIT_LIMIT, EDIT_LIMIT)
    return clamped


@dataclass(frozen=True)
class Options:
    """Display choices that change what is computed or shown, undoable like vector edits."""

    heatmap_mode: HeatmapMode = "scores"
    causal: bool = False
    heads: int = 1
    sink_logit: float | None = None
    rope: bool = False
    rope_step: float = 1.0  # radians the 2-D RoPE demo turns per position (its frequency)
    show_additive: bool = False
    stage: str | None = None
    scale_mode: bool = False  # heatmap shows seeded random Q, K (T × scale_d) instead
    scale_T: int = 1024
    scale_d: int = 256
    scale_seed: int = 0
    q_scale: float = 1.0  # weights are softmax of the scorer at q_scale × q (one of Q_SCALES)
    heatmap_source: HeatmapSource = "qk"  # "embeddings": the heatmap shows cos(E·Eᵀ)
    shapes_scale: ShapesScale = "lesson"  # the shapes panel's d_h (and its T when unset)
    shapes_T: int | None = None  # None: the scale's own T (the lesson's tokens, the context)
    shapes_d_a: int | None = None  # the additive cube's depth dₐ; None: the anchor's head_dim


MAX_SCALE_T = 4096
MAX_SCALE_D = 1024
MAX_SEED = 2**32 - 1
MAX_HEADS = 2
"""The timeline's heads stage shows the teaching world split into at most two heads."""
ROPE_STEP_RANGE = (0.01, 3.14)
"""Radians per position for the RoPE demo: a hair above still to just under half a turn
(past π a step reads as the same turn backwards)."""
SINK_LIMIT = 50.0
"""A sink logit beyond ±50 already takes all or none of the weight; larger values add nothing."""
MAX_STAGE_NAME = 200
MAX_SHAPES_T = 2**20
"""The longest sequence the shapes panel is asked to size (the KV chart's longest context);
it draws at most the anchor's own context."""
MAX_SHAPES_D_A = 1024
"""The widest additive hidden size the shapes panel offers: four times the anchor's head_dim."""
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "heads": (1, MAX_HEADS),
    "scale_T": (2, MAX_SCALE_T),
    "scale_d": (1, MAX_SCALE_D),
    "scale_seed": (0, MAX_SEED),
}
"""Whole-number options and their ranges: what the document accepts, a scenario may hold."""
UNSET_RANGES: dict[str, tuple[int, int]] = {
    "shapes_T": (2, MAX_SHAPES_T),
    "shapes_d_a": (1, MAX_SHAPES_D_A),
}
"""Whole-number options that may also be unset (null: the panel's own default)."""


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
    if options.heatmap_source not in HEATMAP_SOURCES:
        return "heatmap_source", (f"must be one of {', '.join(HEATMAP_SOURCES)}, "
                                  f"found {_shown(options.heatmap_source)}")
    if options.q_scale not in Q_SCALES or isinstance(options.q_scale, bool):
        return "q_scale", (f"must be one of {', '.join(f'{s:g}' for s in Q_SCALES)}, "
                           f"found {_shown(options.q_scale)}")
    if options.shapes_scale not in SHAPES_SCALES:
        return "shapes_scale", (f"must be one of {', '.join(SHAPES_SCALES)}, "
                                f"found {_shown(options.shapes_scale)}")
    for name in ("causal", "rope", "show_additive", "scale_mode"):
        value = getattr(options, name)
        if not isinstance(value, bool):
            return name, f"must be true or false, found {_shown(value)}"
    for name, (low, high) in OPTION_RANGES.items():
        value = getattr(options, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return name, f"must be a whole number from {low} to {high}, found {_shown(value)}"
    for name, (low, high) in UNSET_RANGES.items():
        value = getattr(options, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not low <= value <= high):
            return name, (f"must be unset (null) or a whole number from {low} to {high}, "
                          f"found {_shown(value)}")
    sink = options.sink_logit
    if sink is not None and (
        isinstance(sink, bool) or not isinstance(sink, (int, float))
        or not np.isfinite(sink) or abs(sink) > SINK_LIMIT
    ):
        return "sink_logit", (f"must be off (null) or a number from −{SINK_LIMIT:g} to "
                              f"{SINK_LIMIT:g}, found {_shown(sink)}")
    step, (step_low, step_high) = options.rope_step, ROPE_STEP_RANGE
    if (isinstance(step, bool) or not isinstance(step, (int, float)) or not np.isfinite(step)
            or not step_low <= step <= step_high):
        return "rope_step", (f"must be a number of radians from {step_low:g} to {step_high:g}, "
                             f"found {_shown(step)}")
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
    dialogue_q: npt.NDArray[np.float64]
    dialogue_keys: npt.NDArray[np.float64]
    teaching_q: npt.NDArray[np.float64]
    teaching_k: npt.NDArray[np.float64]
    query: int
    key: int
    positions: npt.NDArray[np.float64] = field(default_factory=lambda: frozen_array([0, 1, 2, 3]))
    options: Options = field(default_factory=Options)
    imported: Capture | None = None  # the imported world's q, k, names and weights
    teaching_tokens: tuple[str, ...] | None = None  # the 4-D world's names; None: the data's
    teaching_colours: tuple[int, ...] | None = None  # each 4-D token's colour slot; None: its row

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LabState):
            return NotImplemented
        return (
            self.world == other.world
            and self.scorer == other.scorer
            and self.query == other.query
            and self.key == other.key
            and self.options == other.options
            and self.imported == other.imported
            and self.teaching_tokens == other.teaching_tokens
            and self.teaching_colours == other.teaching_colours
            and all(
                np.array_equal(getattr(self, name), getattr(other, name))
                for name in ARRAY_FIELDS
            )
        )

    __hash__ = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        # the imported world exists only with an import: without one it is the 4-D world
        if self.world == "imported" and self.imported is None:
            object.__setattr__(self, "world", "teaching")

    @property
    def reshaped(self) -> bool:
        """The 4-D world's tokens or width were changed (app/model/reshape.py): the lesson's
        quoted numbers then belong to its own five tokens, not to what is on screen."""
        return self.teaching_tokens is not None

    @property
    def vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """(queries, keys) of the active world as Tq×d and Tk×d matrices."""
        if self.world == "dialogue":
            return self.dialogue_q[np.newaxis, :], self.dialogue_keys
        if self.world == "imported" and self.imported is not None:
            return self.imported.queries, self.imported.keys
        return self.teaching_q, self.teaching_k

    def with_vector(self, role: Role, index: int, values: np.ndarray) -> LabState:
        """Replace one query or key vector of the active world."""
        if self.world == "imported" and self.imported is not None:
            return replace(self, imported=_imported_with(self.imported, role, index, values))
        values = frozen_array(clamp_entries(np.asarray(values, dtype=np.float64)))
        if self.world == "dialogue":
            if role == "q":
                return replace(self, dialogue_q=values)
            keys = np.array(self.dialogue_keys)
            keys[index] = values
            return replace(self, dialogue_keys=frozen_array(keys))
        matrix = np.array(self.teaching_q if role == "q" else self.teaching_k)
        matrix[index] = values
        if role == "q":
            return replace(self, teaching_q=frozen_array(matrix))
        return replace(self, teaching_k=frozen_array(matrix))

    def with_world(self, world: World, selection: tuple[int, int] | None = None) -> LabState:
        """Switch world and select `selection` there (clamped to the world's size)."""
        moved = replace(self, world=world)
        queries, keys = moved.vectors
        query, key = selection if selection is not None else (len(queries) - 1, 0)
        return replace(moved, query=min(max(query, 0), len(queries) - 1),
                       key=min(max(key, 0), len(keys) - 1))


ARRAY_FIELDS = ("dialogue_q", "dialogue_keys", "teaching_q", "teaching_k", "positions")


def _imported_with(capture: Capture, role: str, index: int, values: np.ndarray) -> Capture:
    """A captured vector edited: clamped to the import's own range, not the lesson's ±100."""
    return capture.with_vector(role, index, np.clip(np.asarray(values, dtype=np.float64),
                                                    -VALUE_LIMIT, VALUE_LIMIT))


STATE_FIELDS = tuple(f.name for f in fields(LabState))
"""Every field of `LabState`, the names a change lists (`changed_fields`)."""


def changed_fields(before: LabState, after: LabState) -> frozenset[str]:
    """The fields of `after` that differ from `before`: the same object first (an unchanged
    field of an immutable state is the very object), then by value."""
    if before is after:
        return frozenset()
    found = []
    for name in STATE_FIELDS:
        old, new = getattr(before, name), getattr(after, name)
        if old is new:
            continue
        same = (np.array_equal(old, new) if isinstance(old, np.ndarray) else old == new)
        if not same:
            found.append(name)
    return frozenset(found)
