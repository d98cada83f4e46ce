"""Score landscapes: the grid follows the plot's shape, values are the scorer's own, contours
lie on their levels at any shape, and a view computes them only when asked."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from app.model.landscape import LANDSCAPE_SAMPLES, MAX_ASPECT, compared_shapes, landscape_of
from app.model.lesson.data import load_lesson_data
from app.model.scoring import SCORERS, score_pair
from app.model.view import compute_view, initial_state, scorer_params

Q = np.array([2.0, 3.0])
KEYS = np.array([[2.0, 2.0], [3.0, -1.0], [-0.5, -1.0]])


@pytest.fixture(scope="module")
def dialogue_view():
    data = load_lesson_data()
    state = initial_state(data).with_world("dialogue", (0, 0))
    return compute_view(state, data), scorer_params(state, data)


@pytest.mark.parametrize("aspect", [1.0, 1.8, 0.5, 3.0])
def test_the_rectangle_has_the_plots_shape_and_holds_q_and_the_keys(aspect):
    land = landscape_of("dot", Q, KEYS, None, aspect)
    assert land.half_width / land.half_height == pytest.approx(aspect)
    assert min(land.half_width, land.half_height) == land.extent
    assert land.extent >= np.max(np.abs(np.vstack([Q, KEYS])))
    assert land.values.shape == (len(land.ys), len(land.xs))
    # about as many points at any shape, so a drag costs the same in a wide dock
    assert land.values.size == pytest.approx(LANDSCAPE_SAMPLES**2, rel=0.05)
    assert 0.0 in land.xs and 0.0 in land.ys


def test_a_square_is_the_old_121_by_121_grid_and_extreme_shapes_are_clamped():
    square = landscape_of("dot", Q, KEYS, None)
    assert square.values.shape == (LANDSCAPE_SAMPLES, LANDSCAPE_SAMPLES)
    assert np.array_equal(square.xs, square.ys)
    thin = landscape_of("dot", Q, KEYS, None, 50.0)
    assert thin.half_width / thin.half_height == pytest.approx(MAX_ASPECT)
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        assert landscape_of("dot", Q, KEYS, None, bad).half_width == square.half_width


@pytest.mark.parametrize("name", compared_shapes())
def test_values_are_the_scorers_own_at_sampled_points(name, dialogue_view):
    view, params = dialogue_view
    land = view.landscape_at(1.6, name)
    rng = np.random.default_rng(7)
    for _ in range(12):
        iy, ix = int(rng.integers(len(land.ys))), int(rng.integers(len(land.xs)))
        point = np.array([land.xs[ix], land.ys[iy]])
        expected = score_pair(name, view.q[0], point, params)
        assert land.values[iy, ix] == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_only_negative_distance_is_on_a_one_sided_scale(dialogue_view):
    view, _ = dialogue_view
    for name in compared_shapes():
        land = view.landscape_at(1.0, name)
        assert land.signed == SCORERS[name].signed
        low, high = land.levels
        if name == "neg_euclidean":
            assert not land.signed
            assert high <= 0 and (low, high) == (land.values.min(), land.values.max())
        else:
            assert (low, high) == (-land.limit, land.limit)


def test_contours_of_a_wide_landscape_lie_on_their_levels():
    land = landscape_of("dot", Q, KEYS, None, 2.0)
    iso = land.iso
    ends = iso.segments.reshape(-1, 2)
    assert np.max(np.abs(ends[:, 0])) > land.extent  # the contours reach the wide part too
    assert np.allclose(np.min(np.abs((ends @ Q)[:, None] - iso.levels[None, :]), axis=1), 0,
                       atol=1e-9)
    labels = iso.label_points[~np.isnan(iso.label_points[:, 0])]
    assert np.all(np.abs(labels[:, 1]) <= land.half_height)


def test_a_view_computes_landscapes_only_when_asked_and_keeps_them(dialogue_view):
    data = load_lesson_data()
    state = initial_state(data).with_world("dialogue", (0, 0))
    view = compute_view(state, data)
    assert "_landscapes" not in view.__dict__  # nothing computed during the drag step itself
    first = view.landscape_at(1.5, "cosine")
    assert view.landscape_at(1.5, "cosine") is first
    assert view.landscape.scorer == view.scorer
    teaching = compute_view(initial_state(data), data)
    assert teaching.landscape is None and teaching.landscape_at(2.0, "dot") is None


def test_a_key_dragged_inside_the_rectangle_keeps_the_very_same_landscape():
    first = landscape_of("dot", Q, KEYS, None, 1.5)
    moved = KEYS + np.array([[0.1, -0.1], [0.0, 0.0], [0.0, 0.0]])
    again = landscape_of("dot", Q, moved, None, 1.5)
    assert again is first  # a plot can skip repainting its picture
    assert landscape_of("dot", Q + 0.1, moved, None, 1.5) is not first  # q moved
    far = landscape_of("dot", Q, KEYS * 3, None, 1.5)  # a key past the edge: a larger plane
    assert far is not first and far.extent > first.extent
    assert landscape_of("cosine", Q, KEYS, None, 1.5) is not first
    assert landscape_of("dot", Q, KEYS, None, 1.0) is not first
    fresh = landscape_of("dot", Q, moved, None, 1.5, samples=LANDSCAPE_SAMPLES + 2)
    assert fresh is not first


def test_a_kept_landscape_is_worked_out_afresh_for_other_weights(dialogue_view):
    view, params = dialogue_view
    q, keys = view.q[0], view.k
    with_weights = landscape_of("additive", q, keys, params, 1.2)
    weights = params.additive
    doubled = replace(params, additive=replace(weights, v=2 * weights.v))
    assert landscape_of("additive", q, keys, params, 1.2) is with_weights
    other = landscape_of("additive", q, keys, doubled, 1.2)
    assert other is not with_weights
    np.testing.assert_allclose(other.values, 2 * with_weights.values)


def test_a_kept_landscape_cannot_be_changed_by_whoever_reads_it():
    land = landscape_of("dot", Q, KEYS, None, 1.0)
    for array in (land.values, land.xs, land.ys, land.q):
        with pytest.raises(ValueError):
            array[0] = 0.0
