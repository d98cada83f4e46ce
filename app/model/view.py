"""Everything the panels show, computed in one pass from a `LabState` and the lesson data.

One function, no Qt, no caching: the document calls it once per edit, the soak test calls it
from scratch and compares, and a notebook can call it directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from app.model.attention import (
    attention_weights,
    causal_mask,
    masked_scores,
    sink_weight,
    softmax,
    split_heads,
)
from app.model.breakdown import Breakdown, Swap, breakdown, disagreements, ranks
from app.model.data import LessonData
from app.model.plane import Plane, plane_geometry
from app.model.reasons import COMPARED, RowReasons, explain_row
from app.model.rope import rotate
from app.model.scoring import SCORERS, ScorerParams, Undefined, score_matrix
from app.model.state import LabState, World, frozen_array

LANDSCAPE_SAMPLES = 121
"""Grid points per axis of the 2-D score landscape: smooth on a projector, cheap per drag."""


@dataclass(frozen=True)
class Landscape:
    """The active scorer's value for q against every point k of a square of the plane."""

    extent: float
    xs: np.ndarray
    values: np.ndarray  # (len(ys), len(xs)), row-major: values[iy, ix]
    limit: float  # symmetric colour limit, so zero is always the middle colour


@dataclass(frozen=True)
class HeadView:
    """One attention head's slice of the teaching world (columns of Q and K)."""

    columns: tuple[int, int]
    weights: np.ndarray


@dataclass(frozen=True)
class View:
    """The computed picture of one state; panels only read it."""

    world: str
    scorer: str
    query_names: tuple[str, ...]
    key_names: tuple[str, ...]
    raw_q: np.ndarray
    raw_k: np.ndarray
    q: np.ndarray  # the vectors that are scored (after RoPE when it is on)
    k: np.ndarray
    scores: dict[str, np.ma.MaskedArray]
    active: np.ma.MaskedArray
    weights: np.ndarray  # softmax(q·k/√d) with the options' mask and sink
    sink_weight: np.ndarray | None  # per query row, when a sink logit is set
    allowed: np.ndarray  # True where a query may look at a key
    pair: Breakdown
    selected_score: float | Undefined
    row_ranks: dict[str, np.ndarray]
    swaps: tuple[Swap, ...]  # dot against cosine on the selected row
    heads: tuple[HeadView, ...]
    landscape: Landscape | None
    plane: Plane | None  # the 2-D playground's lengths, angle, projection, iso-lines
    query: int  # the selected query row

    @cached_property
    def reasons(self) -> RowReasons:
        """Why q·k disagrees with cosine and with distance on the selected row. Worked out
        when first read: only the match table reads it, and it costs more than every other
        number of a drag step together."""
        return explain_row(self.k, {name: self.scores[name][self.query]
                                    for name in ("dot", *COMPARED)})


def scorer_params(state: LabState, data: LessonData) -> ScorerParams:
    world = data.dialogue if state.world == "dialogue" else data.teaching
    return ScorerParams(additive=world.additive, qk_norm=world.qk_norm)


def lesson_selection(data: LessonData, world: World) -> tuple[int, int]:
    """Where the lesson starts in each world: the matching key in 2-D; the query token
    against its object (给了 against 苹果) in 4-D. Found by the data's roles, not by index."""
    if world == "dialogue":
        return 0, data.dialogue.key_index("match")
    return data.teaching.index("query"), data.teaching.index("object")


def initial_state(data: LessonData) -> LabState:
    """The lesson's starting point: the data files' vectors, in the 4-D teaching world."""
    teaching = data.teaching
    state = LabState(
        world="teaching",
        scorer="dot",
        dialogue_q=frozen_array(data.dialogue.q),
        dialogue_keys=frozen_array(data.dialogue.keys),
        teaching_q=frozen_array(teaching.Q),
        teaching_k=frozen_array(teaching.K),
        query=0,
        key=0,
        positions=frozen_array(data.dialogue.positions),
    )
    return state.with_world("teaching", lesson_selection(data, "teaching"))


def _names(state: LabState, data: LessonData) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if state.world == "dialogue":
        return (data.dialogue.query_token,), tuple(data.dialogue.key_tokens)
    tokens = tuple(data.teaching.tokens)
    return tokens, tokens


def _rotated(state: LabState, raw_q: np.ndarray, raw_k: np.ndarray) -> tuple[np.ndarray, ...]:
    """RoPE on the 2-D world: q at positions[0], key j at positions[j + 1]."""
    if not (state.options.rope and state.world == "dialogue"):
        return raw_q, raw_k
    positions = state.positions
    return rotate(raw_q, positions[:1]), rotate(raw_k, positions[1:])


def _landscape(state: LabState, q: np.ndarray, k: np.ndarray,
               params: ScorerParams) -> Landscape | None:
    if state.world != "dialogue":
        return None
    reach = float(np.max(np.abs(np.vstack([q, k])))) if q.size else 1.0
    extent = max(4.0, np.ceil(reach * 1.25))
    xs = np.linspace(-extent, extent, LANDSCAPE_SAMPLES)
    gx, gy = np.meshgrid(xs, xs)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    field = score_matrix(state.scorer, q[:1], points, params)
    values = np.ma.filled(field.astype(np.float64), 0.0).reshape(gx.shape)
    limit = float(np.max(np.abs(values))) or 1.0
    return Landscape(extent=extent, xs=xs, values=values, limit=limit)


def _plane(state: LabState, q: np.ndarray, k: np.ndarray, landscape: Landscape | None,
           dots: np.ma.MaskedArray) -> Plane | None:
    if landscape is None:
        return None
    return plane_geometry(q[0], k, state.key, landscape.values, landscape.xs,
                          dot=float(dots[0, state.key]))


def _heads(state: LabState, q: np.ndarray, k: np.ndarray) -> tuple[HeadView, ...]:
    if state.options.heads <= 1 or q.shape[1] % state.options.heads:
        return ()
    count = state.options.heads
    q_heads, k_heads = split_heads(q, count), split_heads(k, count)
    width = q.shape[1] // count
    return tuple(
        HeadView(
            columns=(h * width, (h + 1) * width - 1),
            weights=attention_weights(q_heads[h], k_heads[h], scale=True,
                                      causal=state.options.causal),
        )
        for h in range(count)
    )


def compute_view(state: LabState, data: LessonData) -> View:
    """Recompute every number on screen from the state; pure and deterministic."""
    raw_q, raw_k = state.vectors
    q, k = _rotated(state, raw_q, raw_k)
    params = scorer_params(state, data)
    scores = {name: score_matrix(name, q, k, params) for name in SCORERS}
    tq, tk = len(q), len(k)
    options = state.options
    causal = options.causal and state.world == "teaching"
    allowed = causal_mask(tq, tk) if causal else np.ones((tq, tk), dtype=bool)
    sink = options.sink_logit
    # Weights and the sink's share come from the scaled_dot matrix the heatmap shows, and the
    # share is the sink's own softmax weight: 1 − Σ weights cancels to −2e-16 at sink −50.
    logits = masked_scores(scores["scaled_dot"], allowed) if causal else scores["scaled_dot"]
    weights = softmax(logits, sink_logit=sink)
    sink_share = sink_weight(logits, sink) if sink is not None else None
    row = state.query
    pair = breakdown(q[row], k[state.key], total=float(scores["dot"][row, state.key]))
    active = scores[state.scorer]
    cell = active[row, state.key]
    selected = Undefined("zero-length vector") if cell is np.ma.masked else float(cell)
    row_ranks = {name: ranks(matrix[row]) for name, matrix in scores.items()}
    swaps = tuple(disagreements(scores["dot"][row], scores["cosine"][row]))
    landscape = _landscape(state, q, k, params)
    query_names, key_names = _names(state, data)
    return View(
        world=state.world,
        scorer=state.scorer,
        query_names=query_names,
        key_names=key_names,
        raw_q=raw_q,
        raw_k=raw_k,
        q=q,
        k=k,
        scores=scores,
        active=active,
        weights=weights,
        sink_weight=sink_share,
        allowed=allowed,
        pair=pair,
        selected_score=selected,
        row_ranks=row_ranks,
        swaps=swaps,
        heads=_heads(state, q, k) if state.world == "teaching" else (),
        landscape=landscape,
        plane=_plane(state, q, k, landscape, scores["dot"]),
        query=row,
    )
