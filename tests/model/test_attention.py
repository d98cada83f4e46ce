"""Tests for app.model.attention: stable softmax, masks, heads, sink logit, attention weights."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from app.model.attention import (
    attention_weights,
    causal_mask,
    masked_scores,
    sink_weight,
    softmax,
    split_heads,
)

FAST = settings(deadline=None, max_examples=60)
shapes = st.tuples(st.integers(1, 5), st.integers(1, 6))
moderate = st.floats(-50, 50, allow_nan=False)


def test_softmax_known_values() -> None:
    w = softmax(np.array([0.0, math.log(3.0)]))
    np.testing.assert_allclose(w, [0.25, 0.75])


@FAST
@given(arrays(np.float64, shapes, elements=moderate), st.floats(-1e3, 1e3))
def test_softmax_rows_sum_to_one_and_ignore_shift(S: np.ndarray, c: float) -> None:
    w = softmax(S)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)
    assert (w >= 0).all()
    np.testing.assert_allclose(softmax(S + c), w, rtol=1e-9, atol=1e-12)


@FAST
@given(arrays(np.float64, shapes, elements=st.floats(-1e308, 1e308, allow_nan=False)))
def test_softmax_huge_magnitudes_stay_finite(S: np.ndarray) -> None:
    w = softmax(S)
    assert np.isfinite(w).all()
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)
    # the row maximum always keeps weight at least 1/T
    assert (w.max(axis=-1) >= 1.0 / S.shape[-1] - 1e-12).all()


def test_softmax_1e308_row() -> None:
    w = softmax(np.array([[1e308, -1e308, 1e308, 0.0]]))
    np.testing.assert_array_equal(w, [[0.5, 0.0, 0.5, 0.0]])


def test_softmax_neg_inf_gets_zero_and_full_row_gives_zeros() -> None:
    ninf = -np.inf
    w = softmax(np.array([[0.0, ninf, 0.0], [ninf, ninf, ninf]]))
    np.testing.assert_array_equal(w, [[0.5, 0.0, 0.5], [0.0, 0.0, 0.0]])
    assert not np.isnan(w).any()


def test_softmax_axis_and_dtype() -> None:
    S = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    w = softmax(S, axis=0)
    assert w.dtype == np.float32
    np.testing.assert_allclose(w.sum(axis=0), 1.0, rtol=1e-6)
    assert softmax(np.array([1, 2])).dtype == np.float64


@pytest.mark.parametrize("bad", [np.array([np.nan, 1.0]), np.array([np.inf, 1.0])])
def test_softmax_rejects_nan_and_pos_inf(bad: np.ndarray) -> None:
    with pytest.raises(ValueError):
        softmax(bad)


@pytest.mark.parametrize("bad", [np.nan, np.inf, "1", [1.0]])
def test_softmax_rejects_bad_sink(bad: object) -> None:
    with pytest.raises(ValueError, match="sink_logit"):
        softmax(np.zeros(3), sink_logit=bad)  # type: ignore[arg-type]


@FAST
@given(arrays(np.float64, shapes, elements=moderate), st.floats(-50, 50))
def test_sink_takes_weight_without_value(S: np.ndarray, sink: float) -> None:
    w = softmax(S, sink_logit=sink)
    s = sink_weight(S, sink)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0 - s, rtol=1e-9, atol=1e-12)
    # the same as a softmax over the row with one extra column, then dropping that column
    aug = np.concatenate([S, np.full((S.shape[0], 1), sink)], axis=1)
    np.testing.assert_allclose(w, softmax(aug)[:, :-1], rtol=1e-9, atol=1e-15)


def test_sink_weight_tiny_share_is_not_cancelled() -> None:
    s = sink_weight(np.array([0.0]), -100.0)
    np.testing.assert_allclose(s, math.exp(-100.0), rtol=1e-12)
    with pytest.raises(ValueError):
        sink_weight(np.array([0.0]), None)  # type: ignore[arg-type]


def test_sink_on_fully_masked_row_takes_everything() -> None:
    S = np.array([-np.inf, -np.inf])
    np.testing.assert_array_equal(softmax(S, sink_logit=0.0), [0.0, 0.0])
    np.testing.assert_allclose(sink_weight(S, 0.0), 1.0)


def test_causal_mask() -> None:
    np.testing.assert_array_equal(causal_mask(3, 3), np.tril(np.ones((3, 3), dtype=bool)))
    assert causal_mask(1, 4).all()  # decoding: the newest query sees the whole cache
    np.testing.assert_array_equal(
        causal_mask(2, 3, offset=0), [[True, False, False], [True, True, False]]
    )
    assert causal_mask(0, 3).shape == (0, 3)
    with pytest.raises(ValueError):
        causal_mask(-1, 3)
    with pytest.raises(ValueError):
        causal_mask(2, 2.5)  # type: ignore[arg-type]


def test_masked_scores() -> None:
    S = np.arange(4.0).reshape(2, 2)
    out = masked_scores(S, causal_mask(2, 2))
    np.testing.assert_array_equal(out, [[0.0, -np.inf], [2.0, 3.0]])
    undefined = np.ma.MaskedArray(S, mask=[[False, False], [True, False]])
    out = masked_scores(undefined, np.ones((2, 2), dtype=bool))
    np.testing.assert_array_equal(out, [[0.0, 1.0], [-np.inf, 3.0]])
    with pytest.raises(ValueError, match="boolean"):
        masked_scores(S, np.ones((2, 2)))
    with pytest.raises(ValueError, match="shape"):
        masked_scores(S, np.ones((3, 3), dtype=bool))


def test_split_heads_by_columns() -> None:
    X = np.arange(12.0).reshape(2, 6)
    H = split_heads(X, 3)
    assert H.shape == (3, 2, 2)
    np.testing.assert_array_equal(H[1], X[:, 2:4])
    assert np.shares_memory(H, X)
    with pytest.raises(ValueError, match="divisible"):
        split_heads(X, 4)
    with pytest.raises(ValueError):
        split_heads(X, 0)
    with pytest.raises(ValueError):
        split_heads(X[0], 2)


def _reference(Q: np.ndarray, K: np.ndarray, scale: bool, causal: bool) -> np.ndarray:
    S = Q @ K.T / (math.sqrt(Q.shape[1]) if scale else 1.0)
    if causal:
        S = np.where(np.tril(np.ones_like(S, dtype=bool), k=K.shape[0] - Q.shape[0]), S, -np.inf)
    e = np.exp(S - S.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("causal", [True, False])
def test_attention_weights_matches_reference(scale: bool, causal: bool) -> None:
    rng = np.random.default_rng(1)
    Q, K = rng.normal(size=(5, 4)), rng.normal(size=(5, 4))
    W = attention_weights(Q, K, scale=scale, causal=causal)
    np.testing.assert_allclose(W, _reference(Q, K, scale, causal), rtol=1e-12)
    if causal:
        assert (W[np.triu_indices(5, k=1)] == 0).all()


def test_attention_weights_per_head_and_sink() -> None:
    rng = np.random.default_rng(2)
    Q, K = rng.normal(size=(4, 6)), rng.normal(size=(4, 6))
    Wh = attention_weights(split_heads(Q, 2), split_heads(K, 2), causal=True)
    assert Wh.shape == (2, 4, 4)
    np.testing.assert_allclose(Wh[1], _reference(Q[:, 3:], K[:, 3:], True, True), rtol=1e-12)
    Ws = attention_weights(Q, K, sink_logit=1.0)
    assert (Ws.sum(axis=1) < 1.0).all()
    S = Q @ K.T / math.sqrt(6)
    np.testing.assert_allclose(Ws.sum(axis=1), 1.0 - sink_weight(S, 1.0), rtol=1e-12)


def test_attention_weights_validates_shapes() -> None:
    with pytest.raises(ValueError, match="d ="):
        attention_weights(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="heads"):
        attention_weights(np.ones((2, 2, 3)), np.ones((3, 2, 3)))
    with pytest.raises(ValueError):
        attention_weights(np.ones(3), np.ones(3))
    with pytest.raises(ValueError):
        attention_weights(np.array([["a"]]), np.array([["b"]]))


def test_softmax_masked_cells_and_empty_rows() -> None:
    S = np.ma.MaskedArray([[5.0, 0.0, 0.0]], mask=[[True, False, False]])
    np.testing.assert_array_equal(softmax(S), [[0.0, 0.5, 0.5]])
    assert softmax(np.ma.MaskedArray([1.0, 1.0], mask=np.ma.nomask)).tolist() == [0.5, 0.5]
    assert softmax(np.zeros((2, 0))).shape == (2, 0)
    np.testing.assert_array_equal(sink_weight(np.zeros((2, 0)), 0.0), [1.0, 1.0])
    with pytest.raises(ValueError):
        softmax(np.float64(1.0))
