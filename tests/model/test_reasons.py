"""Reasons for rank swaps: the right kind, the right winner, and a length ratio that explains it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from app.model.breakdown import Swap, disagreements
from app.model.data import load_lesson_data
from app.model.reasons import explain_row, explain_swap
from app.model.scoring import score_matrix
from app.model.view import compute_view, initial_state


def _swaps(q: np.ndarray, K: np.ndarray, other: str) -> list[Swap]:
    row = lambda name: score_matrix(name, q[None, :], K)[0]  # noqa: E731
    return disagreements(row("dot"), row(other))


def test_longer_key_wins_the_dot_product_but_not_the_direction():
    q = np.array([1.0, 0.0])
    K = np.array([[2.0, 2.0], [1.0, 0.1]])  # dot 2 vs 1; cosine 0.71 vs 0.995
    [swap] = _swaps(q, K, "cosine")
    reason = explain_swap(q, K, swap, "cosine")
    assert (reason.kind, reason.dot_winner, reason.other_winner) == ("longer", 0, 1)
    assert reason.ratio == pytest.approx(np.linalg.norm(K[0]) / np.linalg.norm(K[1]))
    assert reason.dot == pytest.approx((2.0, 1.0))
    assert reason.other_scores == pytest.approx((1 / math.sqrt(2), 1 / math.sqrt(1.01)))


def test_keys_pointing_away_swap_because_the_shorter_one_loses_less():
    q = np.array([1.0, 0.0])
    K = np.array([[-0.5, 0.0], [-3.0, 3.0]])  # dot −0.5 vs −3; cosine −1 vs −0.71
    [swap] = _swaps(q, K, "cosine")
    reason = explain_swap(q, K, swap, "cosine")
    assert (reason.kind, reason.dot_winner, reason.other_winner) == ("shorter", 0, 1)
    assert reason.ratio == pytest.approx(np.linalg.norm(K[1]) / 0.5)


def test_distance_charges_the_longer_key_for_its_length():
    q = np.array([1.0, 0.0])
    K = np.array([[3.0, 0.0], [1.0, 0.5]])  # dot 3 vs 1; distance 2 vs 0.5
    [swap] = _swaps(q, K, "neg_euclidean")
    reason = explain_swap(q, K, swap, "neg_euclidean")
    assert (reason.kind, reason.dot_winner, reason.other_winner) == ("longer", 0, 1)
    assert reason.ratio == pytest.approx(3.0 / math.hypot(1.0, 0.5))
    assert reason.other_scores == pytest.approx((-2.0, -0.5))


def test_zero_vector_nearer_by_distance_has_no_finite_ratio():
    q = np.array([1.0, 0.0])
    K = np.array([[3.0, 0.0], [0.0, 0.0]])  # dot 3 vs 0; distance 2 vs 1
    [swap] = _swaps(q, K, "neg_euclidean")
    reason = explain_swap(q, K, swap, "neg_euclidean")
    assert (reason.kind, reason.other_winner, reason.ratio) == ("zero_length", 1, math.inf)


def test_bad_requests_are_refused():
    q = np.array([1.0, 0.0])
    K = np.array([[1.0, 0.0], [1.0, 5.0]])
    with pytest.raises(ValueError, match="additive"):
        explain_swap(q, K, Swap(0, 1), "additive")
    with pytest.raises(ValueError, match="tie"):
        explain_swap(q, K, Swap(0, 1), "cosine")


finite = st.floats(-10, 10, allow_nan=False).map(lambda x: round(x, 2))


@settings(max_examples=200, deadline=None)
@given(q=arrays(np.float64, 3, elements=finite), K=arrays(np.float64, (5, 3), elements=finite))
def test_every_swap_is_explained_by_the_key_lengths(q, K):
    """The story each reason tells holds for the numbers it carries."""
    swaps = {other: _swaps(q, K, other) for other in ("cosine", "neg_euclidean")}
    row = explain_row(q, K, swaps)
    assert len(row.reasons) == sum(len(s) for s in swaps.values())
    assert row.norms == pytest.approx(np.linalg.norm(K, axis=1))
    for reason in row.reasons:
        a, b = reason.keys
        assert reason.dot[0] > reason.dot[1]
        assert reason.other_scores[1] > reason.other_scores[0]
        assert reason.ratio >= 1
        longer, shorter = (a, b) if reason.kind != "shorter" else (b, a)
        if reason.kind == "zero_length":
            assert row.norms[b] == 0
        else:
            assert row.norms[longer] / row.norms[shorter] == pytest.approx(reason.ratio)
        if reason.other == "cosine":
            # dot = |q||k|cos θ: the length ratio must outweigh the ratio of the cosines.
            cos_a, cos_b = reason.other_scores
            assert reason.kind in ("longer", "shorter")
            assert (cos_a > 0) if reason.kind == "longer" else (cos_b < 0)
            needed = cos_b / cos_a if reason.kind == "longer" else cos_a / cos_b
            assert reason.ratio >= needed * (1 - 1e-9)
        else:
            assert reason.kind in ("longer", "zero_length")
    assert row.flagged == {key for reason in row.reasons for key in reason.keys}


def test_teaching_world_query_given_has_a_dot_cosine_disagreement():
    """The lesson's exercise: for q_给了 some key wins by q·k only through its |k|."""
    data = load_lesson_data()
    state = initial_state(data)
    view = compute_view(state, data)
    assert view.query_names[state.query] == "给了"
    by_cosine = [r for r in view.reasons.reasons if r.other == "cosine"]
    assert by_cosine
    assert {frozenset(r.keys) for r in by_cosine} == {
        frozenset((s.key_a, s.key_b)) for s in view.swaps
    }
    for reason in by_cosine:
        lengths = [np.linalg.norm(view.k[j]) for j in reason.keys]
        assert reason.kind == ("longer" if lengths[0] > lengths[1] else "shorter")
        assert reason.ratio == pytest.approx(max(lengths) / min(lengths))
        assert reason.ratio > 1
        assert view.scores["dot"][state.query, reason.dot_winner] == pytest.approx(reason.dot[0])
