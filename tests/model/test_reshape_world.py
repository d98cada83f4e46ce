"""Reshaping the 4-D teaching world as pure state operations: names, counts, widths, roles,
the scorers whose learned weights no longer fit, and the scenario file that keeps it all."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from app.model import reshape
from app.model.errors import ScenarioError
from app.model.lesson.data import MAX_TOKENS, load_lesson_data
from app.model.scenario import dumps, loads
from app.model.state import Options
from app.model.view import compute_view, initial_state

DATA = load_lesson_data()
GIVEN, APPLE = DATA.teaching.index("query"), DATA.teaching.index("object")


def lesson():
    return initial_state(DATA)


@pytest.mark.parametrize(("name", "problem"), [
    ("", "empty"), ("   ", "empty"), (" 猫", "spaces"), ("猫 ", "spaces"),
    ("x" * (reshape.MAX_NAME + 1), "too_long"), ("a\tb", "control"), ("a\nb", "control"),
    ("\u200bzero", "control"), ("苹果", "taken"),
])
def test_bad_names_are_named(name: str, problem: str) -> None:
    assert reshape.name_problem(name, DATA.teaching.tokens) == problem


def test_good_names_and_renaming_to_itself() -> None:
    tokens = DATA.teaching.tokens
    assert reshape.name_problem("香蕉", tokens) is None
    assert reshape.name_problem("x" * reshape.MAX_NAME, tokens) is None
    assert reshape.name_problem("苹果", tokens, ignore=tokens.index("苹果")) is None


def test_counts() -> None:
    assert reshape.count_problem(reshape.MIN_TOKENS - 1) == "too_few"
    assert reshape.count_problem(MAX_TOKENS + 1) == "too_many"
    assert reshape.count_problem(MAX_TOKENS) is None


def test_add_appends_a_zero_token_and_marks_the_world_reshaped() -> None:
    state = reshape.add_token(lesson(), DATA, "香蕉")
    assert state.reshaped and not lesson().reshaped
    assert state.teaching_tokens == (*DATA.teaching.tokens, "香蕉")
    assert state.teaching_q.shape == (6, 4) and not state.teaching_q[-1].any()
    assert np.array_equal(state.teaching_k[:5], lesson().teaching_k)
    view = compute_view(state, DATA)
    assert view.key_names[-1] == "香蕉" and view.scores["dot"].shape == (6, 6)


def test_remove_keeps_the_selection_on_the_same_tokens() -> None:
    state = replace(lesson(), query=GIVEN, key=4)  # 给了 against 小王
    removed = reshape.remove_token(state, DATA, 0)  # 小明 goes
    tokens = removed.teaching_tokens
    assert tokens[removed.query] == "给了" and tokens[removed.key] == "小王"
    assert np.array_equal(removed.teaching_q, np.delete(state.teaching_q, 0, axis=0))


def test_removing_a_selected_role_token_falls_back() -> None:
    state = replace(lesson(), query=GIVEN, key=APPLE)
    removed = reshape.remove_token(state, DATA, APPLE)  # the object 苹果 is gone
    assert removed.key == 0 and removed.teaching_tokens[removed.query] == "给了"
    gone = reshape.remove_token(removed, DATA, removed.query)  # and now the query 给了
    assert gone.query == len(gone.teaching_tokens) - 1  # the last token asks
    assert reshape.role_index(gone, DATA, "query") is None
    assert reshape.teaching_selection(gone, DATA) == (len(gone.teaching_tokens) - 1, 0)


def test_roles_follow_names_not_positions() -> None:
    renamed = reshape.rename_token(lesson(), DATA, APPLE, "梨")
    assert renamed.teaching_tokens[APPLE] == "梨"
    assert reshape.role_index(renamed, DATA, "object") is None
    assert reshape.role_row(renamed, DATA, "object") == 0
    moved = reshape.remove_token(lesson(), DATA, 0)
    assert reshape.role_index(moved, DATA, "query") == GIVEN - 1


def test_width_pads_with_zeros_and_truncates() -> None:
    wide = reshape.with_dimension(lesson(), DATA, 6)
    assert wide.teaching_q.shape == (5, 6) and not wide.teaching_q[:, 4:].any()
    assert np.array_equal(wide.teaching_q[:, :4], lesson().teaching_q)
    narrow = reshape.with_dimension(lesson(), DATA, 2)
    assert np.array_equal(narrow.teaching_k, lesson().teaching_k[:, :2])
    assert narrow.reshaped and narrow.teaching_tokens == DATA.teaching.tokens


def test_a_new_width_has_no_learned_weights() -> None:
    state = replace(lesson(), scorer="additive")
    moved = reshape.with_dimension(state, DATA, 5)
    assert moved.scorer == "dot"
    assert not reshape.scorer_usable(moved, DATA, "additive")
    assert not reshape.scorer_usable(moved, DATA, "qk_norm")
    assert reshape.scorer_usable(moved, DATA, "cosine")
    view = compute_view(moved, DATA)
    assert "additive" not in view.scores and "qk_norm" not in view.scores
    assert view.scores["cosine"].shape == (5, 5)
    back = reshape.with_dimension(moved, DATA, 4)  # the lesson's width: the weights fit again
    assert reshape.scorer_usable(back, DATA, "additive")
    assert "additive" in compute_view(back, DATA).scores


def test_two_heads_need_an_even_width() -> None:
    state = replace(lesson(), options=Options(heads=2))
    odd = reshape.with_dimension(state, DATA, 3)
    assert odd.options.heads == 1
    assert reshape.heads_problem(odd, Options(heads=2)) is not None
    even = reshape.with_dimension(state, DATA, 6)
    assert even.options.heads == 2
    assert len(compute_view(even, DATA).heads) == 2


def test_causal_mask_follows_the_token_count() -> None:
    state = replace(reshape.add_token(lesson(), DATA, "香蕉"), options=Options(causal=True))
    view = compute_view(state, DATA)
    assert view.allowed.shape == (6, 6) and np.array_equal(view.allowed, np.tril(np.ones((6, 6))))


# ---- the scenario file ----------------------------------------------------------------------

def test_a_reshaped_world_round_trips_through_a_scenario() -> None:
    state = reshape.add_token(lesson(), DATA, "香蕉")
    state = reshape.rename_token(state, DATA, 0, "Ming")
    state = reshape.with_dimension(state, DATA, 6)
    state = reshape.remove_token(state, DATA, 2)
    back = loads(dumps(state), lesson())
    assert back == state and back.teaching_tokens == state.teaching_tokens
    assert back.teaching_q.shape == (5, 6)


def test_older_files_without_tokens_still_load_as_the_lesson() -> None:
    text = dumps(lesson())
    assert "teaching_tokens" not in text
    assert loads(text, lesson()) == lesson()


@pytest.mark.parametrize(("tokens", "words"), [
    (["a"], "must name 2 to"),
    (["a", "a", "b", "c", "d"], "appears twice"),
    (["a", "", "b", "c", "d"], "non-empty"),
    (["a", 3, "b", "c", "d"], "must be a name"),
    ("abcde", "must be a list"),
])
def test_bad_token_lists_are_refused_by_field(tokens, words: str) -> None:
    root = json.loads(dumps(lesson()))
    root["teaching_tokens"] = tokens
    with pytest.raises(ScenarioError) as error:
        loads(json.dumps(root), lesson())
    assert "teaching_tokens" in str(error.value) and words in str(error.value)


def test_shapes_must_match_the_token_list_and_width_limits() -> None:
    state = reshape.add_token(lesson(), DATA, "香蕉")
    root = json.loads(dumps(state))
    root["teaching_tokens"] = root["teaching_tokens"][:5]
    with pytest.raises(ScenarioError, match=r"vectors\.teaching\.Q.*must have 5"):
        loads(json.dumps(root), lesson())
    wide = json.loads(dumps(reshape.with_dimension(lesson(), DATA, 4)))
    wide["vectors"]["teaching"]["Q"] = [row + [0] * 6 for row in wide["vectors"]["teaching"]["Q"]]
    with pytest.raises(ScenarioError, match=r"Q\[0\].*2 to 8 numbers"):
        loads(json.dumps(wide), lesson())


def test_a_file_cannot_ask_for_learned_weights_at_a_new_width() -> None:
    root = json.loads(dumps(reshape.with_dimension(lesson(), DATA, 6)))
    root["scorer"] = "additive"
    with pytest.raises(ScenarioError, match=r"scorer.*d = 4"):
        loads(json.dumps(root), lesson())
    root = json.loads(dumps(reshape.with_dimension(lesson(), DATA, 3)))
    root["options"]["heads"] = 2
    with pytest.raises(ScenarioError, match=r"options\.heads"):
        loads(json.dumps(root), lesson())
