"""A drag step on an import scores only the edited vector's row or column again: the view it
gives equals a full recompute of the same state, in every heatmap mode and option."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from app.model.capture import Capture
from app.model.capture.view import FULL_CELLS, edited_vector
from app.model.lesson.data import load_lesson_data
from app.model.view import compute_view, initial_state

RNG = np.random.default_rng(5)
BIG = int(np.sqrt(FULL_CELLS)) + 8  # past FULL_CELLS: the large import's own path


def _state(t: int, d: int = 12, **options: object):
    data = load_lesson_data()
    names = tuple(f"w{i}" for i in range(t))
    capture = Capture(RNG.standard_normal((t, d)).astype(np.float32),
                      RNG.standard_normal((t, d)).astype(np.float32), names, names, "c.npz")
    state = replace(initial_state(data), imported=capture, scorer="scaled_dot")
    state = state.with_world("imported", (t - 1, 0))
    return data, replace(state, options=replace(state.options, **options))


def _edited(state, role: str, index: int):
    matrix = state.imported.queries if role == "q" else state.imported.keys
    values = np.array(matrix[index], np.float64)
    values[2] += 0.75
    return state.with_vector(role, index, values)


@pytest.mark.parametrize("reuse", [False, True])
@pytest.mark.parametrize("t", [6, BIG])
@pytest.mark.parametrize("role", ["q", "k"])
@pytest.mark.parametrize("options", [{}, {"heatmap_mode": "weights"},
                                     {"heatmap_mode": "weights", "causal": True,
                                      "sink_logit": 1.5},
                                     {"causal": True, "q_scale": 2.0}])
def test_a_patched_step_equals_a_full_recompute(t, role, options, reuse) -> None:
    data, before = _state(t, **options)
    index = t // 2 if role == "q" else t - 2
    after = _edited(before, role, index)
    assert edited_vector(before, after) == (role, index)
    patched = compute_view(after, data, (before, compute_view(before, data)), reuse=reuse)
    full = compute_view(after, data)
    assert patched.scores.keys() == full.scores.keys()
    for name, matrix in full.scores.items():  # one row is a (1, d)·(d, T) product: same sums
        np.testing.assert_allclose(patched.scores[name], matrix, rtol=1e-5, atol=1e-6)
        assert np.array_equal(np.ma.getmaskarray(patched.scores[name]),
                              np.ma.getmaskarray(matrix))
    np.testing.assert_allclose(patched.weight_scores, full.weight_scores, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(patched.weights, full.weights, rtol=1e-5, atol=1e-7)
    if full.sink_weight is not None:
        np.testing.assert_allclose(patched.sink_weight, full.sink_weight, rtol=1e-5)
    assert np.array_equal(patched.allowed, full.allowed)
    assert patched.selected_score == pytest.approx(full.selected_score, rel=1e-5)
    for name in full.row_scores:
        np.testing.assert_allclose(patched.row_scores[name], full.row_scores[name], rtol=1e-5,
                                   atol=1e-6)


def test_the_untouched_cells_keep_their_exact_values() -> None:
    data, before = _state(BIG)
    earlier = compute_view(before, data)
    after = _edited(before, "k", 3)
    patched = compute_view(after, data, (before, earlier))
    others = np.delete(np.arange(BIG), 3)
    for name, matrix in earlier.scores.items():
        assert np.array_equal(patched.scores[name][:, others], matrix[:, others])
        assert not np.array_equal(patched.scores[name][:, 3], matrix[:, 3])


def test_anything_but_one_vector_edited_is_computed_in_full() -> None:
    _data, before = _state(6)
    two = _edited(_edited(before, "q", 1), "k", 2)
    assert edited_vector(before, two) is None
    assert edited_vector(before, replace(before, query=2)) is None
    assert edited_vector(before, replace(before, scorer="dot")) is None
    assert edited_vector(before, before) is None


def test_a_view_given_up_is_patched_in_place_and_named() -> None:
    """With `reuse` the step's matrices and weights are the earlier view's arrays, so a
    T = 4096 step copies no 16-million-cell array; `patch` says which strip moved."""
    data, before = _state(BIG)
    earlier = compute_view(before, data)
    matrices = {name: np.ma.getdata(matrix) for name, matrix in earlier.scores.items()}
    weights = earlier.weights
    patched = compute_view(_edited(before, "k", 3), data, (before, earlier), reuse=True)
    assert patched.patch == (earlier.serial, "k", 3) and patched.serial != earlier.serial
    for name, data_before in matrices.items():
        assert np.shares_memory(np.ma.getdata(patched.scores[name]), data_before)
    assert patched.weights is weights
    assert compute_view(before, data).patch is None


def test_a_patched_step_keeps_whether_the_mask_removes_any_key() -> None:
    for causal in (False, True):
        data, before = _state(BIG, causal=causal)
        after = _edited(before, "k", 3)
        patched = compute_view(after, data, (before, compute_view(before, data)), reuse=True)
        assert patched.masking == compute_view(after, data).masking == causal
        assert patched.masking == (not patched.allowed.all())


def test_a_picture_made_ahead_at_each_factor_is_the_picture_of_every_cell() -> None:
    from app.model.scale import block_image

    data, state = _state(BIG * 2, causal=True)
    view = compute_view(state, data)
    shown = np.array(view.shown)
    shown[3, :5] = -np.abs(shown[3, :5]).max()  # a tie of |value| across blocks
    shown[4, :5] = np.abs(shown[3, :5]).max()
    object.__setattr__(view, "shown", shown)
    for factor in (2, 4, 8, 16):
        np.testing.assert_array_equal(view.shown_reduced(factor), block_image(shown, factor))


STEP_TOLERANCE = 1e-12
"""A float64 capture's patched step against a full recompute: one row is a (1, d)·(d, T)
product where the full matrix is one (T, d)·(d, T), so only the BLAS kernel's order of
summation may differ."""


def _float64_steps_agree() -> None:
    """Every patched float64 step (a query's, a key's, in each heatmap mode and mask) equals
    the full recompute within STEP_TOLERANCE."""
    data = load_lesson_data()
    t, d = BIG, 24
    names = tuple(f"w{i}" for i in range(t))
    rng = np.random.default_rng(17)
    capture = Capture(rng.standard_normal((t, d)), rng.standard_normal((t, d)), names, names)
    base = replace(initial_state(data), imported=capture, scorer="scaled_dot")
    base = base.with_world("imported", (t - 1, 0))
    for options in ({}, {"heatmap_mode": "weights", "causal": True, "sink_logit": 1.5},
                    {"causal": True, "q_scale": 2.0}):
        before = replace(base, options=replace(base.options, **options))
        for role, index in (("q", t // 2), ("k", t - 2)):
            after = _edited(before, role, index)
            patched = compute_view(after, data, (before, compute_view(before, data)), True)
            full = compute_view(after, data)
            for name, matrix in full.scores.items():
                np.testing.assert_allclose(patched.scores[name], matrix, rtol=STEP_TOLERANCE,
                                           atol=STEP_TOLERANCE)
            np.testing.assert_allclose(patched.weights, full.weights, rtol=STEP_TOLERANCE,
                                       atol=STEP_TOLERANCE)


def test_a_float64_step_equals_a_full_recompute_to_1e_12() -> None:
    _float64_steps_agree()


def test_a_float64_step_equals_a_full_recompute_on_another_blas_kernel() -> None:
    """The same on OpenBLAS's Sandybridge kernel (another order of summation), in a child
    process: the kernel is chosen when NumPy loads."""
    root = Path(__file__).resolve().parents[2]
    script = ("from tests.model.test_import_edit_step import _float64_steps_agree; "
              "_float64_steps_agree()")
    env = dict(os.environ, PYTHONPATH=str(root), OPENBLAS_CORETYPE="Sandybridge")
    result = subprocess.run([sys.executable, "-c", script], cwd=root, env=env,
                            capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 0, result.stderr
