"""Tests for app.model.rope: 2-D rotation, relative-position property, partial rotary dims."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from app.model.rope import frequencies, rotate

FAST = settings(deadline=None, max_examples=60)
elem = st.floats(-3, 3, allow_nan=False)
position = st.integers(0, 5000)


def test_frequencies() -> None:
    np.testing.assert_allclose(frequencies(4, 100.0), [1.0, 0.1])
    np.testing.assert_allclose(frequencies(64, 1e7)[[0, -1]], [1.0, 1e7 ** (-62 / 64)])
    for bad in (0, 3, -2, 2.0, True):
        with pytest.raises(ValueError, match="rotary_dims"):
            frequencies(bad)  # type: ignore[arg-type]
    for bad in (1.0, 0.5, math.inf, "x"):
        with pytest.raises(ValueError, match="theta"):
            frequencies(2, bad)  # type: ignore[arg-type]


@FAST
@given(st.floats(-1000, 1000, allow_nan=False), st.floats(1.5, 1e6), elem, elem)
def test_two_d_rotation_by_p_theta0(p: float, theta: float, x: float, y: float) -> None:
    a = p * frequencies(2, theta)[0]  # θ_0 = theta^0 = 1 for every theta
    assert a == p
    expected = [x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)]
    for inter in (False, True):
        np.testing.assert_allclose(
            rotate(np.array([x, y]), p, theta, interleaved=inter), expected, atol=1e-9
        )


def test_unit_vector_and_position_zero() -> None:
    np.testing.assert_allclose(rotate([1.0, 0.0], math.pi / 2), [0.0, 1.0], atol=1e-15)
    X = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(rotate(X, np.zeros(3)), X)


@FAST
@given(
    st.sampled_from([(8, None), (8, 4), (6, 2), (4, 4)]),
    st.booleans(),
    position,
    position,
    st.integers(-1000, 1000),
    st.data(),
)
def test_relative_position_property(
    dims: tuple[int, int | None], inter: bool, m: int, n: int, shift: int, data
) -> None:
    d, r = dims
    q = data.draw(arrays(np.float64, d, elements=elem))
    k = data.draw(arrays(np.float64, d, elements=elem))
    base = rotate(q, m, rotary_dims=r, interleaved=inter) @ rotate(
        k, n, rotary_dims=r, interleaved=inter
    )
    moved = rotate(q, m + shift, rotary_dims=r, interleaved=inter) @ rotate(
        k, n + shift, rotary_dims=r, interleaved=inter
    )
    assert moved == pytest.approx(base, abs=1e-8)
    # same position: the rotation is orthogonal, so q·k is untouched
    same = rotate(q, m, rotary_dims=r, interleaved=inter) @ rotate(
        k, m, rotary_dims=r, interleaved=inter
    )
    assert same == pytest.approx(float(q @ k), abs=1e-8)


def test_rotation_depends_on_offset_not_only_on_content() -> None:
    q = np.array([1.0, 0.0, 0.0, 1.0])
    assert rotate(q, 0) @ rotate(q, 3) != pytest.approx(float(q @ q))


def test_partial_rotary_leaves_tail_unchanged() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 256))
    Y = rotate(X, np.arange(5), theta=1e7, rotary_dims=64)
    np.testing.assert_array_equal(Y[:, 64:], X[:, 64:])
    assert not np.allclose(Y[1:, :64], X[1:, :64])
    np.testing.assert_allclose(np.linalg.norm(Y, axis=1), np.linalg.norm(X, axis=1))


def test_half_and_interleaved_layouts_are_a_permutation_apart() -> None:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(3, 6))
    perm = [0, 3, 1, 4, 2, 5]  # half layout (i, i+3) → interleaved (2i, 2i+1)
    half = rotate(X, np.arange(3), 50.0)
    inter = rotate(X[:, perm], np.arange(3), 50.0, interleaved=True)
    np.testing.assert_allclose(inter, half[:, perm], atol=1e-12)


def test_batched_heads_and_dtype() -> None:
    X = np.ones((2, 3, 4), dtype=np.float32)
    Y = rotate(X, np.arange(3))
    assert Y.shape == X.shape and Y.dtype == np.float32
    np.testing.assert_allclose(Y[0], Y[1])
    assert rotate(np.ones((1, 2), dtype=int), [1]).dtype == np.float64
    assert np.shares_memory(Y, X) is False


def test_validation() -> None:
    with pytest.raises(ValueError, match="rotary_dims"):
        rotate(np.ones((2, 3)), [0, 1])  # odd d
    with pytest.raises(ValueError, match="exceeds"):
        rotate(np.ones((2, 4)), [0, 1], rotary_dims=6)
    with pytest.raises(ValueError, match="positions"):
        rotate(np.ones((2, 4)), [0, 1, 2])
    with pytest.raises(ValueError, match="scalar"):
        rotate(np.ones(4), [0])
    with pytest.raises(ValueError, match="NaN"):
        rotate(np.ones((1, 4)), [np.nan])
    with pytest.raises(ValueError):
        rotate(np.array(["a", "b"]), 0)
    with pytest.raises(ValueError):
        rotate(1.0, 0)
