"""Tests for app.model.scoring.additive: weights, chunked matrix vs naive, bounded memory."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from app.model.scoring.additive import (
    DEFAULT_MAX_CHUNK_BYTES,
    AdditiveWeights,
    additive_matrix,
    additive_naive,
    additive_pair,
    naive_intermediate_bytes,
)

FAST = settings(deadline=None, max_examples=60)
elem = st.floats(-5, 5, allow_nan=False)


def weights(d: int, d_a: int, seed: int = 0) -> AdditiveWeights:
    rng = np.random.default_rng(seed)
    return AdditiveWeights(
        rng.normal(size=(d_a, d)), rng.normal(size=(d_a, d)), rng.normal(size=d_a)
    )


def test_pair_matches_definition() -> None:
    w = AdditiveWeights(W1=[[1.0, 0.0]], W2=[[0.0, 2.0]], v=[3.0])
    assert additive_pair(np.array([0.5, 9.0]), np.array([9.0, 0.25]), w) == pytest.approx(
        3.0 * math.tanh(0.5 + 0.5)
    )


def test_weights_are_validated_and_read_only() -> None:
    W = np.ones((2, 3))
    w = AdditiveWeights(W, W, [1.0, 2.0])
    assert (w.d, w.d_a) == (3, 2)
    W[0, 0] = 5.0
    assert w.W1[0, 0] == 1.0 and not w.W1.flags.writeable
    with pytest.raises(ValueError, match="W2"):
        AdditiveWeights(W, np.ones((2, 4)), [1.0, 2.0])
    with pytest.raises(ValueError, match="v"):
        AdditiveWeights(W, W, [1.0])
    with pytest.raises(ValueError, match="W1"):
        AdditiveWeights(np.ones(3), np.ones(3), [1.0])
    with pytest.raises(ValueError, match="NaN"):
        AdditiveWeights(W, W, [np.nan, 1.0])


@FAST
@given(
    st.integers(0, 4),
    st.integers(1, 5),
    st.integers(1, 3),
    st.integers(1, 4),
    st.integers(1, 400),
    st.data(),
)
def test_chunked_equals_naive(tq: int, tk: int, d: int, d_a: int, chunk: int, data) -> None:
    Q = data.draw(arrays(np.float64, (tq, d), elements=elem))
    K = data.draw(arrays(np.float64, (tk, d), elements=elem))
    w = weights(d, d_a)
    # chunk sizes down to 1 byte force one key at a time; larger ones batch rows
    got = additive_matrix(Q, K, w, max_chunk_bytes=chunk)
    np.testing.assert_allclose(got, additive_naive(Q, K, w), rtol=1e-12, atol=1e-12)
    assert got.shape == (tq, tk)


@pytest.mark.parametrize("chunk", [1, 8 * 4, 8 * 4 * 3, 8 * 4 * 7, 8 * 4 * 7 * 2, 10**9])
def test_chunk_boundaries(chunk: int) -> None:
    rng = np.random.default_rng(1)
    Q, K = rng.normal(size=(5, 3)), rng.normal(size=(7, 3))
    w = weights(3, 4)
    np.testing.assert_allclose(
        additive_matrix(Q, K, w, max_chunk_bytes=chunk), additive_naive(Q, K, w), rtol=1e-12
    )


def test_naive_intermediate_bytes() -> None:
    assert naive_intermediate_bytes(4096, 4096, 256, 8) == 32 * 1024**3
    assert naive_intermediate_bytes(0, 5, 5, 8) == 0
    with pytest.raises(ValueError):
        naive_intermediate_bytes(-1, 5, 5, 8)
    with pytest.raises(ValueError):
        naive_intermediate_bytes(1, 5, 5, 8.0)  # type: ignore[arg-type]


def test_peak_memory_bounded_by_chunk_not_t_squared() -> None:
    rng = np.random.default_rng(2)
    T, d, d_a = 512, 16, 64
    Q, K = rng.normal(size=(T, d)), rng.normal(size=(T, d))
    w = weights(d, d_a)
    chunk = 1024 * 1024
    tracemalloc.start()
    try:
        out = additive_matrix(Q, K, w, max_chunk_bytes=chunk)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    fixed = out.nbytes + 2 * T * d_a * 8  # result, A = Q·W1ᵀ, B = K·W2ᵀ
    naive = naive_intermediate_bytes(T, T, d_a, 8)
    assert peak <= fixed + chunk + 256 * 1024
    assert peak < naive / 20
    np.testing.assert_allclose(out[:3, :5], additive_naive(Q[:3], K[:5], w), rtol=1e-12)


def test_default_chunk_and_dtype() -> None:
    assert DEFAULT_MAX_CHUNK_BYTES == 8 * 1024 * 1024
    Q = np.ones((2, 3), dtype=np.float32)
    assert additive_matrix(Q, Q, weights(3, 2)).dtype == np.float32
    assert additive_matrix(np.ones((2, 3), dtype=int), Q, weights(3, 2)).dtype == np.float64


def test_validation() -> None:
    w = weights(3, 2)
    with pytest.raises(ValueError, match="d = 3"):
        additive_matrix(np.ones((2, 4)), np.ones((2, 4)), w)
    with pytest.raises(ValueError, match="2-D"):
        additive_matrix(np.ones(3), np.ones((2, 3)), w)
    with pytest.raises(ValueError, match="AdditiveWeights"):
        additive_matrix(np.ones((2, 3)), np.ones((2, 3)), None)  # type: ignore[arg-type]
    for bad in (0, -5, 1.5, True):
        with pytest.raises(ValueError, match="max_chunk_bytes"):
            additive_matrix(np.ones((2, 3)), np.ones((2, 3)), w, max_chunk_bytes=bad)
    big = AdditiveWeights(np.full((1, 3), 2.0), np.ones((1, 3)), [1.0])
    for Q in (np.full((1, 3), 1e308), np.array([[np.nan, 0.0, 0.0]])):
        with pytest.raises(ValueError, match="NaN or overflow"):
            additive_matrix(Q, np.ones((1, 3)), big)


def test_additive_steps_are_the_definition_term_by_term():
    from app.model.scoring.additive import additive_steps

    rng = np.random.default_rng(11)
    w = AdditiveWeights(rng.normal(size=(5, 3)), rng.normal(size=(5, 3)), rng.normal(size=5))
    q, k = rng.normal(size=3), rng.normal(size=3)
    steps = additive_steps(q, k, w)
    assert np.allclose(steps.w1q, w.W1 @ q) and np.allclose(steps.w2k, w.W2 @ k)
    assert np.allclose(steps.hidden, w.W1 @ q + w.W2 @ k)
    assert np.allclose(steps.activated, np.tanh(w.W1 @ q + w.W2 @ k))
    assert np.allclose(steps.terms, w.v * np.tanh(w.W1 @ q + w.W2 @ k))
    assert steps.total == pytest.approx(additive_pair(q, k, w))
    assert steps.d_a == 5
    cell = float(additive_matrix(q[None, :], k[None, :], w)[0, 0])
    assert additive_steps(q, k, w, total=cell).total == cell  # ends on the matrix's number


def test_tanh_evaluations_count_one_per_pair_and_hidden_unit():
    from app.model.scoring.additive import tanh_evaluations

    assert tanh_evaluations(5, 5, 3) == 75
    assert tanh_evaluations(4096, 4096, 256) == 4096 * 4096 * 256
    with pytest.raises(ValueError):
        tanh_evaluations(-1, 5, 3)
