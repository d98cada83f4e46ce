"""Owns the six scorers the lesson teaches, registered in display order: each one's matrix and
pair functions, its worked-out steps and how the panels present it, in one `register` call."""

from __future__ import annotations

import math

import numpy as np

from app.model.scoring.additive import AdditiveWeights, additive_matrix, additive_pair
from app.model.scoring.qknorm import QKNormWeights, rms_norm
from app.model.scoring.registry import UNDEFINED_ZERO, Compared, Undefined, register
from app.model.scoring.worked import (
    additive_work,
    cosine_work,
    distance_work,
    dot_work,
    normed_work,
    scaled_dot_work,
)


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


@register(
    "dot",
    formula="q·k",
    pair=lambda q, k, _w: float(np.dot(q, k)),
    steps=dot_work,
    written="dot",
    compared=Compared("landscapes.name.dot", "landscapes.shape.dot",
                      "landscapes.shape_only.dot", "match.tip.dot"),
)
def _dot(Q: np.ndarray, K: np.ndarray, _w: None) -> np.ndarray:
    S: np.ndarray = Q @ K.T
    return S


@register(
    "scaled_dot",
    formula="q·k/√d",
    pair=lambda q, k, _w: float(np.dot(q, k)) / math.sqrt(q.shape[0]),
    steps=scaled_dot_work,
    written="scaled_dot",
)
def _scaled_dot(Q: np.ndarray, K: np.ndarray, _w: None) -> np.ndarray:
    S: np.ndarray = Q @ K.T
    S *= 1.0 / math.sqrt(Q.shape[1])
    return S


@register(
    "cosine",
    formula="q·k/(|q||k|)",
    pair=_cos_pair,
    bounded=(-1.0, 1.0),
    steps=cosine_work,
    written="cosine",
    compared=Compared("landscapes.name.cosine", "landscapes.shape.cosine",
                      "landscapes.shape_only.cosine", "match.tip.cosine"),
)
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
    steps=distance_work,
    written="distance",
    compared=Compared("landscapes.name.neg_euclidean", "landscapes.shape.neg_euclidean",
                      "landscapes.shape_only.neg_euclidean", "match.tip.neg_euclidean"),
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
    steps=additive_work,
    written="additive",
    compared=Compared("landscapes.name.additive", "landscapes.shape.additive",
                      "landscapes.shape_only.additive", "match.tip.additive"),
)
def _additive(Q: np.ndarray, K: np.ndarray, w: AdditiveWeights) -> np.ndarray:
    return additive_matrix(Q, K, w)


@register(
    "qk_norm",
    formula="RMSNorm(q)·RMSNorm(k)",
    pair=lambda q, k, w: float(np.dot(rms_norm(q, w.gain, w.eps), rms_norm(k, w.gain, w.eps))),
    needs="qk_norm",
    steps=normed_work,
    written="normed",
)
def _qk_norm(Q: np.ndarray, K: np.ndarray, w: QKNormWeights) -> np.ndarray:
    S: np.ndarray = rms_norm(Q, w.gain, w.eps) @ rms_norm(K, w.gain, w.eps).T
    return S
