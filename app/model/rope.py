"""Owns rotary position embedding (RoPE): rotating q and k so q·k depends on relative position."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["frequencies", "rotate"]


def frequencies(rotary_dims: int, theta: float = 10000.0) -> np.ndarray:
    """θ_i = theta^(−2i/rotary_dims), i = 0 … rotary_dims/2 − 1: pair 0 turns fastest, later
    pairs ever slower, so near and far offsets both leave a trace.
    """
    if (
        not isinstance(rotary_dims, (int, np.integer))
        or isinstance(rotary_dims, bool)
        or rotary_dims < 2
        or rotary_dims % 2
    ):
        raise ValueError(f"rotary_dims must be an even int ≥ 2, got {rotary_dims!r}")
    if not (isinstance(theta, (int, float, np.floating, np.integer)) and math.isfinite(theta)):
        raise ValueError(f"theta must be a finite number, got {theta!r}")
    if theta <= 1:
        raise ValueError(f"theta must be > 1, got {theta!r}")
    i = np.arange(int(rotary_dims) // 2, dtype=np.float64)
    return float(theta) ** (-2.0 * i / int(rotary_dims))


def rotate(
    X: Any,
    positions: Any,
    theta: float = 10000.0,
    rotary_dims: int | None = None,
    *,
    interleaved: bool = False,
    step: float = 1.0,
) -> np.ndarray:
    """Rotate each pair of the first `rotary_dims` dims of every row by position·θ_i.

    Only Q and K are rotated (never V), so the rotation shows up in q·k as a function of the
    position *difference*. `rotary_dims` < d is partial RoPE (the anchor rotates 64 of 256
    dims; the rest pass through, carrying position-free content). Pairing: by default dim i
    pairs with dim i + rotary_dims/2 (the "rotate_half" layout of Qwen/Llama checkpoints);
    `interleaved=True` pairs (0,1), (2,3), … as in Su 2021. Both give the same q·k property.

    `step` scales every angle (radians per position of the fastest pair): in the 2-D demo,
    where θ₀ = 1 for any base, it is the one frequency a class can choose.

    X: (d,) with a scalar position, or (..., T, d) with positions of shape (T,).
    """
    A: np.ndarray = np.asarray(X)
    if A.dtype.kind in "biu":
        A = A.astype(np.float64)
    elif A.dtype.kind != "f":
        raise ValueError(f"X must hold real numbers, got dtype {A.dtype}")
    if A.ndim == 0:
        raise ValueError("X must be a vector (d,) or a matrix (..., T, d)")
    P = np.asarray(positions)
    if P.dtype.kind not in "biuf":
        raise ValueError(f"positions must be numbers, got dtype {P.dtype}")
    if A.ndim == 1:
        if P.ndim != 0:
            raise ValueError(f"a single vector needs a scalar position, got shape {P.shape}")
    elif P.shape != (A.shape[-2],):
        raise ValueError(f"positions must have shape ({A.shape[-2]},), got {P.shape}")
    if not np.isfinite(P).all():
        raise ValueError("positions contain NaN or inf")
    d = A.shape[-1]
    r = d if rotary_dims is None else rotary_dims
    if isinstance(r, (int, np.integer)) and not isinstance(r, bool) and r > d:
        raise ValueError(f"rotary_dims = {r} exceeds d = {d}")
    freqs = frequencies(r, theta)  # validates r (even, ≥ 2) and theta
    if not (isinstance(step, (int, float, np.floating, np.integer)) and math.isfinite(step)):
        raise ValueError(f"step must be a finite number, got {step!r}")
    angles = P.astype(np.float64)[..., None] * (float(step) * freqs)  # (T, r/2) or (r/2,)
    cos = np.cos(angles).astype(A.dtype, copy=False)
    sin = np.sin(angles).astype(A.dtype, copy=False)
    out: np.ndarray = A.copy()
    h = r // 2
    if interleaved:
        x, y = A[..., 0:r:2], A[..., 1:r:2]
        out[..., 0:r:2] = x * cos - y * sin
        out[..., 1:r:2] = x * sin + y * cos
    else:
        x, y = A[..., :h], A[..., h:r]
        out[..., :h] = x * cos - y * sin
        out[..., h:r] = x * sin + y * cos
    return out
