"""The playground's geometry: iso-score lines lie on their level, the projection identity holds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app.model.plane import arc_points, editable_values, iso_lines, nice_levels, plane_geometry
from app.model.rope import rotate
from app.model.scoring import Undefined, score_matrix
from app.model.state import LabState, Options, frozen_array

XS = np.linspace(-4.0, 4.0, 121)
Q = np.array([2.0, 3.0])
KEYS = np.array([[2.0, 2.0], [3.0, -1.0], [-0.5, -1.0]])


def dots(q: np.ndarray = Q, keys: np.ndarray = KEYS) -> np.ndarray:
    """The computed dot row the view hands to plane_geometry."""
    return np.asarray(score_matrix("dot", q[None, :], keys))[0]


def field(name: str, q: np.ndarray = Q) -> np.ndarray:
    gx, gy = np.meshgrid(XS, XS)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    return np.ma.filled(score_matrix(name, q[None, :], points), 0.0).reshape(gx.shape)


@pytest.mark.parametrize(("low", "high"), [(-20, 20), (-1, 1), (-11.3, 0), (0.2, 0.9), (-3e4, 5)])
def test_nice_levels_are_round_and_strictly_inside(low, high):
    levels, decimals = nice_levels(low, high)
    assert 3 <= len(levels) <= 12
    assert np.all(levels > low) and np.all(levels < high)
    steps = np.diff(levels)
    assert np.allclose(steps, steps[0])
    mantissa = steps[0] / 10 ** math.floor(math.log10(steps[0]))
    assert round(mantissa, 6) in (1.0, 2.0, 2.5, 5.0)
    assert np.array_equal(np.round(levels, decimals), levels)


def test_nice_levels_of_a_flat_field_are_empty():
    levels, _ = nice_levels(3.0, 3.0)
    assert levels.size == 0


def test_dot_iso_lines_are_exact_and_perpendicular_to_q():
    iso = iso_lines(field("dot"), XS, Q)
    assert 0.0 in iso.levels and 10.0 in iso.levels
    ends = iso.segments.reshape(-1, 2)
    on_level = ends @ Q
    # a linear field is interpolated exactly: every end point's score is one of the levels
    assert np.allclose(np.min(np.abs(on_level[:, None] - iso.levels[None, :]), axis=1), 0,
                       atol=1e-9)
    directions = iso.segments[:, 1] - iso.segments[:, 0]
    assert np.allclose(directions @ Q, 0, atol=1e-9)
    assert np.allclose(iso.label_points @ Q, iso.levels)


def test_cosine_iso_lines_are_rays_from_the_origin():
    iso = iso_lines(field("cosine"), XS, Q)
    ends = iso.segments.reshape(-1, 2)
    far = np.hypot(ends[:, 0], ends[:, 1]) > 0.5
    cos = (ends[far] @ Q) / (np.hypot(ends[far, 0], ends[far, 1]) * np.hypot(*Q))
    assert np.max(np.min(np.abs(cos[:, None] - iso.levels[None, :]), axis=1)) < 0.02
    assert np.all(np.abs(iso.levels) < 1)


def test_distance_iso_lines_are_circles_around_q():
    iso = iso_lines(field("neg_euclidean"), XS, Q)
    assert np.all(iso.levels < 0)
    radius = np.hypot(*(iso.segments.reshape(-1, 2) - Q).T)
    assert np.max(np.min(np.abs(radius[:, None] + iso.levels[None, :]), axis=1)) < 0.02


def test_labels_spread_out_instead_of_piling_at_the_origin():
    iso = iso_lines(field("cosine"), XS, Q)
    radii = np.hypot(iso.label_points[:, 0], iso.label_points[:, 1])
    assert np.all(radii > 2.0)


def test_projection_identity_and_foot_for_every_key():
    for j, k in enumerate(KEYS):
        plane = plane_geometry(Q, KEYS, j, dot=dots()[j])
        assert plane.norm_q * plane.projection == pytest.approx(float(Q @ k))
        assert float((k - plane.foot) @ Q) == pytest.approx(0.0, abs=1e-12)
        assert np.hypot(*plane.foot) == pytest.approx(abs(plane.projection))
        assert plane.norm_k[j] == pytest.approx(np.hypot(*k))
        cos = float(Q @ k) / (np.hypot(*Q) * np.hypot(*k))
        assert plane.angle_deg[j] == pytest.approx(math.degrees(math.acos(cos)))
    lesson = plane_geometry(Q, KEYS, 0, dot=dots()[0])
    assert lesson.norm_q * lesson.projection == pytest.approx(10.0)


def test_arc_turns_from_q_to_k_the_short_way():
    # [2,2] is clockwise of [2,3]
    plane = plane_geometry(Q, KEYS, 0, dot=dots()[0])
    assert plane.arc_sweep_deg < 0
    points = arc_points(plane.arc_start_deg, plane.arc_sweep_deg, 1.0)
    assert np.allclose(points[0], Q / np.hypot(*Q))
    assert np.allclose(points[-1], KEYS[0] / np.hypot(*KEYS[0]))
    opposite = plane_geometry(Q, np.array([[-2.0, 1.0]]), 0, dot=-1.0)
    assert 0 < opposite.arc_sweep_deg < 180


def test_projection_divides_the_computed_dot_not_a_second_one():
    """The readout prints q·k and |q|·projection side by side: both come from one number."""
    computed = float(Q @ KEYS[0]) + 1e-9  # stands in for a BLAS result a few ulps off np.dot
    plane = plane_geometry(Q, KEYS, 0, dot=computed)
    assert plane.projection == computed / np.hypot(*Q)
    assert plane.foot == pytest.approx(Q * (computed / float(Q @ Q)), rel=1e-15)


def test_zero_q_leaves_angle_and_projection_undefined():
    zero = np.zeros(2)
    plane = plane_geometry(zero, KEYS, 0, dot=0.0)
    assert isinstance(plane.projection, Undefined)
    assert isinstance(plane.arc_sweep_deg, Undefined)
    assert plane.foot is None
    assert np.all(np.isnan(plane.angle_deg))
    assert iso_lines(field("dot", zero), XS, zero).levels.size == 0


def _state(rope: bool) -> LabState:
    return LabState(world="dialogue", scorer="dot", dialogue_q=frozen_array(Q),
                    dialogue_keys=frozen_array(KEYS), teaching_q=frozen_array(np.eye(4)),
                    teaching_k=frozen_array(np.eye(4)), query=0, key=0,
                    positions=frozen_array([3, 0, 1, 2]), options=Options(rope=rope))


def test_editable_values_undo_the_rope_rotation_of_what_is_drawn():
    shown = np.array([1.5, -0.5])
    assert np.array_equal(editable_values(_state(False), "k", 1, shown), shown)
    stored = editable_values(_state(True), "k", 1, shown)
    assert np.allclose(rotate(stored, 1.0), shown)
    stored_q = editable_values(_state(True), "q", 0, shown)
    assert np.allclose(rotate(stored_q, 3.0), shown)
