"""One number path: every number derived from a score comes from the matrices compute_view
computed, never from a second float path (np.dot beside a BLAS matmul, 1 − Σ beside softmax).

A second path can differ from the first in the last bit (FMA kernels), flip a tie and make two
panels contradict each other. These tests hand compute_view a dot matrix one ulp away from
np.dot, so they fail on a second path on every CPU and whatever BLAS kernel is picked."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from app.model import view as view_module
from app.model.lesson.data import load_lesson_data
from app.model.view import compute_view, initial_state


@pytest.fixture(scope="module")
def data():
    return load_lesson_data()


def _nudge_dot(monkeypatch: pytest.MonkeyPatch, cell: tuple[int, int]) -> None:
    """Make compute_view's dot matrix one ulp above np.dot at `cell`, as a BLAS kernel may."""
    real = view_module.score_matrix

    def nudged(name, Q, K, params=None):
        scores = real(name, Q, K, params)
        if name == "dot" and scores.shape[0] > cell[0] and scores.shape[1] == len(K) <= 8:
            scores = scores.copy()
            scores[cell] = np.nextafter(float(scores[cell]), np.inf)
        return scores

    monkeypatch.setattr(view_module, "score_matrix", nudged)


def test_the_expansion_total_is_the_computed_cell(data, monkeypatch):
    state = initial_state(data)
    cell = (state.query, state.key)
    _nudge_dot(monkeypatch, cell)
    view = compute_view(state, data)
    pair_dot = float(np.dot(view.q[state.query], view.k[state.key]))
    assert float(view.scores["dot"][cell]) != pair_dot  # the nudge took
    assert view.pair.total == float(view.scores["dot"][cell])  # the products' sum lost
    assert view.pair.products == pytest.approx(view.q[state.query] * view.k[state.key])


def test_the_playground_projection_divides_the_computed_dot(data, monkeypatch):
    state = initial_state(data).with_world("dialogue")
    cell = (0, state.key)
    _nudge_dot(monkeypatch, cell)
    view = compute_view(state, data)
    shown = float(view.scores["dot"][cell])
    assert shown != float(np.dot(view.q[0], view.k[state.key]))
    assert view.pair.total == shown
    assert view.plane.projection == shown / view.plane.norm_q


@pytest.mark.parametrize("sink", [-50.0, -20.0, 0.0, 5.0, 50.0])
@pytest.mark.parametrize("causal", [False, True])
def test_the_sink_share_is_the_sinks_own_softmax_weight(data, sink, causal):
    """1 − Σ weights gave −2.2e-16 at sink −50: a share that cancels to nothing or below."""
    state = initial_state(data)
    state = dataclasses.replace(
        state, options=dataclasses.replace(state.options, sink_logit=sink, causal=causal))
    view = compute_view(state, data)
    logits = np.where(view.allowed, view.scores[state.scorer].data, -np.inf)
    top = np.maximum(logits.max(axis=1), sink)
    own = np.exp(sink - top) / (np.exp(logits - top[:, None]).sum(axis=1) + np.exp(sink - top))
    assert (view.sink_weight > 0).all()
    np.testing.assert_allclose(view.sink_weight, own, rtol=1e-12, atol=0)
    np.testing.assert_allclose(view.weights.sum(axis=1) + view.sink_weight, 1.0, atol=4e-16)


@pytest.mark.parametrize("scorer", ["scaled_dot", "dot", "cosine", "additive"])
def test_the_weights_are_the_softmax_of_the_selected_scorers_scores_on_screen(
        data, monkeypatch, scorer):
    """Weights follow the scorer the heatmap shows, from that very matrix."""
    state = dataclasses.replace(initial_state(data), scorer=scorer)
    real = view_module.score_matrix

    def shifted(name, Q, K, params=None):
        scores = real(name, Q, K, params)
        if name == scorer:
            scores = scores.copy()
            scores[state.query, state.key] += 1.0  # visible: a second matmul would not see it
        return scores

    monkeypatch.setattr(view_module, "score_matrix", shifted)
    view = compute_view(state, data)
    assert view.weight_scores is view.scores[scorer]
    row = view.scores[scorer][state.query].data
    expected = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
    np.testing.assert_allclose(view.weights[state.query], expected, rtol=1e-12)
