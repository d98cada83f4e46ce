"""The history of earlier classes: its file reads back exactly what was written, a broken one
is refused naming the field, a class handed in twice is kept once, and its CSV carries each
class's date and time before the counts."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta, timezone

import pytest

from app.model.answers.class_history import (
    HISTORY_CSV_HEADER,
    ClassRecord,
    HistoryError,
    history_csv,
    history_text,
    read_history,
    shown_time,
    with_class,
)
from app.model.answers.tally import SceneCounts

BEIJING = timezone(timedelta(hours=8))
FIRST = ClassRecord(datetime(2026, 3, 5, 14, 3, tzinfo=BEIJING), (
    SceneCounts("design", ("点积", "=余弦"), 0, (12, 3), True),
    SceneCounts("scale", ("a", "b", "c"), 2, (1, 0, 4), False)))
SECOND = ClassRecord(datetime(2026, 3, 6, 9, 30, tzinfo=BEIJING), (
    SceneCounts("design", ("点积", "=余弦"), 0, (7, 8), True),))


def test_the_file_reads_back_what_was_written() -> None:
    text = history_text((FIRST, SECOND))
    assert "点积" in text, "Chinese choices are written as they are"
    assert read_history(text) == (FIRST, SECOND)
    assert read_history(history_text(())) == ()


def test_a_class_is_kept_once_and_an_empty_class_not_at_all() -> None:
    kept = with_class((), FIRST)
    assert with_class(kept, FIRST) == (FIRST,)
    assert with_class(kept, SECOND) == (FIRST, SECOND)
    nobody = ClassRecord(SECOND.when, (SceneCounts("design", ("a", "b"), 0, (0, 0), False),))
    assert with_class(kept, nobody) == kept


def _doc() -> dict:
    return json.loads(history_text((FIRST,)))


@pytest.mark.parametrize(("text", "field"), [
    ("{", "(file)"),
    ("[]", "(file)"),
    (json.dumps({**_doc(), "version": 2}), "version"),
    (json.dumps({**_doc(), "classes": {}}), "classes"),
    (json.dumps({**_doc(), "classes": [{"when": "2026-03-05T14:03:00+08:00"}]}), "classes[0]"),
    (json.dumps({**_doc(), "classes": [{**_doc()["classes"][0], "when": "yesterday"}]}),
     "classes[0].when"),
    (json.dumps({**_doc(), "classes": [{**_doc()["classes"][0], "when": "2026-03-05T14:03"}]}),
     "classes[0].when"),
])
def test_a_broken_file_names_the_field_at_fault(text: str, field: str) -> None:
    with pytest.raises(HistoryError) as caught:
        read_history(text)
    assert caught.value.field == field


def test_a_bad_count_inside_a_class_names_its_path() -> None:
    doc = _doc()
    doc["classes"][0]["poll"]["scenes"][1]["counts"][2] = -1
    with pytest.raises(HistoryError) as caught:
        read_history(json.dumps(doc))
    assert caught.value.field == "classes[0].poll.scenes[1].counts[2]"


def test_the_csv_leads_each_row_with_its_class_and_never_starts_a_formula() -> None:
    rows = list(csv.reader(io.StringIO(history_csv((FIRST, SECOND)))))
    assert rows[0] == list(HISTORY_CSV_HEADER)
    body = rows[1:]
    expected = [(shown_time(record.when), scene.scene, str(count))
                for record in (FIRST, SECOND) for scene in record.scenes
                for count in scene.counts]
    assert [(r[0], r[1], r[4]) for r in body] == expected
    assert body[1][3] == "'=余弦", "a choice that looks like a formula stays text"
    assert [r[5] for r in body[:2]] == ["yes", ""], "the right answer is marked"
