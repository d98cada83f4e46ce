"""Tests for app.model.scoring.breakdown: per-dimension products, ranks and rank disagreements."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from app.model.scoring import UNDEFINED_ZERO, Undefined, score_matrix
from app.model.scoring.breakdown import (
    ALL_PRODUCTS_ZERO,
    Swap,
    breakdown,
    disagreements,
    ranks,
)

FAST = settings(deadline=None, max_examples=60)
elem = st.floats(-10, 10, allow_nan=False).map(lambda x: round(x, 2))


def test_breakdown_known_values() -> None:
    b = breakdown([2.0, 3.0], [2.0, 2.0])
    np.testing.assert_array_equal(b.products, [4.0, 6.0])
    assert b.total == 10.0 and b.dominant == 1
    assert b.dominant_share == pytest.approx(0.6)
    assert b.norm_q == pytest.approx(math.sqrt(13)) and b.norm_k == pytest.approx(math.sqrt(8))
    assert b.cos == pytest.approx(10 / math.sqrt(104))
    assert b.angle_deg == pytest.approx(math.degrees(math.acos(10 / math.sqrt(104))))
    assert isinstance(b.total, float) and isinstance(b.dominant, int)


def test_breakdown_dominant_uses_magnitude_and_first_tie() -> None:
    b = breakdown([1.0, -5.0, 5.0], [1.0, 1.0, 1.0])
    assert b.dominant == 1 and b.total == 1.0
    assert b.dominant_share == pytest.approx(5 / 11)


def test_breakdown_zero_vectors_are_undefined() -> None:
    b = breakdown([0.0, 0.0], [1.0, 2.0])
    assert b.cos is UNDEFINED_ZERO and b.angle_deg is UNDEFINED_ZERO
    assert b.dominant_share is ALL_PRODUCTS_ZERO and b.total == 0.0 and b.norm_q == 0.0
    b = breakdown([1.0, 0.0], [0.0, 1.0])  # orthogonal: products all 0, angle defined
    assert isinstance(b.dominant_share, Undefined)
    assert b.cos == 0.0 and b.angle_deg == pytest.approx(90.0)


def test_breakdown_angle_accurate_near_zero_and_validates() -> None:
    b = breakdown([1.0, 1e-9], [1.0, 0.0])
    assert b.angle_deg == pytest.approx(math.degrees(1e-9), rel=1e-6)
    assert breakdown([1.0, 0.0], [-2.0, 0.0]).angle_deg == pytest.approx(180.0)
    with pytest.raises(ValueError):
        breakdown([1.0, 2.0], [1.0])
    with pytest.raises(ValueError):
        breakdown([[1.0]], [[1.0]])


@FAST
@given(arrays(np.float64, 4, elements=elem), arrays(np.float64, 4, elements=elem))
def test_breakdown_is_consistent(q: np.ndarray, k: np.ndarray) -> None:
    b = breakdown(q, k)
    assert b.total == pytest.approx(float(q @ k), abs=1e-9)
    assert abs(b.products[b.dominant]) == np.abs(b.products).max()
    if isinstance(b.cos, float):
        assert b.total == pytest.approx(b.norm_q * b.norm_k * b.cos, abs=1e-8)
        assert math.cos(math.radians(b.angle_deg)) == pytest.approx(b.cos, abs=1e-9)
        assert 0.0 <= b.angle_deg <= 180.0
    if isinstance(b.dominant_share, float):
        assert 1 / len(q) - 1e-12 <= b.dominant_share <= 1.0


def test_ranks_basic_ties_and_masked() -> None:
    np.testing.assert_array_equal(ranks([0.5, 2.0, -1.0]), [2, 1, 3])
    np.testing.assert_array_equal(ranks([1.0, 3.0, 1.0, 3.0]), [3, 1, 4, 2])
    row = np.ma.MaskedArray([5.0, 1.0, 9.0], mask=[False, False, True])
    np.testing.assert_array_equal(ranks(row), [1, 2, 3])
    np.testing.assert_array_equal(ranks([-np.inf, 0.0]), [2, 1])
    assert ranks(np.ma.MaskedArray([1.0, 2.0], mask=np.ma.nomask)).tolist() == [2, 1]
    with pytest.raises(ValueError):
        ranks([[1.0]])
    with pytest.raises(ValueError, match="NaN"):
        ranks([np.nan, 1.0])


@FAST
@given(arrays(np.float64, st.integers(1, 8), elements=st.integers(-3, 3).map(float)))
def test_ranks_is_a_permutation_ordered_by_score(row: np.ndarray) -> None:
    r = ranks(row)
    assert sorted(r.tolist()) == list(range(1, len(row) + 1))
    for i in range(len(row)):
        for j in range(len(row)):
            if row[i] > row[j] or (row[i] == row[j] and i < j):
                assert r[i] < r[j]


def test_disagreements() -> None:
    a = [3.0, 2.0, 1.0]
    assert disagreements(a, a) == []
    b = [1.0, 2.0, 3.0]
    assert disagreements(a, b) == [Swap(0, 1), Swap(0, 2), Swap(1, 2)]
    assert disagreements([1.0, 1.0], [1.0, 2.0]) == []  # a tie is not an opposite order
    masked = np.ma.MaskedArray([1.0, 2.0, 3.0], mask=[False, False, True])
    assert disagreements(masked, [3.0, 2.0, 9.0]) == [Swap(0, 1)]
    assert disagreements([-np.inf, -np.inf], [1.0, 0.0]) == []
    with pytest.raises(ValueError, match="length"):
        disagreements([1.0], [1.0, 2.0])


@FAST
@given(
    st.integers(2, 7).flatmap(
        lambda n: st.tuples(
            st.permutations(list(range(n))).map(np.array),
            st.permutations(list(range(n))).map(np.array),
        )
    )
)
def test_no_swaps_iff_same_ranks_without_ties(pair: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = (x.astype(float) for x in pair)
    swaps = disagreements(a, b)
    same_ranks = np.array_equal(ranks(a), ranks(b))
    assert (swaps == []) == same_ranks
    assert swaps == disagreements(b, a)
    for s in swaps:
        assert s.key_a < s.key_b
        assert (a[s.key_a] - a[s.key_b]) * (b[s.key_a] - b[s.key_b]) < 0
    assume(len(swaps) > 0)
    assert not same_ranks


def test_lengths_make_dot_and_cosine_disagree() -> None:
    q = np.array([1.0, 1.0])
    K = np.array([[3.0, 0.0], [1.0, 1.0]])  # long-but-off-axis beats short-but-aligned on dot
    dot = score_matrix("dot", q[None], K)[0]
    cos = score_matrix("cosine", q[None], K)[0]
    assert disagreements(dot, cos) == [Swap(0, 1)]
    assert set(np.flatnonzero(ranks(dot) != ranks(cos))) == {0, 1}


def test_the_same_pair_taken_apart_again_is_the_same_breakdown():
    """A drag step's view and its term-by-term sum take the same pair apart: the second
    call gets the first's (read-only) result; any other vector or total is worked out."""
    q, k = np.array([0.2, 2.2, -0.4, -2.04]), np.array([0.0, 0.0, -0.8, -2.0])
    first = breakdown(q, k, total=4.4)
    assert breakdown(q.copy(), k.copy(), total=4.4) is first
    assert not first.products.flags.writeable
    other = breakdown(q, k + 0.1, total=4.4)
    assert other is not first and other.products.tolist() != first.products.tolist()
    assert breakdown(q, k, total=-0.0).total == 0.0
    assert math.copysign(1.0, breakdown(q, k, total=-0.0).total) == -1.0
    assert breakdown(q, k).total == float((q * k).sum())
