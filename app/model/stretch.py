"""Owns stretching q to a multiple of its length in the lesson, keeping its direction: the
landscapes' q-length control ("make q twice as long", pure NumPy)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Q_LENGTHS", "length_factor", "stretched"]

Q_LENGTHS = (0.5, 1.0, 2.0)
"""The lengths offered, as multiples of the lesson's |q|: half, as given, twice."""
TOLERANCE = 1e-9
"""A length this close (relatively) to a multiple counts as it (a drag may land near one)."""


def _length(vector: np.ndarray) -> float:
    """√(v·v): a power of two times a vector has exactly that many times its length."""
    vector = np.asarray(vector, dtype=np.float64)
    return math.sqrt(float(np.dot(vector, vector)))


def stretched(vector: np.ndarray, reference: np.ndarray, factor: float) -> np.ndarray | None:
    """`vector` in its own direction at `factor` × |reference| (None for a zero vector, which
    has no direction to keep). At the reference's own length, factors of two are exact."""
    length, wanted = _length(vector), _length(reference)
    if length == 0.0 or wanted == 0.0:
        return None
    return np.asarray(vector, dtype=np.float64) * (factor * wanted / length)


def length_factor(vector: np.ndarray, reference: np.ndarray,
                  factors: tuple[float, ...] = Q_LENGTHS) -> float | None:
    """Which of `factors` × |reference| the vector's length is, or None (another length)."""
    length, wanted = _length(vector), _length(reference)
    if wanted == 0.0:
        return None
    ratio = length / wanted
    return next((f for f in factors if abs(ratio - f) <= TOLERANCE * f), None)
