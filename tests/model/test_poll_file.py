"""Each guess-first scene's poll: every shipped one loads, its right answer is true for the
scene's own setup (checked against what the model computes), and a broken poll is refused
with the field to look at."""

from __future__ import annotations

import numpy as np
import pytest

from app.i18n import strings
from app.model.answers.poll import MAX_CHOICES, MIN_CHOICES
from app.model.errors import DataError
from app.model.lesson.data import load_lesson_data
from app.model.lesson.figures import figures_of
from app.model.lesson.scenes import SCENES_FILE, load_scenes
from app.model.memory import GIB
from app.model.scoring import SCORERS, ScorerParams, Undefined, score_matrix, score_pair
from app.model.scoring.breakdown import breakdown


@pytest.fixture(scope="module")
def lesson():
    data = load_lesson_data()
    return data, load_scenes(data=data), figures_of(data)


def _scene(lesson, scene_id):
    return next(s for s in lesson[1].scenes if s.id == scene_id)


def test_every_guess_first_scene_has_a_poll_of_two_to_five_choices(lesson) -> None:
    _data, scenes, figures = lesson
    asked = [scene for scene in scenes.scenes if scene.hides_answer]
    assert asked
    for scene in asked:
        assert scene.poll is not None, scene.id
        assert MIN_CHOICES <= scene.poll.count <= MAX_CHOICES
        assert 0 <= scene.poll.right_choice(figures) < scene.poll.count
    assert all(scene.poll is None for scene in scenes.scenes if not scene.hides_answer)


def test_the_right_answers_are_not_all_in_one_place(lesson) -> None:
    _data, scenes, figures = lesson
    rights = {s.poll.right_choice(figures) for s in scenes.scenes if s.poll is not None}
    assert len(rights) >= 3


def test_design_a_key_at_a_smaller_angle_can_score_less(lesson) -> None:
    data, _scenes, _figures = lesson
    q = data.dialogue.q
    wide = data.dialogue.keys[data.dialogue.key_index("match")]  # not along q
    along = 0.1 * q  # angle zero
    assert score_pair("cosine", q, along) > score_pair("cosine", q, wide)
    assert score_pair("dot", q, along) < score_pair("dot", q, wide)
    assert _scene(lesson, "design").poll.right == 2  # "not always: length counts"


def test_landscapes_only_cosine_keeps_every_score_when_q_doubles(lesson) -> None:
    data, _scenes, _figures = lesson
    grid = np.stack(np.meshgrid(np.linspace(-3, 3, 9), np.linspace(-3, 3, 9)), -1)
    keys = grid.reshape(-1, 2)
    keys = keys[np.linalg.norm(keys, axis=1) > 0]
    q = data.dialogue.q[None, :]
    order = ("dot", "cosine", "neg_euclidean", "additive")
    unchanged = {}
    for name in order:
        params = ScorerParams(additive=data.dialogue.additive)
        one = np.ma.filled(score_matrix(name, q, keys, params), np.nan)
        two = np.ma.filled(score_matrix(name, 2 * q, keys, params), np.nan)
        unchanged[name] = bool(np.allclose(one, two))
    assert unchanged == {"dot": False, "cosine": True, "neg_euclidean": False,
                         "additive": False}
    poll = _scene(lesson, "landscapes").poll
    assert poll.right == order.index("cosine")
    assert [strings("en")[c.key] for c in poll.choices][:4] == [
        "The dot product", "Cosine", "Negative distance", "Additive"]


def test_fails_the_right_range_holds_the_tensor_the_app_computes(lesson) -> None:
    _data, _scenes, figures = lesson
    poll = _scene(lesson, "fails").poll
    assert poll.ranges is not None and poll.right is None
    size_mib = figures["additive_intermediate_gib"].value * GIB / 2**20
    right = poll.right_choice(figures)
    low, high = poll.ranges.bounds(right)
    assert (low or 0) <= size_mib < (high or np.inf)
    assert right == 3


def test_dot_2d_the_car_is_negative_by_direction_not_by_length(lesson) -> None:
    data, _scenes, _figures = lesson
    d = data.dialogue
    q, car = d.q, d.keys[d.key_index("opposite")]
    assert score_pair("cosine", q, car) < -0.9
    assert all(q * car < 0)
    assert all(score_pair("dot", q, s * car) < 0 for s in (0.1, 1, 10))  # any length
    assert score_pair("dot", q, d.keys[d.key_index("match")]) > 0  # not "always negative"
    assert _scene(lesson, "dot_2d").poll.right == 2


def test_dot_4d_the_right_product_is_the_one_that_dominates(lesson) -> None:
    data, _scenes, _figures = lesson
    t = data.teaching
    scene = _scene(lesson, "dot_4d")
    pair = breakdown(t.Q[t.index(scene.query_role)], t.K[t.index(scene.key_role)])
    assert pair.dominant_share > 0.5  # "about the same" is false
    assert scene.poll.right == pair.dominant
    assert scene.poll.count == t.E.shape[1] + 1  # one choice per dimension, and "the same"


def test_three_kinds_dot_and_cosine_rank_the_keys_differently(lesson) -> None:
    data, _scenes, _figures = lesson
    t = data.teaching
    scene = _scene(lesson, "three_kinds")
    row = t.Q[t.index(scene.query_role)][None, :]
    dot = np.argsort(-score_matrix("dot", row, t.K)[0])
    cos = np.argsort(-np.ma.filled(score_matrix("cosine", row, t.K)[0], -np.inf))
    assert list(dot) != list(cos) and list(dot) != list(cos[::-1])
    assert scene.poll.right == 0


def test_myth_other_scorers_score_the_same_pair(lesson) -> None:
    data, _scenes, _figures = lesson
    d = data.dialogue
    q, k = d.q, d.keys[0]
    others = [name for name in SCORERS if name not in ("dot", "scaled_dot", "qk_norm")]
    params = ScorerParams(additive=d.additive)
    for name in others:
        assert not isinstance(score_pair(name, q, k, params), Undefined)
    assert _scene(lesson, "myth").poll.right == 1


def _poll(doc, index):
    return doc["scenes"][index]["answer"]["poll"]


@pytest.mark.parametrize(("change", "field", "words"), [
    (lambda d: _poll(d, 1)["choices"].__setitem__(1, {"zh": "是", "en": "Yes"}),
     "scenes[1].answer.poll.choices[1]", "catalogue key"),
    (lambda d: _poll(d, 1)["choices"].extend(f"scene.design.choice.{c}" for c in "xyz"),
     "scenes[1].answer.poll.choices", "2 to 5 choices"),
    (lambda d: _poll(d, 1)["choices"].__setitem__(1, _poll(d, 1)["choices"][0]),
     "scenes[1].answer.poll.choices[1]", "same text"),
    (lambda d: _poll(d, 1).__setitem__("right", 3), "scenes[1].answer.poll.right",
     "index of a choice"),
    (lambda d: _poll(d, 1).__setitem__("right", True), "scenes[1].answer.poll.right",
     "index of a choice"),
    (lambda d: _poll(d, 1).pop("right"), "scenes[1].answer.poll.right", "required"),
    (lambda d: _poll(d, 1).__setitem__("colour", "red"), "scenes[1].answer.poll.colour",
     "not part of a poll"),
    (lambda d: _poll(d, 1).__setitem__("ranges", _poll(d, 4)["ranges"]),
     "scenes[1].answer.poll", "not both"),
    (lambda d: _poll(d, 4).pop("ranges"), "scenes[4].answer.poll", "neither"),
    (lambda d: _poll(d, 4)["ranges"].__setitem__("figure", "nothing"),
     "scenes[4].answer.poll.ranges.figure", "computed number"),
    (lambda d: _poll(d, 4)["ranges"].__setitem__("unit", "pairs"),
     "scenes[4].answer.poll.ranges.unit", "figure's unit"),
    (lambda d: _poll(d, 4)["ranges"].__setitem__("edges", [1, 64, 64]),
     "scenes[4].answer.poll.ranges.edges[2]", "larger than the edge before"),
    (lambda d: _poll(d, 4)["ranges"].__setitem__("edges", [1, 2, 3, 4, 5]),
     "scenes[4].answer.poll.ranges.edges", "1 to 4 edges"),
    (lambda d: _poll(d, 4)["ranges"].__setitem__("edges", [1, "2"]),
     "scenes[4].answer.poll.ranges.edges[1]", "must be a number"),
    (lambda d: _poll(d, 4).__setitem__("right", 1), "scenes[4].answer.poll.right",
     "computed"),
    (lambda d: _poll(d, 4)["ranges"].__setitem__("per", 1),
     "scenes[4].answer.poll.ranges.per", "not part of a poll"),
])
def test_a_bad_poll_is_refused_with_its_field(data_dir, edit_data, change, field,
                                              words) -> None:
    edit_data(SCENES_FILE, change)
    with pytest.raises(DataError) as refused:
        load_scenes(data=load_lesson_data(data_dir))
    assert refused.value.field == field
    assert words in refused.value.problem


def test_a_poll_may_be_left_out(data_dir, edit_data) -> None:
    edit_data(SCENES_FILE, lambda d: d["scenes"][1]["answer"].pop("poll"))
    scene = load_scenes(data=load_lesson_data(data_dir)).scenes[1]
    assert scene.hides_answer and scene.poll is None
