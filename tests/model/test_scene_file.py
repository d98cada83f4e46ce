"""The lesson's scenes file: what ships loads in the lesson's order with a setup per scene, and a
broken file is refused with the field to look at."""

from __future__ import annotations

import pytest

from app.model.data import load_lesson_data
from app.model.errors import DataError
from app.model.scenes import SCENES_FILE, load_scenes, scene_state

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
    (lambda d: d["scenes"][2]["look"].__setitem__("en", "Multiply 2 by 3."),
     "scenes[2].look.en", "types a number"),
    (lambda d: d["scenes"][1].__setitem__("panels", ["nowhere"]), "scenes[1].panels[0]",
     "must be one of"),
    (lambda d: d["scenes"][0].__setitem__("options", {"bogus": 1}), "scenes[0].options.bogus",
     "is not an option"),
    (lambda d: d["scenes"][0]["selection"].__setitem__("key", "nobody"),
     "scenes[0].selection.key", "must be a role"),
    (lambda d: d["scenes"][0]["title"].pop("zh"), "scenes[0].title.zh", "required"),
    (lambda d: d["scenes"][4]["answer"]["text"].__setitem__("zh", "{broken"),
     "scenes[4].answer.text.zh", "placeholder"),
    (lambda d: d["scenes"][1].__setitem__("id", d["scenes"][0]["id"]), "scenes[1].id",
     "used twice"),
])
def test_a_bad_scenes_file_is_refused_with_its_field(data_dir, edit_data, change, field,
                                                      words) -> None:
    _edit(edit_data, change)
    with pytest.raises(DataError) as refused:
        load_scenes(data=load_lesson_data(data_dir), panels=DOCKS)
    assert refused.value.field == field
    assert words in refused.value.problem
