"""Weights follow the selected scorer, and a longer q sharpens the dot product's weights but
never cosine's: the lesson's case for keeping length in the score."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from app.model import embeddings as embeddings_module
from app.model import view as view_module
from app.model.lesson.data import load_lesson_data
from app.model.scoring import score_matrix
from app.model.scoring.breakdown import ranks
from app.model.state import Q_SCALES, Options, option_problem
from app.model.view import compute_view, initial_state


@pytest.fixture(scope="module")
def data():
    return load_lesson_data()


def _view(data, scorer: str, q_scale: float = 1.0, **options):
    state = initial_state(data)
    state = dataclasses.replace(state, scorer=scorer, options=dataclasses.replace(
        state.options, q_scale=q_scale, **options))
    return compute_view(state, data), state.query


def test_scaling_q_by_four_sharpens_dot_and_leaves_cosine_alone(data):
    dot, row = _view(data, "dot")
    dot4, _ = _view(data, "dot", 4.0)
    assert dot4.weights[row].max() > dot.weights[row].max() + 0.2
    cos, _ = _view(data, "cosine")
    cos4, _ = _view(data, "cosine", 4.0)
    np.testing.assert_allclose(cos4.weights, cos.weights, rtol=0, atol=1e-15)
    assert cos.weights[row].max() < dot.weights[row].max()  # capped in [−1, 1]: flat


def test_a_longer_q_is_the_scorer_at_that_q(data):
    base, _ = _view(data, "dot")
    view, _ = _view(data, "dot", 2.0)
    np.testing.assert_array_equal(view.weight_scores.data, 2.0 * base.scores["dot"].data)
    assert view.scores["dot"] is not view.weight_scores  # the heatmap's scores stay q's own


def test_each_scorer_gives_its_own_weights(data):
    rows = {name: _view(data, name)[0].weights[3] for name in ("dot", "scaled_dot", "cosine")}
    assert not np.allclose(rows["dot"], rows["scaled_dot"])
    assert not np.allclose(rows["dot"], rows["cosine"])
    for weights in rows.values():
        assert weights.sum() == pytest.approx(1.0)


def test_causal_mask_and_sink_still_apply_to_any_scorer(data):
    view, _ = _view(data, "cosine", 2.0, causal=True, sink_logit=0.0)
    assert (view.weights[~view.allowed] == 0).all()
    np.testing.assert_allclose(view.weights.sum(axis=1) + view.sink_weight, 1.0, atol=1e-15)


@pytest.mark.parametrize("bad", [0.0, 3.0, 8.0, float("nan"), True, "2"])
def test_only_the_offered_lengths_are_accepted(bad):
    assert option_problem(Options(q_scale=bad))[0] == "q_scale"
    for good in Q_SCALES:
        assert option_problem(Options(q_scale=good)) is None


def test_embedding_cosines_rank_the_query_itself_first_and_qk_ranks_it_last(data):
    view, row = _view(data, "dot")
    assert view.embeddings is not None
    assert float(view.embeddings.cos[row, row]) == pytest.approx(1.0)
    assert view.embeddings.row_ranks[row] == 1
    assert view.row_ranks["dot"][row] == len(view.key_names)


def test_the_dialogue_world_has_no_embeddings(data):
    state = initial_state(data).with_world("dialogue")
    assert compute_view(state, data).embeddings is None
    assert option_problem(Options(heatmap_source="E")) [0] == "heatmap_source"


def test_q_scale_and_heatmap_source_round_trip_through_a_scenario(data):
    import json

    from app.model.errors import ScenarioError
    from app.model.scenario import dumps, loads

    template = initial_state(data)
    state = dataclasses.replace(template, options=dataclasses.replace(
        template.options, q_scale=0.25, heatmap_source="embeddings"))
    assert loads(dumps(state), template) == state
    doc = json.loads(dumps(state))
    doc["options"]["q_scale"] = 3.0
    with pytest.raises(ScenarioError, match="q_scale"):
        loads(json.dumps(doc), template)
    del doc["options"]["q_scale"], doc["options"]["heatmap_source"]  # an older file
    assert loads(json.dumps(doc), template).options.q_scale == 1.0


@pytest.fixture
def scored(monkeypatch) -> list[str]:
    """The scorers whose matrices a view works out (its own and cos(E·Eᵀ)), in order, from
    now on."""
    calls: list[str] = []
    real = view_module.score_matrix

    def counted(name, *args, **kwargs):
        calls.append(name)
        return real(name, *args, **kwargs)

    for module in (view_module, embeddings_module):
        monkeypatch.setattr(module, "score_matrix", counted)
    return calls


def test_embedding_cosines_are_worked_out_once_for_the_data_files_embeddings(data, scored):
    first, _row = _view(data, "dot")
    scored.clear()  # from the edit on
    state = initial_state(data)
    moved = compute_view(state.with_vector("k", 0, state.teaching_k[0] + 0.5), data)
    assert moved.embeddings.cos is first.embeddings.cos  # E did not change: nor did cos(E)
    assert moved.scores["cosine"] is moved.scores["cosine"]  # worked out when first read
    assert scored.count("cosine") == 1, "q·k's own cosine only, not cos(E·Eᵀ) again"
    np.testing.assert_array_equal(first.embeddings.cos, score_matrix("cosine", data.teaching.E,
                                                                     data.teaching.E, None))


def test_a_view_works_out_only_the_scorers_it_is_asked_for_and_the_same_numbers(data, scored):
    """A drag step that reads only the dot product pays for no other scorer; one read
    later gets the matrix a full pass computes, and its row and ranks follow from it."""
    state = initial_state(data)
    compute_view(state, data)  # the data file's cos(E·Eᵀ), once for every view after it
    scored.clear()
    view = compute_view(state, data)
    assert scored == ["dot"]
    assert set(view.scores) == set(view.row_ranks) == set(view.row_scores) > {"dot"}
    q, k = state.vectors
    params = view.params
    for name in view.scores:
        expected = score_matrix(name, q, k, params)
        np.testing.assert_array_equal(view.scores[name], expected)
        np.testing.assert_array_equal(view.row_scores[name], expected[state.query])
        np.testing.assert_array_equal(view.row_ranks[name], ranks(expected[state.query]))
    assert sorted(scored) == sorted(view.scores)  # each once, however often it was read
