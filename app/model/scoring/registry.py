"""Owns the registry of query–key scoring functions and the validated entry points to them."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.model.scoring.additive import AdditiveWeights, additive_matrix, additive_pair
from app.model.scoring.qknorm import QKNormWeights, rms_norm

__all__ = [
    "SCORERS",
    "UNDEFINED_ZERO",
    "Scorer",
    "ScorerParams",
    "Undefined",
    "as_vectors",
    "get_scorer",
    "register",
    "score_matrix",
    "score_pair",
]


@dataclass(frozen=True)
class Undefined:
    """A score that has no value (and why), returned instead of a silent NaN."""

    reason: str


UNDEFINED_ZERO = Undefined("zero-length vector")


@dataclass(frozen=True)
class ScorerParams:
    """Learned weights some scorers need; a scorer's `needs` names the field it reads."""

    additive: AdditiveWeights | None = None
    qk_norm: QKNormWeights | None = None


MatrixFn = Callable[[np.ndarray, np.ndarray, "ScorerParams | None"], Any]
PairFn = Callable[[np.ndarray, np.ndarray, "ScorerParams | None"], "float | Undefined"]


@dataclass(frozen=True)
class Scorer:
    """One scoring function plus what a UI needs to display it.

    `matrix` and `pair` validate their inputs (ValueError). `signed`: scores take both signs, so
    a colour scale should centre on 0. `bounded`: fixed (lo, hi) range or None. `needs`: the
    ScorerParams field that must be set. `formula`: the math, not prose (never translated).
    """

    name: str
    matrix: MatrixFn
    pair: PairFn
    signed: bool
    bounded: tuple[float, float] | None
    needs: str | None
    formula: str


SCORERS: dict[str, Scorer] = {}


def _limit(d: int, dtype: np.dtype) -> float:
    """Largest |component| for which no scorer can overflow: then |q|², |k|², q·k stay finite."""
    return math.sqrt(float(np.finfo(dtype).max) / max(d, 1)) / 4.0


def _float_dtype(*arrays: np.ndarray) -> np.dtype:
    dt = np.result_type(*(a.dtype for a in arrays))
    return dt if dt.kind == "f" else np.dtype(np.float64)


def as_vectors(Q: Any, K: Any, ndim: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Validate Q, K as ndim-D real arrays of equal width d, in one float dtype (no copy if
    they already are): float32 stays float32 so a big float32 matrix is not doubled in size.
    """
    what = "matrices (T, d)" if ndim == 2 else "vectors (d,)"
    arrs = []
    for name, x in (("Q" if ndim == 2 else "q", Q), ("K" if ndim == 2 else "k", K)):
        a = np.asarray(x)
        if a.dtype.kind not in "biuf":
            raise ValueError(f"{name} must hold real numbers, got dtype {a.dtype}")
        if a.ndim != ndim:
            raise ValueError(f"{name} must be {what}; got shape {a.shape}")
        if a.shape[-1] == 0:
            raise ValueError(f"{name} has d = 0; vectors need at least one dimension")
        arrs.append(a)
    a, b = arrs
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"dimension mismatch: query d = {a.shape[-1]}, key d = {b.shape[-1]}")
    dt = _float_dtype(a, b)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    lim = _limit(a.shape[-1], dt)
    for name, x in (("queries", a), ("keys", b)):
        if x.size and not max(float(x.max()), -float(x.min())) <= lim:
            raise ValueError(f"{name} contain NaN, inf or values beyond ±{lim:.3g}")
    return a, b


def _weights(scorer: Scorer, params: ScorerParams | None, d: int, dtype: np.dtype) -> Any:
    """Fetch and check the weights `scorer.needs`, naming them when they are missing."""
    if scorer.needs is None:
        return None
    w = getattr(params, scorer.needs, None) if params is not None else None
    if scorer.needs == "additive":
        if not isinstance(w, AdditiveWeights):
            raise ValueError(
                f"scorer '{scorer.name}' needs additive weights W1, W2, v "
                "(ScorerParams.additive); none given"
            )
        if w.d != d:
            raise ValueError(f"additive weights W1, W2 have d = {w.d}, vectors have d = {d}")
    elif scorer.needs == "qk_norm":
        if not isinstance(w, QKNormWeights):
            raise ValueError(
                f"scorer '{scorer.name}' needs QK-norm weights gain, eps "
                "(ScorerParams.qk_norm); none given"
            )
        if w.d != d:
            raise ValueError(f"QK-norm gain has length {w.d}, vectors have d = {d}")
        glim = math.sqrt(float(np.finfo(dtype).max) / d) / 2.0
        if not float(np.max(np.abs(w.gain))) <= glim:
            raise ValueError(f"QK-norm gain has values beyond ±{glim:.3g}; scores would overflow")
    return w


def register(
    name: str,
    *,
    formula: str,
    pair: Callable[[np.ndarray, np.ndarray, Any], float | Undefined],
    signed: bool = True,
    bounded: tuple[float, float] | None = None,
    needs: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a matrix function (Q, K, weights) to add a scorer: one local change per scorer.

    The raw functions receive validated arrays of one float dtype and the checked weights
    (or None); the registered Scorer wraps them with the validation.
    """
    if needs not in (None, "additive", "qk_norm"):
        raise ValueError(f"unknown needs {needs!r}; add a field to ScorerParams first")

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in SCORERS:
            raise ValueError(f"scorer {name!r} is already registered")

        def matrix(Q: Any, K: Any, params: ScorerParams | None = None) -> Any:
            A, B = as_vectors(Q, K, 2)
            return fn(A, B, _weights(SCORERS[name], params, A.shape[1], A.dtype))

        def pair_checked(q: Any, k: Any, params: ScorerParams | None = None) -> float | Undefined:
            a, b = as_vectors(q, k, 1)
            return pair(a, b, _weights(SCORERS[name], params, a.shape[0], a.dtype))

        SCORERS[name] = Scorer(name, matrix, pair_checked, signed, bounded, needs, formula)
        return fn

    return deco


def get_scorer(name: str) -> Scorer:
    """Look a scorer up, raising ValueError (which the UI reports) rather than KeyError."""
    try:
        return SCORERS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown scorer {name!r}; known: {', '.join(SCORERS)}") from None


def score_matrix(
    name: str, Q: Any, K: Any, params: ScorerParams | None = None
) -> np.ma.MaskedArray:
    """All Tq×Tk scores; masked cells are undefined (only cosine, for zero-length vectors)."""
    S = get_scorer(name).matrix(Q, K, params)
    if isinstance(S, np.ma.MaskedArray):
        return S
    return np.ma.MaskedArray(S, mask=np.ma.nomask)


def score_pair(name: str, q: Any, k: Any, params: ScorerParams | None = None) -> float | Undefined:
    """One score as a Python float, or Undefined (cosine of a zero-length vector); never NaN."""
    return get_scorer(name).pair(q, k, params)


# --- the scorers, in display order -----------------------------------------------------------


def _unit(x: np.ndarray) -> np.ndarray | None:
    """x/|x|, scaled by max|x| first so tiny or huge vectors don't under/overflow; None if 0."""
    m = float(np.max(np.abs(x)))
    if m == 0.0:
        return None
    s = x / m
    return s / math.sqrt(float(np.dot(s, s)))


def _unit_rows(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row-normalised copy of X and the boolean 'row is all zeros' (left as zeros)."""
    m = np.maximum(X.max(axis=1), -X.min(axis=1))
    zero = m == 0
    U = X / np.where(zero, 1, m)[:, None]
    n = np.sqrt(np.einsum("ij,ij->i", U, U))
    U /= np.where(zero, 1, n)[:, None]
    return U, zero


def _cos_pair(q: np.ndarray, k: np.ndarray, _w: None) -> float | Undefined:
    a, b = _unit(q), _unit(k)
    if a is None or b is None:
        return UNDEFINED_ZERO
    return min(1.0, max(-1.0, float(np.dot(a, b))))


@register("dot", formula="q·k", pair=lambda q, k, _w: float(np.dot(q, k)))
def _dot(Q: np.ndarray, K: np.ndarray, _w: None) -> np.ndarray:
    S: np.ndarray = Q @ K.T
    return S


@register(
    "scaled_dot",
    formula="q·k/√d",
    pair=lambda q, k, _w: float(np.dot(q, k)) / math.sqrt(q.shape[0]),
)
def _scaled_dot(Q: np.ndarray, K: np.ndarray, _w: None) -> np.ndarray:
    S: np.ndarray = Q @ K.T
    S *= 1.0 / math.sqrt(Q.shape[1])
    return S


@register("cosine", formula="q·k/(|q||k|)", pair=_cos_pair, bounded=(-1.0, 1.0))
def _cosine(Q: np.ndarray, K: np.ndarray, _w: None) -> np.ma.MaskedArray:
    Uq, zq = _unit_rows(Q)
    Uk, zk = _unit_rows(K)
    S = Uq @ Uk.T
    np.clip(S, -1.0, 1.0, out=S)
    if zq.any() or zk.any():
        return np.ma.MaskedArray(S, mask=zq[:, None] | zk[None, :])
    return np.ma.MaskedArray(S, mask=np.ma.nomask)


@register(
    "neg_euclidean",
    formula="−|q−k|",
    pair=lambda q, k, _w: -float(np.linalg.norm(q - k)),
    signed=False,
)
def _neg_euclidean(Q: np.ndarray, K: np.ndarray, _w: None) -> np.ndarray:
    # |q−k|² = |q|² + |k|² − 2q·k: one matmul instead of a Tq×Tk×d difference tensor. Where
    # the distance is small against the lengths, that subtraction cancels most digits, so
    # those cells are worked out again as Σ(q_i − k_i)², the way the pair function does.
    S: np.ndarray = Q @ K.T
    S *= -2.0
    nq = np.einsum("ij,ij->i", Q, Q)
    nk = np.einsum("ij,ij->i", K, K)
    S += nq[:, None]
    S += nk[None, :]
    _recompute_cancelled(S, Q, K, nq, nk)
    np.maximum(S, 0.0, out=S)
    np.sqrt(S, out=S)
    np.negative(S, out=S)
    return S


CANCELLATION = 0.25
"""A squared distance below this share of |q|² + |k|² lost digits to cancellation (relative
error up to eps·(|q|²+|k|²)/|q−k|²), so neg_euclidean recomputes it directly; above it the
matmul form stays within a few ulps of the pair function."""
DIRECT_CHUNK = 1 << 16
"""Elements of q − k worked out at once when recomputing cancelled cells (bounded memory)."""


def _recompute_cancelled(S: np.ndarray, Q: np.ndarray, K: np.ndarray, nq: np.ndarray,
                         nk: np.ndarray) -> None:
    """Replace the squared distances in S that cancellation spoiled by Σ(q_i − k_i)², in place.

    A row is only scanned when its smallest cell could be spoiled, so well-separated data (the
    usual case, and scale mode's random vectors) costs one min per row on top of the matmul.
    """
    if S.size == 0:
        return
    step = max(1, DIRECT_CHUNK // Q.shape[1])
    near = S.min(axis=1) < CANCELLATION * (nq + nk.max())
    for i in np.flatnonzero(near):
        cols = np.flatnonzero(S[i] < CANCELLATION * (nq[i] + nk))
        for start in range(0, len(cols), step):
            chunk = cols[start:start + step]
            diff = K[chunk] - Q[i]
            S[i, chunk] = np.einsum("ij,ij->i", diff, diff)


@register(
    "additive",
    formula="vᵀtanh(W₁q+W₂k)",
    pair=lambda q, k, w: additive_pair(q, k, w),
    needs="additive",
)
def _additive(Q: np.ndarray, K: np.ndarray, w: AdditiveWeights) -> np.ndarray:
    return additive_matrix(Q, K, w)


@register(
    "qk_norm",
    formula="RMSNorm(q)·RMSNorm(k)",
    pair=lambda q, k, w: float(np.dot(rms_norm(q, w.gain, w.eps), rms_norm(k, w.gain, w.eps))),
    needs="qk_norm",
)
def _qk_norm(Q: np.ndarray, K: np.ndarray, w: QKNormWeights) -> np.ndarray:
    S: np.ndarray = rms_norm(Q, w.gain, w.eps) @ rms_norm(K, w.gain, w.eps).T
    return S
