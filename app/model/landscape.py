"""Owns score landscapes over the 2-D plane: one scorer's value at every point of a rectangle
that holds q and the keys, shaped like the plot that shows it (pure NumPy; the UI only passes
its width-to-height ratio), with the labelled contours worked out when first read."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from app.model.plane import IsoLines, iso_lines
from app.model.scoring import SCORERS, ScorerParams, score_matrix

__all__ = [
    "LANDSCAPE_SAMPLES",
    "MAX_ASPECT",
    "Landscape",
    "compared_shapes",
    "landscape_of",
]

LANDSCAPE_SAMPLES = 121
"""Grid points per axis of a square landscape: smooth on a projector, cheap per drag. A wider
or taller one keeps about as many points in all (so a drag costs the same at any shape)."""
MAX_ASPECT = 8.0
"""Width-to-height ratios beyond 8:1 (or 1:8) are drawn as 8:1; no plot is that thin."""


def compared_shapes() -> tuple[str, ...]:
    """The scorers whose contour shapes tell why the dot product won, side by side: those
    registered with `compared` facts, in the registry's order."""
    return tuple(name for name, scorer in SCORERS.items() if scorer.compared)


@dataclass(frozen=True)
class Landscape:
    """One scorer's value for q against every grid point k (values[iy, ix] at xs[ix], ys[iy]).

    The shorter half-side is `extent`, which holds q and every key; the longer one stretches
    to the plot's shape, so the picture fills it without white bands.
    """

    scorer: str
    extent: float
    xs: np.ndarray
    ys: np.ndarray
    values: np.ndarray  # (len(ys), len(xs)), row-major
    limit: float  # max |value|: a signed scorer's symmetric colour limit, zero in the middle
    q: np.ndarray  # (2,) the query the contour labels are placed around

    @property
    def signed(self) -> bool:
        """Scores of both signs (a diverging colour scale centred on 0); −|q−k| is ≤ 0
        everywhere, so it gets a sequential scale from its lowest value to its highest."""
        return SCORERS[self.scorer].signed

    @property
    def levels(self) -> tuple[float, float]:
        """The colour scale's ends: ±limit for a signed scorer, else lowest to highest."""
        if self.signed:
            return -self.limit, self.limit
        low, high = float(np.min(self.values)), float(np.max(self.values))
        return (low, high) if high > low else (low - 1.0, high + 1.0)

    @property
    def half_width(self) -> float:
        return float(self.xs[-1])

    @property
    def half_height(self) -> float:
        return float(self.ys[-1])

    @cached_property
    def iso(self) -> IsoLines:
        """Labelled contours at round values; worked out only for a landscape on screen."""
        return iso_lines(self.values, self.xs, self.q, self.ys)


def _odd(count: float) -> int:
    """An odd sample count, so 0 is a grid point of a symmetric axis."""
    return max(3, round(count) // 2 * 2 + 1)


LANDSCAPES_REMEMBERED = 8
"""Recent landscapes kept across edits: the four compared shapes at two plot shapes."""
_recent: list[tuple[tuple[object, ...], tuple[object, ...], Landscape]] = []
"""(numbers, weights, landscape), newest last; weights are compared by identity."""


def landscape_of(scorer: str, q: np.ndarray, keys: np.ndarray, params: ScorerParams | None,
                 aspect: float = 1.0, samples: int = LANDSCAPE_SAMPLES) -> Landscape:
    """`scorer`'s landscape for the 2-D query q (2,) over a rectangle of width : height =
    `aspect` (clamped to 1/MAX_ASPECT … MAX_ASPECT) whose shorter side holds q and `keys`.

    The keys decide only the rectangle's size, in whole units, so dragging a key almost
    never changes the landscape: the same one is handed back (the very object, which lets
    a plot skip repainting its picture and contours) until q, the size or the scorer change.
    """
    q = np.asarray(q, dtype=np.float64).reshape(-1)
    keys = np.asarray(keys, dtype=np.float64).reshape(-1, 2)
    reach = float(np.max(np.abs(np.vstack([q[None, :], keys]))))
    extent = max(4.0, math.ceil(reach * 1.25))
    aspect = min(MAX_ASPECT, max(1.0 / MAX_ASPECT, float(aspect))) if math.isfinite(
        aspect) and aspect > 0 else 1.0
    numbers = (scorer, q.tobytes(), extent, aspect, samples)
    weights = (None,) if params is None else (params.additive, params.qk_norm)
    for index, (kept, kept_weights, landscape) in enumerate(_recent):
        if kept == numbers and all(a is b for a, b in zip(kept_weights, weights, strict=True)):
            _recent.append(_recent.pop(index))
            return landscape
    landscape = _computed(scorer, q, float(extent), aspect, samples, params)
    _recent.append((numbers, weights, landscape))
    del _recent[:-LANDSCAPES_REMEMBERED]
    return landscape


def _computed(scorer: str, q: np.ndarray, extent: float, aspect: float, samples: int,
              params: ScorerParams | None) -> Landscape:
    stretch = math.sqrt(aspect)
    xs = np.linspace(-extent, extent, _odd(samples * stretch)) * max(1.0, aspect)
    ys = np.linspace(-extent, extent, _odd(samples / stretch)) * max(1.0, 1.0 / aspect)
    gx, gy = np.meshgrid(xs, ys)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    field = score_matrix(scorer, q[None, :], points, params)
    values = np.ma.filled(field.astype(np.float64), 0.0).reshape(gx.shape)
    values.setflags(write=False)
    limit = float(np.max(np.abs(values))) or 1.0
    q = q.copy()
    q.setflags(write=False)
    for axis in (xs, ys):
        axis.setflags(write=False)
    return Landscape(scorer=scorer, extent=extent, xs=xs, ys=ys, values=values,
                     limit=limit, q=q)
