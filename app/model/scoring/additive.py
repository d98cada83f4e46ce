"""Owns additive (Bahdanau) scoring vᵀtanh(W₁q + W₂k): weights, chunked matrix, naive reference."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "DEFAULT_MAX_CHUNK_BYTES",
    "AdditiveSteps",
    "AdditiveWeights",
    "additive_matrix",
    "additive_naive",
    "additive_pair",
    "additive_steps",
    "naive_intermediate_bytes",
    "tanh_evaluations",
]

DEFAULT_MAX_CHUNK_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, eq=False)
class AdditiveWeights:
    """W1, W2 (d_a×d) and v (d_a,). Copied read-only so a frozen weights object stays frozen."""

    W1: np.ndarray
    W2: np.ndarray
    v: np.ndarray

    def __post_init__(self) -> None:
        W1 = np.array(self.W1, dtype=np.float64)
        W2 = np.array(self.W2, dtype=np.float64)
        v = np.array(self.v, dtype=np.float64)
        if W1.ndim != 2 or W1.size == 0:
            raise ValueError(f"additive W1 must be a non-empty (d_a, d) matrix, got {W1.shape}")
        if W2.shape != W1.shape:
            raise ValueError(f"additive W2 shape {W2.shape} must equal W1 shape {W1.shape}")
        if v.shape != (W1.shape[0],):
            raise ValueError(f"additive v must have shape ({W1.shape[0]},), got {v.shape}")
        for name, a in (("W1", W1), ("W2", W2), ("v", v)):
            if not np.isfinite(a).all():
                raise ValueError(f"additive {name} contains NaN or inf")
            a.setflags(write=False)
            object.__setattr__(self, name, a)

    @property
    def d(self) -> int:
        return int(self.W1.shape[1])

    @property
    def d_a(self) -> int:
        return int(self.W1.shape[0])

    def check_fits(self, d: int, dtype: np.dtype) -> None:
        """Refuse vectors of another width than W1's and W2's columns."""
        if self.d != d:
            raise ValueError(f"additive weights W1, W2 have d = {self.d}, vectors have d = {d}")


def _prepare(
    Q: np.ndarray, K: np.ndarray, w: AdditiveWeights
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Project once: A = Q·W1ᵀ and B = K·W2ᵀ, so the Tq×Tk work is only add, tanh and ·v."""
    if not isinstance(w, AdditiveWeights):
        raise ValueError(f"additive scoring needs AdditiveWeights (W1, W2, v), got {w!r}")
    Q = np.asarray(Q)
    K = np.asarray(K)
    if Q.ndim != 2 or K.ndim != 2:
        raise ValueError(f"Q and K must be 2-D (T, d); got shapes {Q.shape} and {K.shape}")
    if Q.shape[1] != w.d or K.shape[1] != w.d:
        raise ValueError(
            f"additive W1/W2 have d = {w.d} columns but Q, K have d = {Q.shape[1]}, {K.shape[1]}"
        )
    dt = np.result_type(Q.dtype, K.dtype)
    if dt.kind != "f":
        dt = np.dtype(np.float64)
    Q = Q.astype(dt, copy=False)
    K = K.astype(dt, copy=False)
    with np.errstate(over="ignore", invalid="ignore"):  # checked just below
        A, B, v = Q @ w.W1.T.astype(dt), K @ w.W2.T.astype(dt), w.v.astype(dt)
    # A, B finite means A + B can't be NaN (tanh(±inf) = ±1); a finite Σ|v| bounds the score.
    if not (np.isfinite(A).all() and np.isfinite(B).all() and np.isfinite(np.abs(v).sum())):
        raise ValueError("additive projections W1·q, W2·k (or Σ|v|) are NaN or overflow")
    return A, B, v


def naive_intermediate_bytes(Tq: int, Tk: int, d_a: int, itemsize: int) -> int:
    """Bytes of the Tq×Tk×d_a tensor a broadcast-then-tanh implementation would hold at once."""
    for n, x in (("Tq", Tq), ("Tk", Tk), ("d_a", d_a), ("itemsize", itemsize)):
        if not isinstance(x, (int, np.integer)) or isinstance(x, bool) or x < 0:
            raise ValueError(f"{n} must be a non-negative int, got {x!r}")
    return int(Tq) * int(Tk) * int(d_a) * int(itemsize)


def additive_naive(Q: np.ndarray, K: np.ndarray, w: AdditiveWeights) -> np.ndarray:
    """Reference: materialises the whole Tq×Tk×d_a tensor. Only for tests and small inputs."""
    A, B, v = _prepare(Q, K, w)
    S: np.ndarray = np.tanh(A[:, None, :] + B[None, :, :]) @ v
    return S


def additive_matrix(
    Q: np.ndarray,
    K: np.ndarray,
    w: AdditiveWeights,
    max_chunk_bytes: int = DEFAULT_MAX_CHUNK_BYTES,
) -> np.ndarray:
    """Tq×Tk additive scores with the tanh temporary held to ≤ max_chunk_bytes.

    Unlike a dot product, tanh(W₁q + W₂k) cannot be factored into one matmul, so every (q, k)
    pair needs its own d_a-vector; at T = 4096, d_a = 256 that is 32 GiB if held at once.
    We process blocks of query rows (and of keys when even one row is too big), always at
    least one row × one key, reusing a single preallocated buffer.
    """
    if (
        not isinstance(max_chunk_bytes, (int, np.integer))
        or isinstance(max_chunk_bytes, bool)
        or max_chunk_bytes < 1
    ):
        raise ValueError(f"max_chunk_bytes must be a positive int, got {max_chunk_bytes!r}")
    A, B, v = _prepare(Q, K, w)
    Tq, d_a = A.shape
    Tk = B.shape[0]
    out = np.empty((Tq, Tk), dtype=A.dtype)
    if Tq == 0 or Tk == 0:
        return out
    per_key = d_a * A.dtype.itemsize
    if Tk * per_key <= max_chunk_bytes:
        rows, cols = min(Tq, max_chunk_bytes // (Tk * per_key)), Tk
    else:
        rows, cols = 1, max(1, max_chunk_bytes // per_key)
    buf = np.empty((rows, cols, d_a), dtype=A.dtype)
    for r0 in range(0, Tq, rows):
        r1 = min(r0 + rows, Tq)
        for c0 in range(0, Tk, cols):
            c1 = min(c0 + cols, Tk)
            t = buf[: r1 - r0, : c1 - c0]
            np.add(A[r0:r1, None, :], B[None, c0:c1, :], out=t)
            np.tanh(t, out=t)
            out[r0:r1, c0:c1] = t @ v
    return out


def additive_pair(q: np.ndarray, k: np.ndarray, w: AdditiveWeights) -> float:
    """One score straight from the definition; tests compare the matrix against it."""
    A, B, v = _prepare(np.asarray(q)[None, :], np.asarray(k)[None, :], w)
    return float(np.dot(v, np.tanh(A[0] + B[0])))


@dataclass(frozen=True, eq=False)
class AdditiveSteps:
    """One pair's additive score, step by step, as the term-by-term panel writes it out.

    `w1q` and `w2k` are one row each of the matrix products Q·W₁ᵀ and K·W₂ᵀ (those factor:
    one matmul for all tokens); `hidden` = w1q + w2k and `activated` = tanh(hidden) are the
    per-pair work that does not; `terms` = v ⊙ activated. `total` is the score as the model's
    matrix holds it, so the breakdown ends on the number the heatmap shows.
    """

    w1q: np.ndarray
    w2k: np.ndarray
    hidden: np.ndarray
    activated: np.ndarray
    v: np.ndarray
    terms: np.ndarray
    total: float

    @property
    def d_a(self) -> int:
        return int(self.v.shape[0])


def additive_steps(q: np.ndarray, k: np.ndarray, w: AdditiveWeights,
                   total: float | None = None) -> AdditiveSteps:
    """The intermediate vectors of vᵀtanh(W₁q + W₂k) for one pair, projected the way the
    matrix projects them (`_prepare`). `total`: the matrix cell to end on; None sums the terms."""
    A, B, v = _prepare(np.asarray(q)[None, :], np.asarray(k)[None, :], w)
    hidden = A[0] + B[0]
    activated = np.tanh(hidden)
    terms = v * activated
    arrays = (A[0], B[0], hidden, activated, v, terms)
    for array in arrays:
        array.setflags(write=False)
    return AdditiveSteps(*arrays, total=float(terms.sum()) if total is None else float(total))


def tanh_evaluations(Tq: int, Tk: int, d_a: int) -> int:
    """How many tanh one additive score matrix needs: one per pair and per hidden unit."""
    return naive_intermediate_bytes(Tq, Tk, d_a, 1)
