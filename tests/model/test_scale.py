"""Scale mode's numbers: reproducible random Q, K, blockwise scores equal to the full matrix,
downsampling that keeps the extremes, and the cost figures the lesson quotes."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from app.model.attention import attention_weights
from app.model.scale import (
    SCALE_TS,
    ScaleRequest,
    block_extreme,
    block_image,
    compute_scale,
    downsample_factor,
    random_params,
    random_qk,
    scale_cost,
    score_levels,
)
from app.model.scoring import score_matrix


def reference_extreme(values: np.ndarray, factor: int) -> np.ndarray:
    """Block extremes by reshaping (T divisible by factor): an independent second method."""
    n = values.shape[0] // factor
    blocks = values.reshape(n, factor, n, factor).transpose(0, 2, 1, 3).reshape(n, n, -1)
    out = np.full((n, n), np.nan)
    for index in np.ndindex(n, n):
        cells = blocks[index][~np.isnan(blocks[index])]
        if cells.size:
            out[index] = cells[np.argmax(np.abs(cells))]
    return out


def test_same_seed_same_matrices_other_seed_different():
    Q1, K1 = random_qk(64, 256, seed=7)
    Q2, K2 = random_qk(64, 256, seed=7)
    Q3, _ = random_qk(64, 256, seed=8)
    assert Q1.shape == K1.shape == (64, 256)
    assert np.array_equal(Q1, Q2) and np.array_equal(K1, K2)
    assert not np.array_equal(Q1, Q3)
    assert not np.array_equal(Q1, K1)


def test_random_entries_have_unit_variance_so_scores_spread_as_sqrt_d():
    Q, K = random_qk(512, 256, seed=3)
    assert abs(float(Q.mean())) < 0.01 and abs(float(Q.var()) - 1.0) < 0.01
    assert abs(float((Q @ K.T).std()) / 16.0 - 1.0) < 0.02  # √256 = 16


def test_selector_is_powers_of_two_up_to_4096():
    assert SCALE_TS[0] == 8 and SCALE_TS[-1] == 4096
    assert all(b == 2 * a for a, b in itertools.pairwise(SCALE_TS))


@pytest.mark.parametrize(("T", "target", "factor"), [(8, 512, 1), (512, 512, 1), (513, 512, 2),
                                                     (1024, 512, 2), (4096, 600, 8)])
def test_downsample_factor_is_the_smallest_power_of_two_that_fits(T, target, factor):
    assert downsample_factor(T, target) == factor
    assert math.ceil(T / factor) <= target
    if factor > 1:
        assert math.ceil(T / (factor // 2)) > target


def test_block_extreme_keeps_the_sign_of_the_largest_magnitude_and_skips_nan():
    row = np.array([[1.0, -3.0, 2.0, np.nan, np.nan, np.nan, 0.5, -0.25]])
    assert np.allclose(block_extreme(row, 2, 1)[0, [0, 1, 3]], [-3.0, 2.0, 0.5])
    assert np.isnan(block_extreme(row, 2, 1)[0, 2])
    assert block_extreme(row, 1, 1) is row


@pytest.mark.parametrize("scorer", ["dot", "scaled_dot", "cosine", "neg_euclidean", "additive",
                                    "qk_norm"])
def test_unreduced_picture_equals_the_full_score_matrix(scorer):
    request = ScaleRequest(T=32, d=16, seed=3, scorer=scorer, target_px=64)
    result = compute_scale(request)
    Q, K = random_qk(32, 16, 3)
    full = score_matrix(scorer, Q, K, random_params(16, 3)).filled(np.nan)
    assert result.factor == 1
    assert np.allclose(result.image, full, rtol=1e-5, atol=1e-5)


def test_downsampled_picture_matches_an_independent_block_reduction():
    request = ScaleRequest(T=256, d=32, seed=1, target_px=40)
    result = compute_scale(request)
    Q, K = random_qk(256, 32, 1)
    assert result.factor == 8 and result.image.shape == (32, 32)
    expected = reference_extreme(np.asarray(Q @ K.T, dtype=np.float64), 8)
    assert np.allclose(result.image, expected, rtol=1e-5)
    full_reach = float(np.max(np.abs(Q @ K.T)))  # the peak survives the downsampling
    low, high = result.levels
    assert low == -high and full_reach <= high < 1.2 * full_reach


def test_causal_weights_are_zero_above_the_diagonal_and_rows_sum_to_one():
    request = ScaleRequest(T=64, d=32, seed=2, scorer="scaled_dot", mode="weights",
                           causal=True, target_px=64)
    image = compute_scale(request).image
    Q, K = random_qk(64, 32, 2)
    expected = attention_weights(Q.astype(np.float64), K.astype(np.float64), causal=True)
    assert np.all(image[np.triu_indices(64, 1)] == 0.0)
    assert np.allclose(image.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(image, expected, atol=1e-6)


@pytest.mark.parametrize("scorer", ["dot", "cosine"])
def test_scale_weights_follow_the_scorer(scorer):
    request = ScaleRequest(T=32, d=16, seed=3, scorer=scorer, mode="weights", target_px=32)
    Q, K = random_qk(32, 16, 3)
    scores = score_matrix(scorer, Q.astype(np.float64), K.astype(np.float64)).filled(-np.inf)
    expected = np.exp(scores - scores.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(compute_scale(request).image, expected, atol=1e-5)


def test_causal_scores_have_no_value_in_the_future():
    image = compute_scale(ScaleRequest(T=16, d=8, causal=True, target_px=16)).image
    assert np.all(np.isnan(image[np.triu_indices(16, 1)]))
    assert not np.any(np.isnan(image[np.tril_indices(16)]))


def test_a_stop_request_abandons_the_work():
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 1

    request = ScaleRequest(T=4096, d=8, target_px=64)
    assert compute_scale(request, should_stop=stop) is None
    assert len(calls) == 2


def test_levels_follow_the_meaning_of_the_values():
    values = np.array([[-2.0, 5.0], [np.nan, 1.0]])
    assert score_levels("dot", values) == (-5.0, 5.0)
    assert score_levels("cosine", values) == (-1.0, 1.0)
    assert score_levels("neg_euclidean", -np.abs(values)) == (-5.0, -1.0)
    assert score_levels("dot", np.zeros((2, 2))) == (-1.0, 1.0)
    weights = compute_scale(ScaleRequest(T=8, d=4, mode="weights")).levels
    assert weights == (0.0, 1.0)


def test_levels_read_only_the_finite_values():
    """NaN (a masked cell) and ±inf (an overflow) take no part in the range."""
    values = np.array([[-2.0, np.inf], [np.nan, 3.0]], dtype=np.float32)
    assert score_levels("dot", values) == score_levels("dot", np.array([-2.0, 3.0]))
    assert score_levels("neg_euclidean", -values) == score_levels(
        "neg_euclidean", np.array([2.0, -3.0]))
    for hopeless in (np.full((2, 2), np.nan), np.array([[np.inf, -np.inf]]), np.zeros((0, 3))):
        assert score_levels("dot", hopeless) == (-1.0, 1.0)
        assert score_levels("neg_euclidean", hopeless) == (-1.0, 1.0)


def test_cost_grows_as_t_squared_and_matches_the_lesson_at_4096():
    cost = scale_cost(4096, 256)
    assert cost.pairs == 4096**2
    assert cost.score_bytes == 32 * 2**20  # the lesson's "32 MiB" for BF16 scores
    assert cost.additive_bytes == 8 * 2**30  # and "8.0 GiB" for additive's naive tensor
    assert scale_cost(2048, 256).pairs * 4 == cost.pairs


@pytest.mark.parametrize("bad", [dict(T=0), dict(T=8192), dict(T=8, d=0), dict(T=True),
                                 dict(T=8, scorer="nope"), dict(T=8, mode="both")])
def test_bad_requests_are_refused_with_a_reason(bad):
    with pytest.raises(ValueError, match=r"\w"):
        ScaleRequest(**bad)


@pytest.mark.parametrize("shape", [(64, 64), (67, 130), (1, 9)])
@pytest.mark.parametrize("factor", [2, 4, 8, 16])
def test_a_picture_reduced_from_the_halved_cells_is_the_same_picture(shape, factor):
    rng = np.random.default_rng(factor)
    values = rng.standard_normal(shape).astype(np.float32)
    values[rng.random(shape) < 0.2] = np.nan  # masked cells
    values[:, :3] = np.nan  # whole blocks with nothing to show
    values[0, 3], values[0, 4] = 5.0, -5.0  # a tie in magnitude keeps the positive one
    halved = block_image(block_image(values, 2), factor // 2)
    direct = block_image(values, factor)
    assert halved.shape == direct.shape and halved.dtype == direct.dtype
    np.testing.assert_array_equal(halved, direct)
