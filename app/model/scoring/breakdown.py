"""Owns explaining one score: the per-dimension products of q·k, and key rankings per scorer."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.model.scoring.registry import (
    UNDEFINED_ZERO,
    Undefined,
    as_vectors,
)

__all__ = [
    "Breakdown",
    "Swap",
    "breakdown",
    "disagreements",
    "dominant_term",
    "ranks",
]

ALL_PRODUCTS_ZERO = Undefined("all products are zero")


@dataclass(frozen=True, eq=False)
class Breakdown:
    """q·k taken apart so a learner can see which dimensions carry the score.

    `dominant` is the index of the largest |q_i·k_i| (first on ties); `dominant_share` is its
    part of Σ|q_i·k_i| (Undefined when every product is 0). `cos`/`angle_deg` are Undefined
    for a zero-length vector.
    """

    products: np.ndarray
    total: float
    dominant: int
    dominant_share: float | Undefined
    norm_q: float
    norm_k: float
    cos: float | Undefined
    angle_deg: float | Undefined


@dataclass(frozen=True, order=True)
class Swap:
    """Keys key_a < key_b that two scorers put in opposite order."""

    key_a: int
    key_b: int


def _norm(x: np.ndarray) -> float:
    m = float(np.max(np.abs(x)))
    return 0.0 if m == 0.0 else m * math.sqrt(float(np.dot(x / m, x / m)))


def dominant_term(terms: np.ndarray, none: Undefined) -> tuple[int, float | Undefined]:
    """The term of largest magnitude (the first on ties) and its part of Σ|terms|; `none`
    when every term is 0."""
    magnitudes = np.abs(terms)
    dominant = int(np.argmax(magnitudes))
    whole = float(magnitudes.sum())
    return dominant, float(magnitudes[dominant]) / whole if whole > 0 else none


def breakdown(q: Any, k: Any, total: float | None = None) -> Breakdown:
    """Products, their sum, the dominant term, lengths and angle: dot = |q||k|cos θ made visible.

    `total`: the q·k the model computed for this pair (a cell of the view's dot matrix). Pass
    it so the explanation ends on the very number every table and heatmap shows; summing the
    products is a second float path that can differ in the last bit and flip a tie. None (a
    standalone explanation): the sum of the products.
    """
    a, b = (x.astype(np.float64, copy=False) for x in as_vectors(q, k, 1))
    return _taken_apart(a.tobytes(), b.tobytes(), None if total is None else float(total).hex())


@functools.lru_cache(maxsize=8)
def _taken_apart(q: bytes, k: bytes, total: str | None) -> Breakdown:
    """`breakdown` of two float64 vectors given as their bytes (and `total` as `float.hex`,
    so −0.0 is not 0.0), kept for the next few calls: a drag step's view takes the selected
    pair apart, and the term-by-term sum then takes the same pair apart again for its steps
    (the result is read-only, so both can hold it)."""
    a, b = np.frombuffer(q), np.frombuffer(k)
    products = a * b
    products.setflags(write=False)
    dominant, share = dominant_term(products, ALL_PRODUCTS_ZERO)
    nq, nk = _norm(a), _norm(b)
    cos: float | Undefined = UNDEFINED_ZERO
    angle: float | Undefined = UNDEFINED_ZERO
    if nq > 0 and nk > 0:
        ua, ub = a / nq, b / nk
        cos = min(1.0, max(-1.0, float(np.dot(ua, ub))))
        # 2·atan2(|u−v|, |u+v|) stays accurate near 0° and 180°, where arccos(cos) does not.
        angle = math.degrees(2.0 * math.atan2(_norm(ua - ub), _norm(ua + ub)))
    return Breakdown(
        products=products,
        total=float(products.sum()) if total is None else float.fromhex(total),
        dominant=dominant,
        dominant_share=share,
        norm_q=nq,
        norm_k=nk,
        cos=cos,
        angle_deg=angle,
    )


def _row(scores: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Scores as float64 values plus a boolean 'undefined' mask (masked cells of a MaskedArray)."""
    if isinstance(scores, np.ma.MaskedArray):
        undefined = np.ma.getmaskarray(scores)
        values = np.asarray(scores.data, dtype=np.float64)
    else:
        values = np.asarray(scores, dtype=np.float64)
        undefined = np.zeros(values.shape, dtype=bool)
    if values.ndim != 1:
        raise ValueError(f"{name} must be one row of scores (Tk,), got shape {values.shape}")
    if np.isnan(values[~undefined]).any():
        raise ValueError(f"{name} contains NaN; mask undefined scores instead")
    return values, undefined


def ranks(row: Any) -> np.ndarray:
    """Rank of each key, 1 = highest score. Ties go to the lower key index so ranks are a
    permutation (stable across redraws); undefined (masked) scores rank after all others.
    """
    values, undefined = _row(row, "row")
    n = values.shape[0]
    order = np.lexsort((np.arange(n), -values, undefined))
    out = np.empty(n, dtype=np.int64)
    out[order] = np.arange(1, n + 1)
    return out


def disagreements(scores_a: Any, scores_b: Any) -> list[Swap]:
    """Pairs of keys the two scorers order strictly oppositely (ties and undefined don't count).

    Pairwise, O(Tk²): meant for one lesson-sized row, not a 4096-key context.
    """
    a, ua = _row(scores_a, "scores_a")
    b, ub = _row(scores_b, "scores_b")
    if a.shape != b.shape:
        raise ValueError(f"score rows differ in length: {a.shape[0]} vs {b.shape[0]}")
    ok = ~(ua | ub)
    idx = np.flatnonzero(ok)
    a, b = a[idx], b[idx]
    with np.errstate(invalid="ignore"):  # -inf − -inf: equal, so NaN sign → not a swap
        da = np.sign(a[:, None] - a[None, :])
        db = np.sign(b[:, None] - b[None, :])
    i, j = np.nonzero(np.triu(da * db < 0, k=1))
    return [Swap(int(idx[x]), int(idx[y])) for x, y in zip(i, j, strict=True)]
