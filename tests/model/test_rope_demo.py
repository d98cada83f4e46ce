"""The 2-D RoPE demo: rotated scores are the unrotated q against k turned by the offset, the
RoPE-off baseline stays beside them, and the chosen frequency changes scores, never lengths."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from app.model.errors import ScenarioError
from app.model.lesson.data import load_lesson_data
from app.model.plane import editable_values
from app.model.rope import rotate
from app.model.scenario import dumps, loads
from app.model.state import ROPE_STEP_RANGE, Options, frozen_array, option_problem
from app.model.view import compute_view, initial_state


@pytest.fixture(scope="module")
def data():
    return load_lesson_data()


def dialogue(data, **options):
    state = initial_state(data).with_world("dialogue")
    return replace(state, positions=frozen_array([2, 0, 5, 9]), options=Options(**options))


def turn(vector: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]]) @ vector


@pytest.mark.parametrize("step", [1.0, 0.25, 3.0])
def test_rotated_score_is_q_against_k_turned_by_the_signed_offset(data, step):
    state = dialogue(data, rope=True, rope_step=step)
    view = compute_view(state, data)
    q = np.asarray(state.dialogue_q)
    i = state.positions[0]
    for j, key in enumerate(state.dialogue_keys):
        offset = state.positions[j + 1] - i  # signed: j − i, not |j − i|
        expected = float(q @ turn(np.asarray(key), step * offset))
        assert float(view.scores["dot"][0, j]) == pytest.approx(expected, abs=1e-12)


def test_the_baseline_is_the_rope_off_score(data):
    on = compute_view(dialogue(data, rope=True), data)
    off = compute_view(dialogue(data, rope=False), data)
    assert on.baseline is not None and off.baseline is off.scores
    for name, matrix in off.scores.items():
        np.testing.assert_array_equal(np.ma.filled(on.baseline[name], np.nan),
                                      np.ma.filled(matrix, np.nan))
    assert not np.allclose(on.scores["dot"], off.scores["dot"])  # the rotation did something


def test_the_frequency_changes_scores_but_not_lengths(data):
    slow = compute_view(dialogue(data, rope=True, rope_step=0.1), data)
    fast = compute_view(dialogue(data, rope=True, rope_step=1.0), data)
    assert not np.allclose(slow.scores["dot"], fast.scores["dot"])
    for view in (slow, fast):
        np.testing.assert_allclose(np.linalg.norm(view.q, axis=1),
                                   np.linalg.norm(view.raw_q, axis=1), rtol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(view.k, axis=1),
                                   np.linalg.norm(view.raw_k, axis=1), rtol=1e-12)


def test_a_drag_under_rope_stores_the_point_turned_back_at_the_chosen_frequency(data):
    state = dialogue(data, rope=True, rope_step=0.3)
    shown = rotate(np.array([1.5, -2.0]), float(state.positions[2]), step=0.3)
    np.testing.assert_allclose(editable_values(state, "k", 1, shown), [1.5, -2.0], atol=1e-12)


@pytest.mark.parametrize("bad", [0.0, -1.0, 3.5, float("nan"), float("inf"), True, "1"])
def test_the_frequency_is_validated(bad):
    name, why = option_problem(Options(rope_step=bad))  # type: ignore[misc]
    assert name == "rope_step" and "radians" in why


def test_the_frequency_survives_a_scenario_round_trip(data):
    state = dialogue(data, rope=True, rope_step=0.35)
    assert loads(dumps(state), state, "x.attnlab.json").options.rope_step == 0.35
    doc = json.loads(dumps(state))
    doc["options"]["rope_step"] = ROPE_STEP_RANGE[1] + 1
    with pytest.raises(ScenarioError, match="rope_step"):
        loads(json.dumps(doc), state, "x.attnlab.json")
