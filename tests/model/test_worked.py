"""Each scorer's own calculation for one pair arrives at the score its matrix holds (every
scorer of the registry, random vectors), ends on the matrix cell when handed it, and writes the
steps a class checks by hand."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from app.model.lesson.data import load_lesson_data
from app.model.scoring import SCORERS, ScorerParams, Undefined, score_matrix
from app.model.scoring.additive import AdditiveWeights
from app.model.scoring.qknorm import QKNormWeights
from app.model.scoring.worked import (
    AdditiveWork,
    CosineWork,
    DistanceWork,
    DotWork,
    NormedWork,
    pair_work,
    worked,
)
from app.model.view import compute_view, initial_state

FAST = settings(deadline=None, max_examples=50)
ELEMENT = st.floats(-6, 6, allow_nan=False, allow_infinity=False, width=64)


def params(d: int, seed: int) -> ScorerParams:
    rng = np.random.default_rng(seed)
    additive = AdditiveWeights(rng.normal(size=(3, d)), rng.normal(size=(3, d)),
                               rng.normal(size=3))
    return ScorerParams(additive=additive,
                        qk_norm=QKNormWeights(rng.uniform(0.5, 2.0, size=d), 1e-6))


@st.composite
def pairs(draw) -> tuple[np.ndarray, np.ndarray, int]:
    d = draw(st.integers(1, 6))
    q = draw(arrays(np.float64, d, elements=ELEMENT))
    k = draw(arrays(np.float64, d, elements=ELEMENT))
    return q, k, draw(st.integers(0, 1000))


@FAST
@pytest.mark.parametrize("scorer", list(SCORERS))
@given(pair=pairs())
def test_the_steps_arrive_at_the_matrix_cell_for_every_scorer(scorer, pair) -> None:
    q, k, seed = pair
    weights = params(len(q), seed)
    cell = score_matrix(scorer, q[None, :], k[None, :], weights)[0, 0]
    work = worked(scorer, q, k, weights)
    if cell is np.ma.masked:  # cosine of a zero vector: no value, and the steps say so
        assert isinstance(work.reached, Undefined) and isinstance(work.total, Undefined)
        return
    scale = max(1.0, float(np.max(np.abs(np.concatenate([q, k])))) ** 2 * len(q))
    assert work.reached == pytest.approx(float(cell), rel=1e-9, abs=1e-9 * scale)
    assert work.total == work.reached  # nothing handed in: the steps' own end
    handed = worked(scorer, q, k, weights, total=float(cell))
    assert handed.total == float(cell)  # the one number path: the cell itself
    assert handed.terms.shape == (weights.additive.d_a if scorer == "additive" else len(q),)


def test_every_registered_scorer_has_its_own_steps() -> None:
    q, k = np.array([2.0, 3.0]), np.array([2.0, 2.0])
    kinds = {name: type(worked(name, q, k, params(2, 0))) for name in SCORERS}
    assert kinds == {"dot": DotWork, "scaled_dot": DotWork, "cosine": CosineWork,
                     "neg_euclidean": DistanceWork, "additive": AdditiveWork,
                     "qk_norm": NormedWork}


def test_the_lessons_pair_by_hand() -> None:
    """q = (2, 3), k = (2, 2): the numbers a class writes on the board for each scorer."""
    q, k = np.array([2.0, 3.0]), np.array([2.0, 2.0])
    weights = ScorerParams(qk_norm=QKNormWeights(np.array([1.5, 1.5]), 1e-6))
    dot = worked("dot", q, k)
    assert list(dot.terms) == [4.0, 6.0] and dot.total == 10.0 and dot.dominant == 1
    scaled = worked("scaled_dot", q, k)
    assert scaled.divisor == math.sqrt(2) and scaled.total == pytest.approx(10 / math.sqrt(2))
    cosine = worked("cosine", q, k)
    assert cosine.pair.total == 10.0
    assert cosine.total == pytest.approx(10 / (math.sqrt(13) * math.sqrt(8)))
    distance = worked("neg_euclidean", q, k)
    assert list(distance.diff) == [0.0, 1.0] and distance.squared == 1.0
    assert distance.total == -1.0
    normed = worked("qk_norm", q, k, weights)
    assert normed.rms_q == pytest.approx(math.sqrt(6.5 + 1e-6))
    assert normed.q_hat == pytest.approx(1.5 * q / math.sqrt(6.5 + 1e-6))
    assert normed.uniform_gain == 1.5
    assert normed.total == pytest.approx(float(normed.q_hat @ normed.k_hat))


def test_missing_weights_and_unknown_scorers_are_refused() -> None:
    q = np.array([1.0, 2.0])
    with pytest.raises(ValueError, match="additive weights"):
        worked("additive", q, q)
    with pytest.raises(ValueError, match="unknown scorer"):
        worked("cubic", q, q)


@pytest.mark.parametrize("scorer", list(SCORERS))
@pytest.mark.parametrize("world", ["dialogue", "teaching"])
def test_a_views_pair_ends_on_its_own_cells(scorer, world) -> None:
    """pair_work takes the score from the active matrix and q·k from the dot matrix, even
    where a second float path would differ in the last bit."""
    data = load_lesson_data()
    state = dataclasses.replace(initial_state(data).with_world(world), scorer=scorer)
    view = compute_view(state, data)
    work = pair_work(view, state.query, state.key)
    assert work is not None
    assert work.total == float(view.active[state.query, state.key])
    if isinstance(work, (DotWork, CosineWork)):
        assert work.pair.total == float(view.scores["dot"][state.query, state.key])
    assert work.reached == pytest.approx(work.total, rel=1e-12, abs=1e-12)
