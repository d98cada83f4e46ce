"""The class's poll counts in a scenario file: written only when a scene was answered, read
back exactly, refused field by field like every other part of the file, and held to the
question's own limits, so what the app writes it reads back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.model.answers.poll import MAX_CHOICES
from app.model.answers.tally import MAX_SCENE_CHARS, MAX_TEXT, PollBook, SceneCounts
from app.model.errors import ScenarioError
from app.model.lesson.data import load_lesson_data
from app.model.scenario import dumps, loads, loads_file, read_scenario_file, write_scenario
from app.model.view import initial_state
from app.poll.questions import Question

TEMPLATE = initial_state(load_lesson_data())
POLL = (SceneCounts("design", ("dot", "cosine", "additive"), 0, (12, 3, 1), True),
        SceneCounts("fails", ("less", "more"), 1, (4, 0), False))


def _doc(**poll: object) -> dict:
    doc = json.loads(dumps(TEMPLATE, POLL))
    doc["poll"].update(poll)
    return doc


def test_the_counts_are_written_beside_the_state_and_read_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "class.attnlab.json"
    write_scenario(TEMPLATE, path, POLL)
    back = read_scenario_file(path, TEMPLATE)
    assert back.state == TEMPLATE and back.poll == POLL
    assert dumps(back.state, back.poll) == path.read_text(encoding="utf-8")
    scenes = json.loads(path.read_text(encoding="utf-8"))["poll"]["scenes"]
    assert [set(scene) for scene in scenes] == [
        {"scene", "choices", "right", "counts", "frozen"}] * 2, "nothing about any student"


def test_no_counts_no_field_and_a_file_without_one_opens_as_before() -> None:
    text = dumps(TEMPLATE)
    assert "poll" not in json.loads(text)
    assert loads_file(text, TEMPLATE).poll == ()
    assert loads(dumps(TEMPLATE, POLL), TEMPLATE) == TEMPLATE


def test_counts_brought_back_are_frozen_as_the_tally_reads_them() -> None:
    back = loads_file(dumps(TEMPLATE, POLL), TEMPLATE)
    book = PollBook.restored(back.poll)
    assert [s.counts for s in book.summaries()] == [(12, 3, 1), (4, 0)]
    assert all(s.frozen for s in book.summaries())


@pytest.mark.parametrize(("doc", "field", "words"), [
    ({**_doc(), "poll": []}, "poll", "must be an object with version and scenes"),
    (_doc(version=2), "poll.version", "this app reads 1"),
    (_doc(scenes={}), "poll.scenes", "must be a list"),
    (_doc(scenes=[{"scene": "s"}]), "poll.scenes[0]", "must be an object with"),
    (_doc(scenes=[{**POLL[1].to_json(), "counts": [1, -2]}]), "poll.scenes[0].counts[1]",
     "must be a whole number from 0 to"),
    (_doc(scenes=[{**POLL[1].to_json(), "counts": [1]}]), "poll.scenes[0].counts",
     "one count per choice"),
    (_doc(scenes=[{**POLL[1].to_json(), "right": 2}]), "poll.scenes[0].right",
     "must be a whole number from 0 to 1"),
    (_doc(scenes=[POLL[1].to_json()] * 2), "poll.scenes[1].scene", "once"),
    (_doc(scenes=[{**POLL[1].to_json(), "scene": "s" * (MAX_SCENE_CHARS + 1)}]),
     "poll.scenes[0].scene", f"at most {MAX_SCENE_CHARS} characters"),
    (_doc(scenes=[{**POLL[1].to_json(), "choices": ["x" * (MAX_TEXT + 1), "y"]}]),
     "poll.scenes[0].choices", f"at most {MAX_TEXT} characters"),
    (_doc(scenes=[{**POLL[1].to_json(), "choices": ["x"] * (MAX_CHOICES + 1),
                   "counts": [0] * (MAX_CHOICES + 1)}]),
     "poll.scenes[0].choices", f"1 to {MAX_CHOICES} texts"),
])
def test_a_bad_poll_field_is_one_line_naming_the_file_and_the_field(doc, field, words) -> None:
    with pytest.raises(ScenarioError) as refused:
        loads(json.dumps(doc), TEMPLATE, "class.attnlab.json")
    message = str(refused.value)
    assert message.startswith(f"class.attnlab.json: {field}: "), message
    assert words in message and "\n" not in message


def test_the_record_reader_and_the_question_share_their_limits() -> None:
    """A question the poll can ask is a record the reader reads: the longest id and texts."""
    longest = Question("s" * MAX_SCENE_CHARS, "?", ("x" * MAX_TEXT,) * MAX_CHOICES, 0, "en")
    counts = SceneCounts(longest.scene, longest.choices, longest.right,
                         (0,) * MAX_CHOICES, True)
    assert loads_file(dumps(TEMPLATE, (counts,)), TEMPLATE).poll == (counts,)
    with pytest.raises(ValueError):
        Question("s" * (MAX_SCENE_CHARS + 1), "?", ("x", "y"), 0, "en")
    with pytest.raises(ValueError):
        Question("s", "?", ("x" * (MAX_TEXT + 1), "y"), 0, "en")
