"""Tests for app.model.scoring (registry, matrix vs pair, validation) and its qknorm module."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from app.model.scoring import (
    SCORERS,
    UNDEFINED_ZERO,
    ScorerParams,
    Undefined,
    as_vectors,
    get_scorer,
    register,
    score_matrix,
    score_pair,
)
from app.model.scoring.additive import AdditiveWeights
from app.model.scoring.qknorm import QKNormWeights, rms_norm

FAST = settings(deadline=None, max_examples=60)
elem = st.floats(-10, 10, allow_nan=False).map(lambda x: round(x, 3))


def params_for(d: int, seed: int = 0) -> ScorerParams:
    rng = np.random.default_rng(seed)
    return ScorerParams(
        additive=AdditiveWeights(
            rng.normal(size=(3, d)), rng.normal(size=(3, d)), rng.normal(size=3)
        ),
        qk_norm=QKNormWeights(rng.uniform(0.5, 2.0, size=d), eps=1e-6),
    )


def test_registry_order_and_metadata() -> None:
    assert list(SCORERS) == ["dot", "scaled_dot", "cosine", "neg_euclidean", "additive", "qk_norm"]
    assert {n: s.formula for n, s in SCORERS.items()} == {
        "dot": "q·k",
        "scaled_dot": "q·k/√d",
        "cosine": "q·k/(|q||k|)",
        "neg_euclidean": "−|q−k|",
        "additive": "vᵀtanh(W₁q+W₂k)",
        "qk_norm": "RMSNorm(q)·RMSNorm(k)",
    }
    assert {n for n, s in SCORERS.items() if s.needs} == {"additive", "qk_norm"}
    assert SCORERS["additive"].needs == "additive" and SCORERS["qk_norm"].needs == "qk_norm"
    assert SCORERS["cosine"].bounded == (-1.0, 1.0)
    assert all(s.bounded is None for n, s in SCORERS.items() if n != "cosine")
    assert not SCORERS["neg_euclidean"].signed and SCORERS["dot"].signed
    assert all(s.name == n for n, s in SCORERS.items())


def test_known_values_dialogue_sample() -> None:
    q, k = [2.0, 3.0], [2.0, 2.0]
    assert score_pair("dot", q, k) == 10.0
    assert score_pair("scaled_dot", q, k) == pytest.approx(10 / math.sqrt(2))
    assert score_pair("cosine", q, k) == pytest.approx(10 / (math.sqrt(13) * math.sqrt(8)))
    assert score_pair("neg_euclidean", q, k) == pytest.approx(-1.0)
    assert isinstance(score_pair("dot", q, k), float)


@FAST
@given(arrays(np.float64, 4, elements=elem), arrays(np.float64, 4, elements=elem))
def test_dot_equals_lengths_times_cosine(q: np.ndarray, k: np.ndarray) -> None:
    cos = score_pair("cosine", q, k)
    if not q.any() or not k.any():
        assert cos == UNDEFINED_ZERO
        return
    expected = np.linalg.norm(q) * np.linalg.norm(k) * cos
    assert score_pair("dot", q, k) == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("name", list(SCORERS))
@settings(deadline=None, max_examples=40)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 5), st.data())
def test_matrix_equals_pair_cell_by_cell(name: str, tq: int, tk: int, d: int, data) -> None:
    Q = data.draw(arrays(np.float64, (tq, d), elements=elem))
    K = data.draw(arrays(np.float64, (tk, d), elements=elem))
    _check_matrix_against_pairs(name, Q, K)


@pytest.mark.parametrize("name", list(SCORERS))
def test_matrix_equals_pair_on_dense_random_data(name: str) -> None:
    rng = np.random.default_rng(7)
    Q, K = rng.normal(size=(4, 6)), rng.normal(size=(5, 6))
    Q[1] = 0.0  # one zero-length query: cosine must mask that row
    _check_matrix_against_pairs(name, Q, K)


def _check_matrix_against_pairs(name: str, Q: np.ndarray, K: np.ndarray) -> None:
    tq, d = Q.shape
    tk = K.shape[0]
    params = params_for(d)
    M = score_matrix(name, Q, K, params)
    assert isinstance(M, np.ma.MaskedArray) and M.shape == (tq, tk)
    scale = 1.0 + float(np.abs(Q).max() + np.abs(K).max()) ** 2 * d
    for i in range(tq):
        for j in range(tk):
            p = score_pair(name, Q[i], K[j], params)
            if isinstance(p, Undefined):
                assert M.mask is not np.ma.nomask and M.mask[i, j]
            else:
                assert not np.ma.getmaskarray(M)[i, j]
                if name == "neg_euclidean":  # cancelled cells are recomputed: full digits
                    assert float(M[i, j]) == pytest.approx(p, rel=1e-12, abs=0.0)
                else:
                    assert float(M[i, j]) == pytest.approx(p, abs=1e-9 * scale)


def test_total_scorers_allocate_no_mask() -> None:
    rng = np.random.default_rng(3)
    Q, K = rng.normal(size=(3, 4)), rng.normal(size=(5, 4))
    for name in SCORERS:
        assert score_matrix(name, Q, K, params_for(4)).mask is np.ma.nomask


def test_cosine_zero_vector_is_undefined_not_nan() -> None:
    assert score_pair("cosine", [0.0, 0.0], [1.0, 2.0]) is UNDEFINED_ZERO
    assert score_pair("cosine", [1.0, 2.0], np.zeros(2)) == Undefined("zero-length vector")
    Q = np.array([[1.0, 0.0], [0.0, 0.0]])
    K = np.array([[1.0, 1.0], [0.0, 0.0], [-1.0, 0.0]])
    M = score_matrix("cosine", Q, K)
    np.testing.assert_array_equal(np.ma.getmaskarray(M), [[False, True, False], [True, True, True]])
    assert not np.isnan(M.data).any()
    assert M[0, 0] == pytest.approx(1 / math.sqrt(2))
    assert M[0, 2] == pytest.approx(-1.0)


def test_cosine_of_tiny_and_huge_vectors() -> None:
    assert score_pair("cosine", [1e-200, 0.0], [3e-200, 0.0]) == pytest.approx(1.0)
    assert score_pair("cosine", [1e150, 1e150], [1e150, 0.0]) == pytest.approx(1 / math.sqrt(2))
    M = score_matrix("cosine", [[1e-200, 1e-200]], [[0.0, 5e-300]])
    assert M[0, 0] == pytest.approx(1 / math.sqrt(2))


def test_neg_euclidean_never_positive_nor_nan_on_equal_rows() -> None:
    rng = np.random.default_rng(4)
    X = rng.normal(scale=1e3, size=(50, 16))
    M = score_matrix("neg_euclidean", X, X)
    assert (M <= 0).all() and not np.isnan(M.data).any()
    assert np.abs(np.diag(M.data)).max() < 1e-4


def _near_duplicates(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """Keys a hair apart, far from the origin: |q|²+|k|²−2q·k cancels almost every digit."""
    rng = np.random.default_rng(11)
    base = rng.normal(scale=30.0, size=(4, 8))
    Q = np.vstack([base, base[:2] + 1e-4 * rng.normal(size=(2, 8))])
    K = np.vstack([base + 1e-3 * rng.normal(size=(4, 8)), base[:1]])
    return Q.astype(dtype), K.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_neg_euclidean_matrix_keeps_the_pair_functions_digits_for_near_duplicates(dtype) -> None:
    """The matrix must say what the pair function says, cell by cell, to float precision."""
    rel = 64 * float(np.finfo(dtype).eps)
    lesson = np.array([[100.0, 100.0], [100.004, 100.0], [100.002, 99.999], [3.0, -4.0]], dtype)
    for Q, K in (_near_duplicates(dtype), (lesson, lesson)):
        M = score_matrix("neg_euclidean", Q, K)
        assert M.dtype == dtype
        for i in range(len(Q)):
            for j in range(len(K)):
                p = score_pair("neg_euclidean", Q[i], K[j])
                assert float(M[i, j]) == pytest.approx(p, rel=rel, abs=0.0), (i, j)
    M = score_matrix("neg_euclidean", lesson, lesson)
    assert M[0, 1] != M[0, 0] == 0.0  # float32: 0.004 apart used to come out identical


def test_dtypes_preserved_and_no_copy() -> None:
    Q32 = np.ones((2, 3), dtype=np.float32)
    for name in SCORERS:
        assert score_matrix(name, Q32, Q32, params_for(3)).dtype == np.float32
    assert score_matrix("dot", [[1, 2]], [[3, 4]]).dtype == np.float64
    Q = np.ones((2, 3))
    A, _ = as_vectors(Q, Q)
    assert A is Q


@pytest.mark.parametrize("name", ["dot", "neg_euclidean", "cosine"])
def test_matrix_memory_is_about_the_output(name: str) -> None:
    rng = np.random.default_rng(5)
    T, d = 512, 64
    Q, K = rng.normal(size=(T, d)), rng.normal(size=(T, d))
    out = T * T * 8
    tracemalloc.start()
    try:
        score_matrix(name, Q, K)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    extra = 2 * T * d * 8 if name == "cosine" else 0  # the two normalised copies
    assert peak <= out + extra + 128 * 1024  # slack < one extra T×d copy (256 KiB)


def test_validation_messages() -> None:
    with pytest.raises(ValueError, match="dimension mismatch"):
        score_matrix("dot", np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="shape"):
        score_matrix("dot", np.ones(3), np.ones((2, 3)))
    with pytest.raises(ValueError, match="shape"):
        score_pair("dot", np.ones((1, 3)), np.ones(3))
    with pytest.raises(ValueError, match="d = 0"):
        score_pair("dot", [], [])
    with pytest.raises(ValueError, match="real numbers"):
        score_pair("dot", ["a"], ["b"])
    with pytest.raises(ValueError, match="NaN"):
        score_pair("dot", [np.nan], [1.0])
    with pytest.raises(ValueError, match="beyond"):
        score_pair("dot", [1e300], [1.0])
    with pytest.raises(ValueError, match="unknown scorer"):
        score_matrix("manhattan", np.ones((1, 1)), np.ones((1, 1)))
    with pytest.raises(ValueError, match="unknown scorer"):
        get_scorer("")


@pytest.mark.parametrize(("name", "words"), [("additive", "W1, W2, v"), ("qk_norm", "gain")])
def test_missing_or_mismatched_params_named(name: str, words: str) -> None:
    for params in (None, ScorerParams()):
        with pytest.raises(ValueError, match=words):
            score_matrix(name, np.ones((1, 3)), np.ones((1, 3)), params)
        with pytest.raises(ValueError, match=words):
            score_pair(name, np.ones(3), np.ones(3), params)
    with pytest.raises(ValueError, match="d ="):
        score_matrix(name, np.ones((1, 2)), np.ones((1, 2)), params_for(3))


def test_register_is_one_local_change() -> None:
    @register(
        "test_manhattan",
        formula="−Σ|qᵢ−kᵢ|",
        signed=False,
        pair=lambda q, k, _w: -float(np.abs(q - k).sum()),
    )
    def _m(Q: np.ndarray, K: np.ndarray, _w: None) -> np.ndarray:
        return -np.abs(Q[:, None, :] - K[None, :, :]).sum(axis=2)

    try:
        assert list(SCORERS)[-1] == "test_manhattan"
        assert score_pair("test_manhattan", [1.0, 2.0], [0.0, 0.0]) == -3.0
        assert score_matrix("test_manhattan", [[1.0, 2.0]], [[0.0, 0.0]])[0, 0] == -3.0
        with pytest.raises(ValueError, match="already registered"):
            register("test_manhattan", formula="x", pair=lambda q, k, w: 0.0)(_m)
    finally:
        del SCORERS["test_manhattan"]
    with pytest.raises(ValueError, match="needs"):
        register("bad", formula="x", pair=lambda q, k, w: 0.0, needs="temperature")


def test_rms_norm() -> None:
    x = np.array([3.0, 4.0])
    rms = math.sqrt((9 + 16) / 2)
    np.testing.assert_allclose(rms_norm(x, np.array([1.0, 2.0]), 1e-12), [3 / rms, 8 / rms])
    np.testing.assert_array_equal(rms_norm(np.zeros((2, 2)), np.ones(2), 1e-6), 0.0)
    with pytest.raises(ValueError):
        rms_norm(x, np.ones(3), 1e-6)
    with pytest.raises(ValueError):
        rms_norm(x, np.ones(2), 0.0)


def test_qk_norm_weights_validation() -> None:
    w = QKNormWeights([1.0, 2.0])
    assert w.eps == 1e-6 and w.d == 2 and not w.gain.flags.writeable
    for bad in (
        {"gain": []},
        {"gain": [[1.0]]},
        {"gain": [np.nan]},
        {"gain": [1.0], "eps": 0.0},
        {"gain": [1.0], "eps": -1.0},
        {"gain": [1.0], "eps": "x"},
    ):
        with pytest.raises(ValueError):
            QKNormWeights(**bad)


@FAST
@given(arrays(np.float64, 4, elements=elem), arrays(np.float64, 4, elements=elem))
def test_qk_norm_with_unit_gain_is_d_times_cosine(q: np.ndarray, k: np.ndarray) -> None:
    assume(np.linalg.norm(q) > 0.1 and np.linalg.norm(k) > 0.1)
    p = ScorerParams(qk_norm=QKNormWeights(np.ones(4), eps=1e-12))
    assert score_pair("qk_norm", q, k, p) == pytest.approx(4 * score_pair("cosine", q, k), abs=1e-6)
