"""Owns a checkpoint's rotary position embedding as its config sets it: the inverse
frequencies (default, `linear` or `llama3` scaling) and the rotate-half pairing over the first
`rotary_dim` dims of a head, the rest passing through (partial rotary)."""

from __future__ import annotations

import math

import numpy as np

from app.model.checkpoint.config import ArchConfig

__all__ = ["apply_rope", "inverse_frequencies"]


def inverse_frequencies(cfg: ArchConfig) -> np.ndarray:
    """θ_i per rotated pair, in float32 as the checkpoint's own code computes them."""
    dim = cfg.rotary_dim
    inv = 1.0 / (cfg.rope_theta ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float32)
                                    / dim))
    inv = inv.astype(np.float32)
    scaling = dict(cfg.rope_scaling)
    if cfg.rope_type == "linear":
        linear: np.ndarray = (inv / np.float32(scaling["factor"])).astype(np.float32)
        return linear
    if cfg.rope_type == "llama3":
        factor = scaling["factor"]
        low, high = scaling["low_freq_factor"], scaling["high_freq_factor"]
        old = scaling["original_max_position_embeddings"]
        wavelen = 2 * math.pi / inv
        scaled = np.where(wavelen > old / low, inv / factor, inv)
        smooth = (old / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < old / high) & ~(wavelen > old / low)
        return np.where(medium, smoothed, scaled).astype(np.float32)
    return inv


def apply_rope(x: np.ndarray, cfg: ArchConfig) -> np.ndarray:
    """`x` (heads, T, head_dim) rotated by position: dim i pairs with dim i + rotary_dim/2."""
    t = np.arange(x.shape[-2], dtype=np.float32)
    angles = np.outer(t, inverse_frequencies(cfg)).astype(np.float32)
    angles = np.concatenate([angles, angles], axis=-1)
    cos, sin = np.cos(angles), np.sin(angles)
    r = cfg.rotary_dim
    rot = x[..., :r]
    half = r // 2
    turned = np.concatenate([-rot[..., half:], rot[..., :half]], axis=-1)
    out: np.ndarray = x.copy()
    out[..., :r] = rot * cos + turned * sin
    return out
