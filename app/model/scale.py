"""Owns scale mode's numbers: seeded random Q, K, their score matrix in row blocks, and its
downsampling to screen size (pure NumPy, no Qt, so the worker thread can run it).

The full T×T matrix is never held: rows are scored a block at a time and each block is
reduced at once, so T = 4096 needs a few MiB, and a stale request can stop between blocks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from app.model.attention import masked_scores, softmax
from app.model.memory import additive_intermediate_bytes, score_matrix_bytes
from app.model.nice import snap_out
from app.model.scoring import SCORERS, ScorerParams, get_scorer, score_matrix
from app.model.scoring.additive import AdditiveWeights
from app.model.scoring.qknorm import QKNormWeights

SCALE_TS: tuple[int, ...] = tuple(2**power for power in range(3, 13))
"""The T selector's choices, 8 … 4096: powers of two, so every doubling shows a 4× matrix."""
MAX_T = SCALE_TS[-1]
BF16_BYTES = 2
"""Bytes per stored score, BF16 as in the lesson's memory figures."""
BLOCK_CELLS = 1 << 20
"""Scores computed per block (about 4 MiB in float32): bounded memory, frequent stop checks."""


@dataclass(frozen=True)
class ScaleRequest:
    """Everything that decides one scale-mode picture; equal requests give equal pictures."""

    T: int
    d: int = 256
    seed: int = 0
    scorer: str = "dot"
    mode: str = "scores"
    causal: bool = False
    target_px: int = 512

    def __post_init__(self) -> None:
        for name in ("T", "d", "target_px"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive whole number, got {value!r}")
        if self.T > MAX_T:
            raise ValueError(f"T = {self.T} is above the scale mode's limit {MAX_T}")
        if self.scorer not in SCORERS:
            raise ValueError(f"unknown scorer {self.scorer!r}")
        if self.mode not in ("scores", "weights"):
            raise ValueError(f"mode must be 'scores' or 'weights', got {self.mode!r}")


@dataclass(frozen=True)
class ScaleCost:
    """How the matrix grows with T: pairs and bytes, as the lesson counts them."""

    T: int
    pairs: int
    score_bytes: int
    additive_bytes: int


@dataclass(frozen=True, eq=False)
class ScaleResult:
    """A downsampled picture: image[r, c] summarises queries r·factor… × keys c·factor…."""

    request: ScaleRequest
    image: np.ndarray
    factor: int
    levels: tuple[float, float]
    cost: ScaleCost


def scale_cost(T: int, d: int) -> ScaleCost:
    """T² pairs; the dot product keeps T² scores, additive's naive tensor T²·d_a (d_a = d)."""
    return ScaleCost(
        T=T,
        pairs=T * T,
        score_bytes=score_matrix_bytes(T, BF16_BYTES),
        additive_bytes=additive_intermediate_bytes(T, d, BF16_BYTES),
    )


def random_qk(T: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit-variance Q and K (float32), reproducible: the same seed gives the same matrices.

    Entries are uniform on ±√3, whose variance is 1, so q·k still spreads as √d, the
    lesson's premise; drawing them takes a third of the time normals take, and at T = 4096
    drawing was the largest part of waiting for a new picture.
    """
    rng = np.random.default_rng(seed)
    QK = rng.random((2 * T, d), dtype=np.float32)
    QK -= np.float32(0.5)
    QK *= np.float32(2.0 * math.sqrt(3.0))
    return QK[:T], QK[T:]


def random_params(d: int, seed: int) -> ScorerParams:
    """Random additive weights (d_a = d) and unit QK-norm gain, from the same seeded stream."""
    rng = np.random.default_rng([seed, 1])
    spread = 1.0 / math.sqrt(d)
    additive = AdditiveWeights(
        W1=rng.normal(0.0, spread, (d, d)),
        W2=rng.normal(0.0, spread, (d, d)),
        v=rng.normal(0.0, spread, d),
    )
    return ScorerParams(additive=additive, qk_norm=QKNormWeights(gain=np.ones(d), eps=1e-6))


def downsample_factor(T: int, target_px: int) -> int:
    """The smallest power of two that brings T cells down to at most target_px pixels."""
    factor = 1
    while math.ceil(T / factor) > target_px:
        factor *= 2
    return factor


def _block_reduce(ufunc: np.ufunc, values: np.ndarray, factor: int, axis: int) -> np.ndarray:
    """fmax or fmin over each run of `factor` neighbours along `axis`, NaN skipped.

    `factor` strided slices, one elementwise ufunc call each: about 10× faster than
    `ufunc.reduceat`, whose inner loop is only `factor` long (found by the benchmark).
    """
    length = values.shape[axis]
    if length % factor:  # NaN padding is skipped like a masked cell
        padding = [(0, 0)] * values.ndim
        padding[axis] = (0, -length % factor)
        values = np.pad(values, padding, constant_values=np.nan)
    def run(offset: int) -> np.ndarray:
        index: list[slice] = [slice(None)] * values.ndim
        index[axis] = slice(offset, None, factor)
        return values[tuple(index)]

    # factor ≥ 2; the first call allocates, no separate copy
    out: np.ndarray = ufunc(run(0), run(1))
    for offset in range(2, factor):
        ufunc(out, run(offset), out=out)
    return out


def _farthest(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    """With low ≤ high, |low| > |high| exactly when −low > high (NaN stays NaN)."""
    return np.where(-low > high, low, high)


def block_extreme(values: np.ndarray, factor: int, axis: int) -> np.ndarray:
    """Reduce `factor` neighbours along `axis` to the one farthest from zero, sign kept.

    Block-max of |value| keeps the peaks a teacher points at (and the sign the colour map
    shows); NaN cells (masked) are skipped, and an all-NaN block stays NaN.
    """
    if factor == 1:
        return values
    return _farthest(_block_reduce(np.fmax, values, factor, axis),
                     _block_reduce(np.fmin, values, factor, axis))


def block_image(values: np.ndarray, factor: int) -> np.ndarray:
    """`block_extreme` over both axes at once: each factor×factor block's max and min first
    (rows, then columns), then one pick, which equals reducing one axis after the other."""
    if factor == 1:
        return values
    high = _block_reduce(np.fmax, _block_reduce(np.fmax, values, factor, 0), factor, 1)
    low = _block_reduce(np.fmin, _block_reduce(np.fmin, values, factor, 0), factor, 1)
    return _farthest(high, low)


def patched_block_image(image: np.ndarray, values: np.ndarray, factor: int, role: str,
                        index: int) -> np.ndarray:
    """`image` (the `block_image` of `values` before one query's row or one key's column
    changed) with that row's or column's strip of blocks reduced again: a T = 4096 drag
    step reduces T·factor cells instead of T²."""
    if factor == 1:
        return values
    out: np.ndarray = image.copy()
    block = index // factor
    cells = slice(block * factor, (block + 1) * factor)
    if role == "q":
        out[block] = block_image(values[cells], factor)[0]
    else:
        out[:, block] = block_image(values[:, cells], factor)[:, 0]
    return out


def _block_values(request: ScaleRequest, Q: np.ndarray, K: np.ndarray, rows: slice,
                  params: ScorerParams) -> np.ndarray:
    """Scores or weights of a block of query rows; masked cells are NaN in score mode."""
    block = Q[rows]
    allowed = None
    if request.causal:
        allowed = np.arange(K.shape[0])[None, :] <= np.arange(rows.start, rows.stop)[:, None]
    scores = score_matrix(request.scorer, block, K, params)
    if request.mode == "weights":  # the weights follow the scorer, as the lesson's heatmap
        logits = masked_scores(scores, allowed) if allowed is not None else scores
        return softmax(logits, axis=-1)
    values = np.ma.filled(scores.astype(np.float32, copy=False), np.nan)
    if allowed is not None:
        values[~allowed] = np.nan
    return values


def compute_scale(request: ScaleRequest,
                  should_stop: Callable[[], bool] = lambda: False) -> ScaleResult | None:
    """The downsampled picture for `request`, or None when `should_stop()` turns true."""
    Q, K = random_qk(request.T, request.d, request.seed)
    needs = get_scorer(request.scorer).needs
    params = random_params(request.d, request.seed) if needs else ScorerParams()
    factor = downsample_factor(request.T, request.target_px)
    rows_per_block = max(factor, (BLOCK_CELLS // request.T) // factor * factor)
    parts = []
    for start in range(0, request.T, rows_per_block):
        if should_stop():
            return None
        rows = slice(start, min(start + rows_per_block, request.T))
        values = _block_values(request, Q, K, rows, params)
        parts.append(block_image(values, factor))
    image = np.ascontiguousarray(np.vstack(parts), dtype=np.float32)
    return ScaleResult(request=request, image=image, factor=factor,
                       levels=display_levels(request, image), cost=scale_cost(request.T, request.d))


def display_levels(request: ScaleRequest, image: np.ndarray) -> tuple[float, float]:
    """Colour levels fixed by meaning: 0…1 for weights, the scorer's bounds, else ±max|S|."""
    if request.mode == "weights":
        return 0.0, 1.0
    return score_levels(request.scorer, image)


def score_levels(scorer: str, values: np.ndarray) -> tuple[float, float]:
    """Symmetric ±max|S| for signed scores (zero = the middle colour), data range otherwise,
    each end rounded outward (`snap_out`): the colour bar reads in round numbers and holds
    still while a drag moves the scores inside one grid step."""
    spec = get_scorer(scorer)
    if spec.bounded is not None:
        return spec.bounded
    low, high = _finite_range(values)
    if math.isnan(low):
        return -1.0, 1.0
    if spec.signed:
        reach = snap_out(0.0, max(abs(low), abs(high)) or 1.0)[1]
        return -reach, reach
    return snap_out(low, high) if high > low else (low - 1.0, high + 1.0)


def _finite_range(values: np.ndarray) -> tuple[float, float]:
    """The least and the greatest finite value (NaN, NaN when there is none). NaN is
    skipped by fmin/fmax as it is read, so a large import's picture (a million cells, read
    at every drag step) is not first copied without it; only an infinity needs that."""
    if values.size == 0:
        return math.nan, math.nan
    low, high = float(np.fmin.reduce(values, axis=None)), float(np.fmax.reduce(values, axis=None))
    if math.isinf(low) or math.isinf(high):
        finite = values[np.isfinite(values)]
        if finite.size == 0:
            return math.nan, math.nan
        low, high = float(finite.min()), float(finite.max())
    return low, high
