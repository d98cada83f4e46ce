"""The tally: one vote per device that moves when it changes, frozen by Reveal, kept as counts
only (a record to save, a CSV), and a saved record that is not valid refused by its field."""

from __future__ import annotations

import csv
import io
import json

import pytest

from app.model.answers.tally import Outcome, PollBook, RecordError, SceneTally

A, B = "a" * 22, "b" * 22


def _tally(max_devices: int = 500) -> SceneTally:
    return SceneTally("s", ("x", "y", "z"), right=1, max_devices=max_devices)


def test_an_answer_counts_and_a_change_moves_one_vote() -> None:
    tally = _tally()
    assert tally.answer(A, 0) is Outcome.COUNTED
    assert tally.counts == (1, 0, 0)
    assert tally.answer(A, 2) is Outcome.CHANGED
    assert tally.counts == (0, 0, 1)
    assert tally.answer(A, 2) is Outcome.UNCHANGED
    assert tally.answer(B, 2) is Outcome.COUNTED
    assert tally.counts == (0, 0, 2)
    assert tally.devices == 2


def test_freezing_stops_every_change_and_forgets_the_devices() -> None:
    tally = _tally()
    tally.answer(A, 0)
    assert tally.freeze() is True
    assert tally.freeze() is False
    assert tally.answer(A, 1) is Outcome.FROZEN
    assert tally.answer(B, 1) is Outcome.FROZEN
    assert tally.counts == (1, 0, 0)
    assert tally.devices == 0


def test_devices_are_bounded_and_choices_checked() -> None:
    tally = _tally(max_devices=2)
    assert tally.answer(A, 0).accepted and tally.answer(B, 0).accepted
    assert tally.answer("c" * 22, 0) is Outcome.FULL
    assert tally.answer(A, 1) is Outcome.CHANGED  # a counted device still changes
    assert tally.answer(A, 3) is Outcome.NO_SUCH_CHOICE
    assert tally.answer(A, -1) is Outcome.NO_SUCH_CHOICE
    assert tally.counts == (1, 1, 0)


def test_a_scene_keeps_its_counts_when_the_class_comes_back() -> None:
    book = PollBook()
    first = book.open("s", ("x", "y"), 0)
    first.answer(A, 1)
    book.open("t", ("p", "q", "r"), 2)
    again = book.open("s", ("x in English", "y in English"), 0)
    assert again is first and again.counts == (0, 1)
    assert again.choices == ("x in English", "y in English")
    other = book.open("s", ("one", "two", "three"), 1)  # the question itself changed
    assert other is not first and other.counts == (0, 0, 0)


def test_the_record_holds_counts_and_questions_but_no_device() -> None:
    book = PollBook()
    book.open("s", ("x", "y"), 0).answer(A, 1)
    tally = book.open("t", ("p", "q"), None)
    tally.answer(B, 0)
    tally.freeze()
    record = book.to_json()
    text = json.dumps(record)
    assert A not in text and B not in text
    back = PollBook.from_json(json.loads(text))
    assert [(s.scene, s.counts, s.right) for s in back.summaries()] == [
        ("s", (0, 1), 0), ("t", (1, 0), None)]
    assert all(s.frozen for s in back.summaries())  # who answered what was never kept
    assert back.get("s").answer(A, 0) is Outcome.FROZEN


def test_csv_has_a_row_per_choice_with_its_count() -> None:
    book = PollBook()
    tally = book.open("fails", ("less than, say, a lot", "more"), 1)
    tally.answer(A, 1)
    tally.answer(B, 1)
    tally.freeze()
    rows = list(csv.reader(io.StringIO(book.csv_text())))
    assert rows == [["scene", "choice", "text", "answers", "right", "frozen"],
                    ["fails", "1", "less than, say, a lot", "0", "", "yes"],
                    ["fails", "2", "more", "2", "yes", "yes"]]


def test_csv_never_hands_a_spreadsheet_a_formula() -> None:
    """Choices can come from a colleague's scenario file: one that starts a formula is text."""
    book = PollBook()
    book.open("s", ("=HYPERLINK(\"http://x\")", "-1", "fine"), 2)
    rows = list(csv.reader(io.StringIO(book.csv_text())))
    assert [row[2] for row in rows[1:]] == ["'=HYPERLINK(\"http://x\")", "'-1", "fine"]


def _record(**change):
    scene = {"scene": "s", "choices": ["x", "y"], "right": 0, "counts": [1, 2],
             "frozen": False, **change}
    return {"version": 1, "scenes": [scene]}


@pytest.mark.parametrize(("record", "field"), [
    ([], "(record)"),
    ({"version": 2, "scenes": []}, "version"),
    ({"version": 1, "scenes": {}}, "scenes"),
    ({"version": 1, "scenes": [1]}, "scenes[0]"),
    (_record(counts=[1]), "scenes[0].counts"),
    (_record(counts=[1, -2]), "scenes[0].counts[1]"),
    (_record(counts=[1, True]), "scenes[0].counts[1]"),
    (_record(counts=[1, 10**7]), "scenes[0].counts[1]"),
    (_record(right=2), "scenes[0].right"),
    (_record(choices="xy"), "scenes[0].choices"),
    (_record(scene=""), "scenes[0].scene"),
    (_record(frozen="yes"), "scenes[0].frozen"),
    ({"version": 1, "scenes": [_record()["scenes"][0]] * 2}, "scenes[1].scene"),
])
def test_a_bad_record_is_refused_by_its_field(record, field) -> None:
    with pytest.raises(RecordError) as refused:
        PollBook.from_json(record)
    assert refused.value.field == field
