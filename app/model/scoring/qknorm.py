"""Owns QK-norm: the RMSNorm (learned gain, eps) applied to q and k before their dot product."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["QKNormWeights", "rms_norm"]


@dataclass(frozen=True, eq=False)
class QKNormWeights:
    """Gain (d,) and eps of the q_norm/k_norm layers (the anchor uses one gain for q and k here).

    eps must be > 0: it is what keeps RMSNorm of a zero vector at 0 instead of 0/0 = NaN.
    The gain is copied and made read-only so a frozen weights object really is frozen.
    """

    gain: np.ndarray
    eps: float = 1e-6

    def __post_init__(self) -> None:
        g = np.array(self.gain, dtype=np.float64)
        if g.ndim != 1 or g.size == 0:
            raise ValueError(f"qk_norm gain must be a non-empty vector (d,), got shape {g.shape}")
        if not np.isfinite(g).all():
            raise ValueError("qk_norm gain contains NaN or inf")
        eps = self.eps
        if not isinstance(eps, (int, float, np.floating, np.integer)) or isinstance(eps, bool):
            raise ValueError(f"qk_norm eps must be a number, got {eps!r}")
        if not (math.isfinite(eps) and eps > 0):
            raise ValueError(f"qk_norm eps must be finite and > 0, got {eps!r}")
        g.setflags(write=False)
        object.__setattr__(self, "gain", g)
        object.__setattr__(self, "eps", float(eps))

    @property
    def d(self) -> int:
        return int(self.gain.shape[0])

    def check_fits(self, d: int, dtype: np.dtype) -> None:
        """Refuse vectors of another width, and a gain large enough that the scores of
        normalised vectors (at most gain² · d) would overflow `dtype`."""
        if self.d != d:
            raise ValueError(f"QK-norm gain has length {self.d}, vectors have d = {d}")
        glim = math.sqrt(float(np.finfo(dtype).max) / d) / 2.0
        if not float(np.max(np.abs(self.gain))) <= glim:
            raise ValueError(f"QK-norm gain has values beyond ±{glim:.3g}; scores would overflow")


def rms_norm(X: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    """x / sqrt(mean(x²) + eps) · gain over the last axis: pins each vector's length to a scale
    the model learns, so the dot product afterwards behaves like a scaled cosine.
    """
    A = np.asarray(X)
    if A.dtype.kind != "f":
        A = A.astype(np.float64)
    g = np.asarray(gain)
    if A.ndim == 0 or g.ndim != 1 or A.shape[-1] != g.shape[0]:
        raise ValueError(f"rms_norm: gain shape {g.shape} does not fit vectors of shape {A.shape}")
    if not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"rms_norm eps must be finite and > 0, got {eps!r}")
    g = g.astype(A.dtype, copy=False)
    ms = np.mean(np.square(A), axis=-1, keepdims=True)
    normed: np.ndarray = A / np.sqrt(ms + eps) * g
    return normed
