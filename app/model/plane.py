"""Owns the geometry the 2-D playground draws: iso-score lines, lengths, the q–k angle and
the projection of the selected key onto q (pure NumPy, so the panel only places items)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from app.model.nice import nice_step, step_decimals
from app.model.rope import rotate
from app.model.scoring import UNDEFINED_ZERO, Undefined
from app.model.state import LabState, Role

__all__ = [
    "IsoLines",
    "Plane",
    "arc_points",
    "editable_values",
    "iso_lines",
    "nice_levels",
    "plane_geometry",
]

TARGET_LINES = 8
LABEL_RING = 0.88
"""Level labels sit near a ring of this fraction of the plot's half-width: readable for lines,
rays and circles alike, never piled up at the origin."""
LABEL_SPACING = 0.3
"""Labels keep at least this fraction of the half-width apart, so neighbours never overlap."""


@dataclass(frozen=True)
class IsoLines:
    """Contour lines of the landscape at round score values, as straight segments."""

    levels: np.ndarray  # (L,) ascending
    segments: np.ndarray  # (n, 2, 2): segment i runs from segments[i, 0] to segments[i, 1]
    label_points: np.ndarray  # (L, 2): where level l's label goes; NaN if it has no line
    decimals: int  # enough decimals to write every level exactly


@dataclass(frozen=True)
class Plane:
    """Everything geometric the 2-D playground shows besides the vectors and the landscape
    (whose contours app/model/landscape.py works out for the plot's own shape)."""

    norm_q: float
    norm_k: np.ndarray  # (Tk,)
    angle_deg: np.ndarray  # (Tk,) angle θ between q and each key; NaN where a length is 0
    projection: float | Undefined  # |k| cos θ = q·k / |q| for the selected key
    foot: np.ndarray | None  # (2,) foot of the perpendicular from k onto the line of q
    arc_start_deg: float | Undefined  # direction of q
    arc_sweep_deg: float | Undefined  # signed turn from q to the selected k, |sweep| ≤ 180


def nice_levels(low: float, high: float, target: int = TARGET_LINES) -> tuple[np.ndarray, int]:
    """Round values (1, 2, 2.5 or 5 times a power of ten apart) strictly inside (low, high),
    and the decimals needed to write them.

    The field's own extremes are left out: a contour at the maximum is a single point.
    """
    span = high - low
    if not (math.isfinite(span) and span > 0):
        return np.empty(0), 0
    step = nice_step(span / target)
    margin = span * 0.01
    first = math.ceil((low + margin) / step)
    last = math.floor((high - margin) / step)
    levels = np.arange(first, last + 1) * step
    decimals = step_decimals(step)
    return np.round(levels, decimals), decimals


def _crossings(values: np.ndarray, xs: np.ndarray, level: float,
               ys: np.ndarray | None = None) -> list[np.ndarray]:
    """Segments of one contour by marching squares, vectorised over the cells it crosses
    (a few hundred of the grid's 14 400, so a drag step stays cheap); ys defaults to xs."""
    ys = xs if ys is None else ys
    above = values >= level
    h_cut = above[:, :-1] != above[:, 1:]
    v_cut = above[:-1, :] != above[1:, :]
    iy, ix = np.nonzero(h_cut[:-1] | h_cut[1:] | v_cut[:, :-1] | v_cut[:, 1:])
    if iy.size == 0:
        return []
    # corners counter-clockwise from bottom-left; edge e runs from corner e to corner e+1
    corners = np.stack([values[iy, ix], values[iy, ix + 1],
                        values[iy + 1, ix + 1], values[iy + 1, ix]], axis=1)
    cx = np.stack([xs[ix], xs[ix + 1], xs[ix + 1], xs[ix]], axis=1)
    cy = np.stack([ys[iy], ys[iy], ys[iy + 1], ys[iy + 1]], axis=1)
    start, stop = corners, np.roll(corners, -1, axis=1)
    cut = (start >= level) != (stop >= level)
    t = np.divide(level - start, stop - start, out=np.zeros_like(start), where=cut)
    points = np.stack([cx + t * (np.roll(cx, -1, axis=1) - cx),
                       cy + t * (np.roll(cy, -1, axis=1) - cy)], axis=-1)
    count = cut.sum(axis=1)
    out = []
    two = count == 2
    if two.any():
        order = np.argsort(~cut[two], axis=1, kind="stable")[:, :2]
        out.append(np.take_along_axis(points[two], order[:, :, None], axis=1))
    four = count == 4
    if four.any():
        # a saddle: cut off the two corners whose side differs from the cell centre's
        centre_above = corners[four].mean(axis=1) >= level
        cut_bl = (corners[four, 0] >= level) != centre_above
        p = points[four]
        first = np.where(cut_bl[:, None, None], p[:, [0, 3]], p[:, [0, 1]])
        second = np.where(cut_bl[:, None, None], p[:, [2, 1]], p[:, [2, 3]])
        out.extend([first, second])
    return out


def iso_lines(values: np.ndarray, xs: np.ndarray, q: np.ndarray,
              ys: np.ndarray | None = None) -> IsoLines:
    """Labelled contours of a landscape sampled on xs × ys (values[iy, ix]; ys defaults to xs).

    Each label goes to the point of its contour nearest a ring around the origin, preferring
    the side counter-clockwise from q and keeping clear of labels already placed, so labels of
    lines, rays and circles spread out evenly.
    """
    low, high = float(np.min(values)), float(np.max(values))
    levels, decimals = nice_levels(low, high)
    half = min(float(xs[-1]), float((xs if ys is None else ys)[-1]))  # the shorter half-side
    ring = LABEL_RING * half
    parts: list[np.ndarray] = []
    labels = np.full((len(levels), 2), np.nan)
    for index, level in enumerate(levels):
        pieces = _crossings(values, xs, float(level), ys)
        if not pieces:
            continue
        segments = np.concatenate(pieces)
        parts.append(segments)
        middles = segments.mean(axis=1)
        cost = np.abs(np.hypot(middles[:, 0], middles[:, 1]) - ring)
        side = q[0] * middles[:, 1] - q[1] * middles[:, 0]
        cost = cost + np.where(side < 0, half, 0.0)
        placed = labels[:index][~np.isnan(labels[:index, 0])]
        if placed.size:
            gaps = np.hypot(*(middles[:, None, :] - placed[None, :, :]).transpose(2, 0, 1))
            cost = cost + np.where(gaps.min(axis=1) < LABEL_SPACING * half, 4 * half, 0.0)
        labels[index] = middles[int(np.argmin(cost))]
    segments = np.concatenate(parts) if parts else np.empty((0, 2, 2))
    return IsoLines(levels=levels, segments=segments, label_points=labels, decimals=decimals)


def _direction_deg(v: np.ndarray) -> float | Undefined:
    if not np.any(v):
        return UNDEFINED_ZERO
    return math.degrees(math.atan2(float(v[1]), float(v[0])))


def plane_geometry(q: np.ndarray, keys: np.ndarray, key: int, dot: float) -> Plane:
    """Lengths, the q→k angle and the projection of key `key` onto q.

    q (2,), keys (Tk, 2): the vectors that are scored; `dot`: q·k of key `key` as the model
    computed it (the view's dot matrix), so the projection divides the number shown beside
    it, not a second dot product. The foot of the projection is (q·k / |q|²)·q, so
    |foot| = |k| cos θ and q·k = |q|·(|k| cos θ).
    """
    k = keys[key]
    norm_q = float(np.hypot(q[0], q[1]))
    norm_k = np.hypot(keys[:, 0], keys[:, 1])
    angles = np.full(len(keys), np.nan)
    defined = (norm_k > 0) & (norm_q > 0)
    if defined.any():
        u = q / norm_q if norm_q > 0 else q
        v = keys[defined] / norm_k[defined, None]
        # 2·atan2(|u−v|, |u+v|) stays accurate near 0° and 180°, where arccos does not
        angles[defined] = np.degrees(2 * np.arctan2(np.hypot(*(u - v).T), np.hypot(*(u + v).T)))
    dot = float(dot)
    projection: float | Undefined = UNDEFINED_ZERO
    foot = None
    if norm_q > 0:
        projection = dot / norm_q
        foot = q * (dot / norm_q**2)
    start = _direction_deg(q)
    end = _direction_deg(k)
    sweep: float | Undefined = UNDEFINED_ZERO
    if not isinstance(start, Undefined) and not isinstance(end, Undefined):
        sweep = (end - start + 180.0) % 360.0 - 180.0
    return Plane(
        norm_q=norm_q,
        norm_k=norm_k,
        angle_deg=angles,
        projection=projection,
        foot=foot,
        arc_start_deg=start,
        arc_sweep_deg=sweep,
    )


def arc_points(start_deg: float, sweep_deg: float, radius: float, count: int = 33) -> np.ndarray:
    """(count, 2) points of a circular arc around the origin, for the angle mark θ."""
    angles = np.radians(np.linspace(start_deg, start_deg + sweep_deg, count))
    return np.column_stack([radius * np.cos(angles), radius * np.sin(angles)])


def editable_values(state: LabState, role: Role, index: int,
                    shown: np.ndarray) -> np.ndarray:
    """The stored 2-D vector that is drawn at `shown`: with RoPE on, the playground draws the
    rotated vectors, so a drag must store the point rotated back by the vector's position."""
    shown = np.asarray(shown, dtype=np.float64)
    if not (state.options.rope and state.world == "dialogue"):
        return shown
    position = state.positions[0] if role == "q" else state.positions[index + 1]
    return rotate(shown, -float(position), step=state.options.rope_step)
