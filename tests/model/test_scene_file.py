"""The lesson's scenes file: what ships loads in the lesson's order with a setup per scene, and a
broken file is refused with the field to look at."""

from __future__ import annotations

import numpy as np
import pytest

from app.i18n import get, strings
from app.model.errors import DataError
from app.model.lesson.data import load_lesson_data
from app.model.lesson.scene_setup import with_pair
from app.model.lesson.scenes import SCENES_FILE, Scene, check_texts, load_scenes, scene_state

DOCKS = ("playground", "editor", "heatmap", "expansion", "match", "shapes", "timeline",
         "landscapes")
"""The docks the interface offers scenes (it passes its own list; the model knows none)."""


def test_the_shipped_lesson_has_at_least_twelve_scenes_each_with_a_setup() -> None:
    data = load_lesson_data()
    lesson = load_scenes(data=data, panels=DOCKS)
    assert len(lesson) >= 12
    assert lesson.scenes[0].world == "dialogue"  # the first screen is the 2-D world
    for scene in lesson.scenes:
        state = scene_state(scene, data)
        assert (state.world, state.scorer) == (scene.world, scene.scorer)
        assert 1 <= len(scene.panels) <= 3
        if scene.world == "teaching":
            assert state.query == data.teaching.index(scene.query_role)
            assert state.key == data.teaching.index(scene.key_role)
        else:
            assert state.key == data.dialogue.key_index(scene.key_role)
    assert any(scene.hides_answer for scene in lesson.scenes)


def _edit(edit_data, change) -> None:
    edit_data(SCENES_FILE, change)


@pytest.mark.parametrize(("change", "field", "words"), [
    (lambda d: d["scenes"][0].__setitem__("world", "3-D"), "scenes[0].world", "must be one of"),
    (lambda d: d["scenes"][1].__setitem__("panels", ["nowhere"]), "scenes[1].panels[0]",
     "must be one of"),
    (lambda d: d["scenes"][0].__setitem__("options", {"bogus": 1}), "scenes[0].options.bogus",
     "is not an option"),
    (lambda d: d["scenes"][0]["selection"].__setitem__("key", "nobody"),
     "scenes[0].selection.key", "must be a role"),
    (lambda d: d["scenes"][0].pop("title"), "scenes[0].title", "required"),
    (lambda d: d["scenes"][0].__setitem__("title", {"en": "Words"}), "scenes[0].title",
     "catalogue key"),
    (lambda d: d["scenes"][0].__setitem__("look", "Look at the plane."), "scenes[0].look",
     "catalogue key"),
    (lambda d: d["scenes"][1].__setitem__("id", d["scenes"][0]["id"]), "scenes[1].id",
     "used twice"),
    (lambda d: d["scenes"][6].__setitem__("keys", {"object": [1, 2, 3, 4]}),
     "scenes[6].keys", "only a dialogue scene"),
    (lambda d: d["scenes"][1].__setitem__("keys", {"nobody": [1, 2]}),
     "scenes[1].keys.nobody", "must be a role"),
    (lambda d: d["scenes"][1].__setitem__("keys", {"neutral": [1, 2, 3]}),
     "scenes[1].keys.neutral", "must be a list of 2 numbers"),
    (lambda d: d["scenes"][1].__setitem__("keys", {"neutral": [1, 1000]}),
     "scenes[1].keys.neutral", "within"),
    (lambda d: d["scenes"][5]["answer"].__setitem__("select", {"key": "nobody"}),
     "scenes[5].answer.select.key", "must be a role"),
    (lambda d: d["scenes"][5]["answer"].__setitem__("select", {}),
     "scenes[5].answer.select", "must name"),
    (lambda d: d["scenes"][5]["answer"].__setitem__("select", {"query": "query"}),
     "scenes[5].answer.select.query", "one query"),
    (lambda d: d["scenes"][1].__setitem__("question", "scene.design.prompt"),
     "scenes[1].question", "answer.prompt"),
    (lambda d: d["scenes"][2]["answer"].__setitem__("words", [{"en": "2nd"}]),
     "scenes[2].answer.words[0]", "catalogue key"),
])
def test_a_bad_scenes_file_is_refused_with_its_field(data_dir, edit_data, change, field,
                                                      words) -> None:
    _edit(edit_data, change)
    with pytest.raises(DataError) as refused:
        load_scenes(data=load_lesson_data(data_dir), panels=DOCKS)
    assert refused.value.field == field
    assert words in refused.value.problem


def _landscapes(lesson) -> Scene:
    return next(scene for scene in lesson.scenes if scene.id == "landscapes")


@pytest.mark.parametrize(("change", "key", "words"), [
    (lambda s: s.__setitem__("scene.landscapes.look", "Multiply 2 by 3."),
     "scene.landscapes.look", "types a number"),
    (lambda s: s.__setitem__("scene.landscapes.answer", "{broken"), "scene.landscapes.answer",
     "placeholder"),
    (lambda s: s.__setitem__("scene.landscapes.answer", "{the answer}"),
     "scene.landscapes.answer", "plain name"),
    (lambda s: s.__setitem__("scene.landscapes.prompt", "x" * 401), "scene.landscapes.prompt",
     "longer than"),
    (lambda s: s.__setitem__("scene.landscapes.word.1", "the 2nd"), "scene.landscapes.word.1",
     "types a number"),
    (lambda s: s.__setitem__("scene.landscapes.choice.b", s["scene.landscapes.choice.a"]),
     "scene.landscapes.choice.b", "same text"),
    (lambda s: s.pop("scene.landscapes.title"), "scene.landscapes.title", "missing"),
])
def test_a_catalogue_s_bad_scene_text_is_refused_with_its_key(change, key, words) -> None:
    """A scene's words live in each language's catalogue and are checked as the file's
    fields are: the refusal names the catalogue and the key."""
    lesson = load_scenes(panels=DOCKS)
    assert _landscapes(lesson).answer_words, "the case needs a scene with answer words"
    english = dict(strings("en"))
    change(english)
    with pytest.raises(DataError) as refused:
        check_texts(lesson, english, get("en").path, complete=True)
    assert (refused.value.path.name, refused.value.field) == ("en.po", key)
    assert words in refused.value.problem


def test_an_answer_names_only_values_its_words_hold() -> None:
    lesson = load_scenes(panels=DOCKS)
    scene = next(scene for scene in lesson.scenes if scene.answer_values)
    english = {**strings("en"), scene.answer.key: "Look again."}
    with pytest.raises(DataError) as refused:
        check_texts(lesson, english, get("en").path)
    assert refused.value.field == scene.answer.key
    assert scene.answer_values[0] in refused.value.problem


def test_a_text_a_language_lacks_comes_from_its_fallback() -> None:
    lesson = load_scenes(panels=DOCKS)
    partial = {"scene.landscapes.title": "Vier Landschaften"}
    check_texts(lesson, partial, get("en").path)  # no refusal: the rest falls back


def _angles(q: np.ndarray, keys: np.ndarray) -> np.ndarray:
    cos = keys @ q / (np.linalg.norm(keys, axis=1) * np.linalg.norm(q))
    return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))


def test_the_angle_scene_opens_on_a_key_nearer_in_angle_with_a_smaller_dot_product() -> None:
    """The scene asking whether the smallest angle always wins opens on a world where it
    does not: some key is nearer q in angle than the key with the largest q·k."""
    data = load_lesson_data()
    lesson = load_scenes(data=data, panels=DOCKS)
    asking = [s for s in lesson.scenes if s.moves]
    assert asking, "no scene opens on a moved key"
    for scene in asking:
        state = scene_state(scene, data)
        q, keys = state.dialogue_q, state.dialogue_keys
        dots, angles = keys @ q, _angles(q, keys)
        top = int(np.argmax(dots))
        nearer = [j for j in range(len(keys)) if angles[j] < angles[top] and dots[j] < dots[top]]
        assert nearer, (scene.id, dots, angles)
        # the data's own keys are the lesson's: only this scene moves one
        assert not np.array_equal(keys, data.dialogue.keys)
        np.testing.assert_array_equal(scene_state(lesson.scenes[0], data).dialogue_keys,
                                      data.dialogue.keys)


def test_a_reveal_selects_the_pair_its_answer_speaks_of() -> None:
    data = load_lesson_data()
    lesson = load_scenes(data=data, panels=DOCKS)
    selecting = [s for s in lesson.scenes if s.reveal_select is not None]
    assert selecting
    for scene in selecting:
        revealed = with_pair(scene_state(scene, data), scene.reveal_select, scene.world, data)
        assert revealed is not None
        assert (revealed.query, revealed.key) != (scene_state(scene, data).query,
                                                  scene_state(scene, data).key)


def test_a_question_without_a_held_back_answer_is_read() -> None:
    lesson = load_scenes(data=load_lesson_data(), panels=DOCKS)
    asked = [s for s in lesson.scenes if s.question is not None]
    assert asked and all(not s.hides_answer for s in asked)

