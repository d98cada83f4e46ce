"""Everything the panels show, computed in one pass from a `LabState` and the lesson data.

One function, no Qt, no caching across edits: the document calls it once per edit, the soak
test calls it from scratch and compares, and a notebook can call it directly. What only some
panels read (the other scorers' matrices, rows and ranks) is worked out when first read.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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
from app.model.capture.view import (
    FULL_CELLS,
    SWAP_KEYS,
    available_scorers,
    edited_vector,
    explain_top,
    imported_scores,
    patched_matrix,
    row_weights_only,
    selected_row,
    selected_row_weights,
)
from app.model.embeddings import embedding_cosines
from app.model.landscape import Landscape, landscape_of
from app.model.lazy_map import LazyMap
from app.model.lesson.data import LessonData
from app.model.plane import Plane, plane_geometry
from app.model.reasons import COMPARED, RowReasons
from app.model.reshape import scorer_usable, tokens_of, weights_fit
from app.model.rope import rotate
from app.model.scale import block_image
from app.model.scoring import SCORERS, ScorerParams, Undefined, score_matrix
from app.model.scoring.breakdown import Breakdown, Swap, breakdown, disagreements, ranks
from app.model.state import LabState, World, changed_fields, frozen_array

_SERIALS = itertools.count(1)
PREPARED_FACTOR = 16
"""The coarsest picture of a large import made ahead: 4,096 cells on a plot of 256 pixels."""
LANDSCAPES_KEPT = 8
"""Landscapes one view keeps (per scorer and plot shape): the four of the landscapes dock and
the playground's, with room for a resize; older shapes are dropped first."""


@dataclass(frozen=True)
class HeadView:
    """One attention head's slice of the teaching world (columns of Q and K)."""

    columns: tuple[int, int]
    weights: np.ndarray


@dataclass(frozen=True)
class Embeddings:
    """The data file's embeddings compared directly: cosine of every pair of rows of E."""

    cos: np.ma.MaskedArray  # (T, T), from the scorer registry's own cosine
    row_ranks: np.ndarray  # ranks on the selected query's row, 1 = most similar


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
    scores: Mapping[str, np.ma.MaskedArray]
    """Every scorer's matrix this world can show, each worked out when first read (a
    mapping of the imported world's few, already computed)."""
    active: np.ma.MaskedArray
    weights: np.ndarray  # softmax of the selected scorer at q_scale × q, mask and sink
    # (a large import showing scores: the selected row only, NaN elsewhere; capture_view.py)
    weight_scores: np.ma.MaskedArray  # the matrix those weights are the softmax of
    sink_weight: np.ndarray | None  # per query row, when a sink logit is set
    allowed: np.ndarray  # True where a query may look at a key
    masking: bool  # some query may not look at some key (`allowed` is not all True)
    pair: Breakdown
    selected_score: float | Undefined
    row_ranks: Mapping[str, np.ndarray]
    heads: tuple[HeadView, ...]
    plane: Plane | None  # the 2-D playground's lengths, angle and projection
    query: int  # the selected query row
    embeddings: Embeddings | None = None  # the teaching world's cos(E·Eᵀ), when E fits
    baseline: Mapping[str, np.ma.MaskedArray] | None = None
    """Every scorer's matrix with RoPE off: `scores` itself unless RoPE turns the 2-D pair, so
    the rotated scores always have their unrotated counterpart beside them."""

    row_scores: Mapping[str, np.ma.MaskedArray] = field(default_factory=dict)
    """The selected query's row of every scorer this world can show (in the imported world
    the only place the scorers other than the active one and dot are computed)."""

    @cached_property
    def swaps(self) -> tuple[Swap, ...]:
        """Dot against cosine on the selected row, by key; pairwise work, so only for rows
        a class reads (up to SWAP_KEYS keys)."""
        if len(self.k) > SWAP_KEYS:
            return ()
        return tuple(disagreements(self.row_scores["dot"], self.row_scores["cosine"]))

    @cached_property
    def reasons(self) -> RowReasons:
        """Why q·k disagrees with cosine and with distance on the selected row. Worked out
        when first read: only the match table reads it, and it costs more than every other
        number of a drag step together."""
        return explain_top(self.k, {name: self.row_scores[name]
                                    for name in ("dot", *COMPARED)})

    @cached_property
    def shown(self) -> np.ndarray:
        """The active scores with NaN where the mask removes a key, as a picture colours
        them (float32 stays float32, and nothing is copied when nothing is masked)."""
        values = np.ma.filled(self.active, np.nan)
        if self.masking:
            values = np.where(self.allowed, values, np.nan)
        return values

    @cached_property
    def shown_halved(self) -> np.ndarray:
        """`shown` with each 2×2 block reduced to its value farthest from zero: the picture
        at any coarser power-of-two factor is this quarter of the cells reduced the same
        way (`block_image`), so it can be computed ahead, off the UI thread."""
        return block_image(self.shown, 2)

    def shown_reduced(self, factor: int) -> np.ndarray:
        """`shown` reduced factor×factor (a power of two ≥ 2) as `block_image` reduces it,
        made from the level below and kept: the picture a plot of any size draws."""
        kept = self._reduced
        if factor not in kept:
            kept[factor] = (self.shown_halved if factor <= 2
                            else block_image(self.shown_reduced(factor // 2), 2))
        return kept[factor]

    @cached_property
    def _reduced(self) -> dict[int, np.ndarray]:
        return {}

    def prepare(self) -> None:
        """Compute ahead, on the worker that made this view, what a large import's first
        frame reads: the picture at every factor a plot may draw it (reducing its 16 million
        cells took the UI thread about 30 ms), and the selected row under every scorer, its
        ranks and the reasons the match table gives (about 10 ms more)."""
        if self.world != "imported" or self.active.size <= FULL_CELLS:
            return
        factor = 2
        while factor < PREPARED_FACTOR:
            factor *= 2
            self.shown_reduced(factor)
        for name in self.row_ranks:
            _ = self.row_ranks[name]
        _ = self.reasons

    params: ScorerParams | None = None  # the world's weights, for landscapes drawn later
    serial: int = field(default_factory=lambda: next(_SERIALS))
    """Tells views apart, so a view patched from another can name it in `patch`."""
    patch: tuple[int, str, int] | None = None
    """(the serial of the view this one was patched from, "q" or "k", index): its matrices
    are that view's with one row or column scored again, so a picture drawn from that view
    needs only that strip drawn again."""

    def landscape_at(self, aspect: float = 1.0, scorer: str | None = None) -> Landscape | None:
        """`scorer`'s (default: the active one's) landscape of the 2-D world over a rectangle
        of width : height = `aspect`, the shape of the plot that asks. Computed when first
        asked for and kept with this view, so a drag pays only for the landscapes on screen."""
        if self.world != "dialogue" or self.plane is None:
            return None
        key = (scorer or self.scorer, round(float(aspect), 3))
        kept = self._landscapes
        if key not in kept:
            if len(kept) >= LANDSCAPES_KEPT:
                del kept[next(iter(kept))]
            kept[key] = landscape_of(key[0], self.q[0], self.k, self.params, key[1])
        return kept[key]

    @property
    def landscape(self) -> Landscape | None:
        """The active scorer's landscape over a square (a notebook's or a test's picture)."""
        return self.landscape_at(1.0)

    @cached_property
    def _landscapes(self) -> dict[tuple[str, float], Landscape]:
        return {}


def scorer_params(state: LabState, data: LessonData) -> ScorerParams:
    if state.world == "imported" and state.imported is not None:
        return state.imported.params  # the capture's own learned weights, where it has them
    world = data.dialogue if state.world == "dialogue" else data.teaching
    if state.world == "teaching" and not weights_fit(state, data):
        return ScorerParams()  # learned per dimension of the lesson's d: a new d has none
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
    if state.world == "imported" and state.imported is not None:
        return state.imported.query_names, state.imported.key_names
    tokens = tokens_of(state, data)
    return tokens, tokens


def rope_applies(state: LabState) -> bool:
    """RoPE turns only the 2-D world's pair (one rotation plane, one frequency to choose)."""
    return state.options.rope and state.world == "dialogue"


def _rotated(state: LabState, raw_q: np.ndarray, raw_k: np.ndarray) -> tuple[np.ndarray, ...]:
    """RoPE on the 2-D world: q at positions[0], key j at positions[j + 1], turned by
    `rope_step` radians per position."""
    if not rope_applies(state):
        return raw_q, raw_k
    positions, step = state.positions, state.options.rope_step
    return rotate(raw_q, positions[:1], step=step), rotate(raw_k, positions[1:], step=step)


def _plane(state: LabState, q: np.ndarray, k: np.ndarray,
           dots: np.ma.MaskedArray) -> Plane | None:
    """The 2-D world's geometry (its landscapes are drawn later, at each plot's shape)."""
    if state.world != "dialogue":
        return None
    return plane_geometry(q[0], k, state.key, dot=float(dots[0, state.key]))


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


def _weight_scores(state: LabState, q: np.ndarray, k: np.ndarray, params: ScorerParams,
                   scores: Mapping[str, np.ma.MaskedArray],
                   since: Edited | None = None, reuse: bool = False) -> np.ma.MaskedArray:
    """The selected scorer's matrix the weights are taken from: the one on screen, or the
    same scorer at q_scale × q (a power of two, so a longer q is exactly a longer q)."""
    scale = state.options.q_scale
    if scale == 1.0:
        return scores[state.scorer]
    if since is not None:
        return patched_matrix(state.scorer, since.view.weight_scores, q * scale, k, params,
                              since.edit, in_place=reuse)
    return score_matrix(state.scorer, q * scale, k, params)


@dataclass(frozen=True)
class Edited:
    """The view before a drag step and the one vector the step edited."""

    view: View
    edit: tuple[str, int]


def _edited(state: LabState, since: tuple[LabState, View] | None) -> Edited | None:
    if since is None:
        return None
    edit = edited_vector(since[0], state)
    return None if edit is None else Edited(since[1], edit)


def _patched_rows(since: Edited | None, row_only: bool, logits: Callable[[int], np.ndarray],
                  sink: float | None, reuse: bool) -> tuple[np.ndarray, np.ndarray | None] | None:
    """A query's edit moves only its own row of weights (and sink share); a key's edit moves
    every row's denominator, so only the query's edit is patched."""
    if since is None or row_only or since.edit[0] != "q":
        return None
    index = since.edit[1]
    weights = since.view.weights if reuse else since.view.weights.copy()
    row = logits(index)
    weights[index] = softmax(row, sink_logit=sink)[0]
    share = since.view.sink_weight
    if share is not None and sink is not None:
        share = share.copy()
        share[index] = sink_weight(row, sink)[0]
    return weights, share


def _embeddings(state: LabState, data: LessonData,
                names: tuple[str, ...]) -> Embeddings | None:
    """cos(E·Eᵀ) of the data file's embeddings, while the teaching world's tokens are still
    the ones E was written for (a reshaped world has no embeddings to compare)."""
    E = data.teaching.E
    if state.world != "teaching" or names != tuple(data.teaching.tokens) or len(E) != len(
            state.teaching_q):
        return None
    cos = embedding_cosines(E)
    return Embeddings(cos=cos, row_ranks=ranks(cos[state.query]))


OTHER_WORLDS = frozenset({"dialogue_q", "dialogue_keys", "teaching_q", "teaching_k",
                          "positions", "teaching_tokens", "teaching_colours"})
"""The state's fields that only the lesson's worlds read."""


def imported_view_holds(computed: LabState, state: LabState) -> bool:
    """Whether the view of the imported world `computed` is also `state`'s: an import is
    computed off the UI thread while the class may go on editing the lesson's worlds, whose
    vectors the imported world's view never reads."""
    return (computed.world == state.world == "imported"
            and changed_fields(computed, state) <= OTHER_WORLDS)


def costly(before: LabState, state: LabState) -> bool:
    """Whether `state`'s view, after `before`'s, is a large import's computed from scratch
    (the full matrices of up to 4,096 × 4,096 cells: most of a second), not patched from
    `before`'s view (one vector edited) nor a small world's."""
    capture = state.imported if state.world == "imported" else None
    if capture is None or len(capture.queries) * len(capture.keys) <= FULL_CELLS:
        return False
    return edited_vector(before, state) is None


def compute_view(state: LabState, data: LessonData,
                 since: tuple[LabState, View] | None = None, reuse: bool = False) -> View:
    """Recompute every number on screen from the state; pure and deterministic.

    `since` is the previous state and its view: when the new state only edits one captured
    vector, the matrices are that view's with one row or column scored again (a T = 4096
    import's drag step), equal to what a full recompute gives. With `reuse` the caller
    gives that view up: its T×T arrays are patched in place and become the new view's,
    since copying 16 million cells costs more than the whole rest of the step."""
    raw_q, raw_k = state.vectors
    q, k = _rotated(state, raw_q, raw_k)
    params = scorer_params(state, data)
    capture = state.imported if state.world == "imported" else None
    edited = _edited(state, since)
    scores: Mapping[str, np.ma.MaskedArray]
    if edited is not None and capture is not None:  # an edit is only ever of an import
        scores = {name: patched_matrix(name, before, q, k, params, edited.edit, in_place=reuse)
                  for name, before in edited.view.scores.items()}
        scored = available_scorers(capture)
    elif capture is not None:  # T up to 4096: full matrices only for what is drawn
        scores = imported_scores(capture, state.scorer, q, k)
        scored = available_scorers(capture)
    else:
        scored = tuple(name for name in SCORERS  # a reshaped d: no learned weights
                       if scorer_usable(state, data, name))
        scores = LazyMap(scored, lambda name: score_matrix(name, q, k, params))
    tq, tk = len(q), len(k)
    options = state.options
    causal = options.causal and state.world in ("teaching", "imported")
    if edited is not None:  # an edit moves no mask: reading 16 million cells again is a ms
        allowed, masking = edited.view.allowed, edited.view.masking
    else:
        allowed = causal_mask(tq, tk) if causal else np.ones((tq, tk), dtype=bool)
        masking = not allowed.all()
    sink = options.sink_logit
    # Weights and the sink's share come from the selected scorer's matrix the heatmap shows
    # (at a longer or shorter q, that scorer's matrix for q_scale × q), and the share is the
    # sink's own softmax weight: 1 − Σ weights cancels to −2e-16 at sink −50.
    weight_scores = _weight_scores(state, q, k, params, scores, edited, reuse)
    row_only = row_weights_only(state, weight_scores.shape)
    row = state.query

    def logits_of(index: int) -> np.ndarray:
        scored_row = weight_scores[index:index + 1]
        return masked_scores(scored_row, allowed[index:index + 1]) if causal else scored_row

    patched = _patched_rows(edited, row_only, logits_of, sink, reuse)
    if patched is not None:
        weights, sink_share = patched
    else:
        logits = (masked_scores(weight_scores, allowed) if causal and (sink is not None
                                                                       or not row_only)
                  else weight_scores)
        if row_only and reuse and edited is not None:  # the one row of numbers moves
            weights = edited.view.weights
            weights[edited.view.query] = np.nan
            weights[row] = selected_row_weights(logits_of(row), (1, len(k)), 0, sink)[0]
        else:
            weights = (selected_row_weights(logits_of(row), weight_scores.shape, row, sink)
                       if row_only else softmax(logits, sink_logit=sink))
        sink_share = sink_weight(logits, sink) if sink is not None else None
    pair = breakdown(q[row], k[state.key], total=float(scores["dot"][row, state.key]))
    active = scores[state.scorer]
    cell = active[row, state.key]
    selected = Undefined("zero-length vector") if cell is np.ma.masked else float(cell)
    row_scores = LazyMap(scored, lambda name: selected_row(scores, name, q, k, row, capture))
    row_ranks = LazyMap(scored, lambda name: ranks(row_scores[name]))
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
        weight_scores=weight_scores,
        sink_weight=sink_share,
        allowed=allowed,
        masking=masking,
        pair=pair,
        selected_score=selected,
        row_ranks=row_ranks,
        row_scores=row_scores,
        heads=_heads(state, q, k) if state.world == "teaching" else (),
        plane=_plane(state, q, k, scores["dot"]),
        params=params,
        query=row,
        embeddings=_embeddings(state, data, query_names),
        baseline=(LazyMap(SCORERS, lambda name: score_matrix(name, raw_q, raw_k, params))
                  if rope_applies(state) else scores),
        patch=None if edited is None else (edited.view.serial, *edited.edit),
    )
