"""Reasons for rank swaps: the right kind, the right winner, and a length ratio that explains it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from app.model.lesson.data import load_lesson_data
from app.model.reasons import SwapReason, explain_row, explain_swap, key_norms
from app.model.scoring import score_matrix
from app.model.scoring.breakdown import Swap, disagreements, ranks
from app.model.view import compute_view, initial_state


def _rows(q: np.ndarray, K: np.ndarray) -> dict[str, np.ma.MaskedArray]:
    """One query's computed rows, as the view holds them."""
    return {name: score_matrix(name, q[None, :], K)[0]
            for name in ("dot", "cosine", "neg_euclidean")}


def _swaps(q: np.ndarray, K: np.ndarray, other: str) -> list[Swap]:
    rows = _rows(q, K)
    return disagreements(rows["dot"], rows[other])


def _explain(q: np.ndarray, K: np.ndarray, swap: Swap, other: str) -> SwapReason:
    rows = _rows(q, K)
    return explain_swap(swap, other, rows["dot"], rows[other], key_norms(K))


SWAP_CASES = {
    # (keys, scorer, kind, length ratio, dot scores, the other scorer's scores)
    "longer_wins_dot": ([[2.0, 2.0], [1.0, 0.1]], "cosine", "longer",
                        math.hypot(2.0, 2.0) / math.hypot(1.0, 0.1),
                        (2.0, 1.0), (1 / math.sqrt(2), 1 / math.sqrt(1.01))),
    "shorter_loses_less": ([[-0.5, 0.0], [-3.0, 3.0]], "cosine", "shorter",
                           math.hypot(-3.0, 3.0) / 0.5, (-0.5, -3.0), (-1.0, -1 / math.sqrt(2))),
    "distance_charges_length": ([[3.0, 0.0], [1.0, 0.5]], "neg_euclidean", "longer",
                                3.0 / math.hypot(1.0, 0.5), (3.0, 1.0), (-2.0, -0.5)),
}
"""The longer key wins the dot product but not the direction; keys pointing away swap because
the shorter one loses less; distance charges the longer key for its length."""


@pytest.mark.parametrize("case", SWAP_CASES)
def test_a_swap_is_explained_by_the_keys_lengths(case: str):
    keys, other, kind, ratio, dot, other_scores = SWAP_CASES[case]
    q, K = np.array([1.0, 0.0]), np.array(keys)
    [swap] = _swaps(q, K, other)
    reason = _explain(q, K, swap, other)
    assert (reason.kind, reason.dot_winner, reason.other_winner) == (kind, 0, 1)
    assert reason.ratio == pytest.approx(ratio)
    assert reason.dot == pytest.approx(dot)
    assert reason.other_scores == pytest.approx(other_scores)


def test_zero_vector_nearer_by_distance_has_no_finite_ratio():
    q = np.array([1.0, 0.0])
    K = np.array([[3.0, 0.0], [0.0, 0.0]])  # dot 3 vs 0; distance 2 vs 1
    [swap] = _swaps(q, K, "neg_euclidean")
    reason = _explain(q, K, swap, "neg_euclidean")
    assert (reason.kind, reason.other_winner, reason.ratio) == ("zero_length", 1, math.inf)


def test_bad_requests_are_refused():
    q = np.array([1.0, 0.0])
    K = np.array([[1.0, 0.0], [1.0, 5.0]])
    rows = _rows(q, K)
    with pytest.raises(ValueError, match="additive"):
        explain_swap(Swap(0, 1), "additive", rows["dot"], rows["dot"], key_norms(K))
    with pytest.raises(ValueError, match="tie"):
        _explain(q, K, Swap(0, 1), "cosine")
    with pytest.raises(ValueError, match="same order"):
        _explain(q, np.array([[2.0, 0.0], [0.0, 1.0]]), Swap(0, 1), "neg_euclidean")


finite = st.floats(-10, 10, allow_nan=False).map(lambda x: round(x, 2))


@settings(max_examples=200, deadline=None)
@given(q=arrays(np.float64, 3, elements=finite), K=arrays(np.float64, (5, 3), elements=finite))
def test_every_swap_is_explained_by_the_key_lengths(q, K):
    """The story each reason tells holds for the numbers it carries."""
    swaps = {other: _swaps(q, K, other) for other in ("cosine", "neg_euclidean")}
    row = explain_row(K, _rows(q, K))
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


# ---- one number path: reasons follow the row the model computed --------------------------------
# A BLAS matmul (FMA kernels) and np.dot may round the same q·k one ulp apart. These tests feed a
# computed row that differs from np.dot in the last bit, so they behave the same on every CPU.

Q_TIE = np.array([1.0, 1.0, 0.0, 0.0])
K_TIE = np.array([
    [0.0, 0.0, 1.0, 0.0],
    [2.0, 1.0, 3.0, 0.0],  # q·k = 3 exactly, |k|² = 14
    [0.0, 0.5, 0.0, 0.0],
    [1.0, 2.0, 0.0, 0.0],  # q·k = 3 exactly, |k|² = 5: nearer, and better aligned
])


def _nudged_rows() -> dict[str, np.ma.MaskedArray]:
    """The rows as an FMA kernel might compute them: key 1's q·k one ulp above key 3's."""
    rows = _rows(Q_TIE, K_TIE)
    assert float(np.dot(Q_TIE, K_TIE[1])) == float(np.dot(Q_TIE, K_TIE[3])) == 3.0
    dot = rows["dot"].copy()
    dot[1] = np.nextafter(3.0, np.inf)
    rows["dot"] = dot
    return rows


def test_a_swap_np_dot_would_call_a_tie_is_explained_from_the_computed_row():
    rows = _nudged_rows()
    explained = explain_row(K_TIE, rows)  # raised "keys 1 and 3 tie on q·k" before
    tied = [r for r in explained.reasons if set(r.keys) == {1, 3}]
    assert [(r.other, r.keys) for r in tied] == [("cosine", (1, 3)), ("neg_euclidean", (1, 3))]
    for reason in explained.reasons:
        a, b = reason.keys
        assert reason.dot == (float(rows["dot"][a]), float(rows["dot"][b]))  # the row, exactly
        assert reason.other_scores == (float(rows[reason.other][a]),
                                       float(rows[reason.other][b]))
    for reason in tied:
        assert (reason.kind, reason.ratio) == ("longer", pytest.approx(math.sqrt(14 / 5)))
    assert list(ranks(rows["dot"])[[1, 3]]) == [1, 2]  # ranks follow the same row


def test_a_tie_in_the_computed_row_is_no_swap_even_where_np_dot_differs():
    rows = _rows(Q_TIE, K_TIE)
    rows["dot"] = rows["dot"].copy()
    rows["dot"][2] = 3.0  # np.dot says 0.5; the computed row says a tie with keys 1 and 3
    rows["cosine"] = rows["cosine"].copy()
    rows["cosine"][2] = 1.0  # and key 2 first by cosine
    explained = explain_row(K_TIE, rows)
    assert all(2 not in r.keys or r.dot[0] != r.dot[1] for r in explained.reasons)
    assert not any(set(r.keys) == {1, 3} for r in explained.reasons)  # 1 and 3 tie: no swap
    assert list(ranks(rows["dot"])[[1, 2, 3]]) == [1, 2, 3]  # a tie goes to the lower index


def test_the_view_explains_the_rows_it_holds(monkeypatch):
    """compute_view's reasons come from the view's computed row, whatever np.dot would say."""
    import dataclasses

    data = load_lesson_data()
    state = initial_state(data)
    K = state.teaching_k.copy()
    K[1], K[3] = K_TIE[1], K_TIE[3]
    q = state.teaching_q.copy()
    q[state.query] = Q_TIE
    view = compute_view(dataclasses.replace(state, teaching_q=q, teaching_k=K), data)
    scores = dict(view.scores)
    dot = scores["dot"].copy()
    dot[state.query, 1] = np.nextafter(3.0, np.inf)
    scores["dot"] = dot
    rows = dict(view.row_scores)
    rows["dot"] = dot[state.query]  # the selected row, as compute_view hands it to the table
    nudged = dataclasses.replace(view, scores=scores, row_scores=rows)
    pairs = {(r.other, r.keys) for r in nudged.reasons.reasons}
    assert ("cosine", (1, 3)) in pairs and ("neg_euclidean", (1, 3)) in pairs


def test_a_key_of_subnormal_entries_has_a_length_and_no_zero_length_reason():
    """Cosine scores such a key, so its length must not underflow to 0: a "zero_length"
    reason against cosine has no text in the table (np.linalg.norm gave 0 here)."""
    q = np.array([1.0, 0.0])
    K = np.array([[5e-324, 0.0], [0.1, 1.0]])  # dot ~0 vs 0.1; cosine 1 vs 0.0995: a swap
    norms = key_norms(K)
    assert norms[0] == 5e-324 and norms[1] == pytest.approx(math.hypot(0.1, 1.0))
    reasons = explain_row(K, _rows(q, K)).reasons
    assert [(r.other, r.kind, r.other_winner) for r in reasons] == [
        ("cosine", "longer", 0), ("neg_euclidean", "longer", 0)]
    assert key_norms(np.zeros((0, 2))).shape == (0,)
