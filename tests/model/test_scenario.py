"""Scenario files: an exact round trip of every field, and a clear ScenarioError for bad files."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model import atomic, scenario
from app.model.errors import ScenarioError
from app.model.jsonfile import describe
from app.model.scenario import MAX_BYTES, dumps, loads, read_scenario, write_scenario
from app.model.state import (
    EDIT_LIMIT,
    MAX_HEADS,
    MAX_SCALE_D,
    MAX_SCALE_T,
    MAX_SEED,
    SINK_LIMIT,
    LabState,
    Options,
    frozen_array,
    option_problem,
)
from app.ui.notices import word


def template() -> LabState:
    """A lesson-shaped state (2-D world: 1 q, 3 keys; teaching world: 5 tokens × 4 dims)."""
    rng = np.random.default_rng(7)
    return LabState(
        world="teaching",
        scorer="dot",
        dialogue_q=frozen_array([2, 3]),
        dialogue_keys=frozen_array([[2, 2], [1, 0.5], [-1, -0.7]]),
        teaching_q=frozen_array(rng.normal(size=(5, 4)).round(2)),
        teaching_k=frozen_array(rng.normal(size=(5, 4)).round(2)),
        query=3,
        key=2,
    )


def edited() -> LabState:
    """Every kind of field away from its default, so a field the file forgets shows up."""
    base = template()
    q = np.array(base.teaching_q)
    q[4] = [0.1, -99.5, 1e-7, 3.0]
    return replace(
        base,
        world="dialogue",
        scorer="cosine",
        dialogue_q=frozen_array([-1.25, 0.3333333333333333]),
        teaching_q=frozen_array(q),
        query=0,
        key=1,
        positions=frozen_array([5, 0, 2, 9]),
        options=Options(heatmap_mode="weights", causal=True, heads=2, sink_logit=0.5, rope=True,
                        show_additive=True, stage="why-dot"),
    )


def document(state: LabState | None = None) -> dict:
    return json.loads(dumps(state or edited()))


def load(doc: dict | str) -> LabState:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return loads(text, template(), "test.attnlab.json")


def test_round_trip_restores_every_field_exactly(tmp_path: Path) -> None:
    state = edited()
    path = tmp_path / f"lesson{scenario.SUFFIX}"
    write_scenario(state, path)
    restored = read_scenario(path, template())
    assert restored == state
    assert restored.options == state.options
    assert not restored.teaching_q.flags.writeable
    assert state != template(), "the edited state must differ, or this test proves nothing"


def test_every_option_field_is_written_and_read() -> None:
    doc = document()
    assert set(doc["options"]) == {f.name for f in fields(Options)}
    assert doc["schema_version"] == scenario.SCHEMA_VERSION
    assert doc["format"] == scenario.FORMAT


def test_file_is_readable_by_hand_one_vector_per_line() -> None:
    text = dumps(edited())
    assert "\n        [0.1, -99.5, 1e-07, 3.0]," not in text
    assert "\n        [0.1, -99.5, 1e-07, 3.0]\n" in text
    assert '"positions": [5, 0, 2, 9]' in text
    assert text.endswith("}\n")


finite = st.floats(min_value=-EDIT_LIMIT, max_value=EDIT_LIMIT, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(
    q=st.lists(finite, min_size=20, max_size=20),
    world=st.sampled_from(["dialogue", "teaching"]),
    heads=st.sampled_from([1, 2]),  # what the document accepts (MAX_HEADS), not more
    sink=st.one_of(st.none(), st.floats(-SINK_LIMIT, SINK_LIMIT, allow_nan=False)),
)
def test_any_valid_state_round_trips(q: list[float], world: str, heads: int,
                                     sink: float | None) -> None:
    state = replace(template(), world=world, teaching_q=frozen_array(np.reshape(q, (5, 4))),
                    query=0, key=1, options=Options(heads=heads, sink_logit=sink))
    assert load(dumps(state)) == state


def test_missing_options_take_their_defaults_so_older_files_open() -> None:
    doc = document()
    del doc["options"]["stage"]
    del doc["options"]["heads"]
    options = load(doc).options
    assert options.heads == Options().heads and options.stage is None
    assert options.causal is True


def problem(doc: dict | str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        load(doc)
    return caught.value


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda d: d.update(world="moon"), "world", "must be one of"),
        (lambda d: d.update(scorer="manhattan"), "scorer", "must be one of"),
        (lambda d: d["vectors"]["teaching"]["Q"][2].__setitem__(1, "abc"),
         "vectors.teaching.Q[2][1]", "must be a number"),
        (lambda d: d["vectors"]["teaching"]["K"].pop(), "vectors.teaching.K", "must have 5"),
        (lambda d: d["vectors"]["dialogue"]["keys"][0].append(1), "vectors.dialogue.keys[0]",
         "must have 2"),
        (lambda d: d["vectors"]["dialogue"].__setitem__("q", [1e9, 0]), "vectors.dialogue.q[0]",
         "between"),
        (lambda d: d["selection"].update(query=1), "selection.query", "from 0 to 0"),
        (lambda d: d["selection"].update(key=True), "selection.key", "whole number"),
        (lambda d: d["options"].update(causal="yes"), "options.causal", "true or false"),
        (lambda d: d["options"].update(heads=10**9), "options.heads", "from 1 to 2"),
        (lambda d: d["options"].update(scale_d=10**6), "options.scale_d", "from 1 to"),
        (lambda d: d["options"].update(heatmap_mode="both"), "options.heatmap_mode", "one of"),
        (lambda d: d["options"].update(colour="red"), "options.colour", "unknown field"),
        (lambda d: d.update(extra=1), "extra", "unknown field"),
        (lambda d: d.pop("vectors"), "vectors", "required"),
        (lambda d: d["positions"].__setitem__(2, 1.5), "positions[2]", "whole number"),
        (lambda d: d.update(format="something-else"), "format", "not an Attention Lab"),
        (lambda d: d.update(schema_version=99), "schema_version", "newer"),
        (lambda d: d.update(schema_version="1"), "schema_version", "whole number"),
    ],
)
def test_invalid_field_names_what_and_where(change, field: str, words: str) -> None:
    doc = document()
    change(doc)
    error = problem(doc)
    assert error.field == field
    assert words in error.problem
    assert str(error).startswith(f"test.attnlab.json: {field}: ")


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ('{"format": ', "line 1 column 12", "not valid JSON"),
        ("[1, 2]", "(file)", "must be a JSON object"),
        ('{"a": 1, "a": 2}', "(file)", "appears twice"),
        ('{"options": {"causal": true, "causal": false}}', "(file)", "key causal appears twice"),
        ("", "line 1 column 1", "not valid JSON"),
    ],
)
def test_broken_json_is_reported_with_its_position(text: str, field: str, words: str) -> None:
    error = problem(text)
    assert (error.field, words in error.problem) == (field, True)


def test_nan_and_infinity_are_refused_where_they_stand() -> None:
    text = dumps(edited()).replace("3.0]", "NaN]", 1)
    assert "NaN" in text
    error = problem(text)
    assert error.field == "vectors.teaching.Q[4][3]"
    assert "NaN" in error.problem
    huge = dumps(edited()).replace("3.0]", "1e999]", 1)
    assert "finite" in problem(huge).problem


def read_error(path: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        read_scenario(path, template())
    return caught.value


def test_file_level_problems(tmp_path: Path) -> None:
    assert "not found" in read_error(tmp_path / "missing.attnlab.json").problem
    assert "folder" in read_error(tmp_path).problem
    latin1 = tmp_path / "latin1.attnlab.json"
    latin1.write_bytes('{"world": "caf\u00e9"}'.encode("latin-1"))
    assert "UTF-8" in read_error(latin1).problem
    big = tmp_path / "big.attnlab.json"
    big.write_bytes(b" " * (MAX_BYTES + 1))
    assert f"larger than {MAX_BYTES // 2**20} MB" in read_error(big).problem
    truncated = tmp_path / "half.attnlab.json"
    truncated.write_text(dumps(edited())[:200], encoding="utf-8")
    assert "not valid JSON" in read_error(truncated).problem


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "notepad.attnlab.json"
    path.write_bytes(b"\xef\xbb\xbf" + dumps(edited()).encode("utf-8"))
    assert read_scenario(path, template()) == edited()


def test_unreadable_file_says_permission(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "locked.attnlab.json"
    write_scenario(edited(), path)

    def locked(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", locked)  # chmod 0 does not stop root, who runs CI
    assert "permission" in read_error(path).problem


def test_atomic_write_leaves_no_temporary_files_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "s.attnlab.json"
    path.write_text("old", encoding="utf-8")
    write_scenario(edited(), path)
    assert read_scenario(path, template()) == edited()
    assert [p.name for p in tmp_path.iterdir()] == ["s.attnlab.json"]


def test_failed_atomic_write_keeps_the_old_file(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "s.attnlab.json"
    write_scenario(template(), path)

    def no_space(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", no_space)
    with pytest.raises(OSError):
        write_scenario(edited(), path)
    monkeypatch.undo()
    assert read_scenario(path, template()) == template()
    assert [p.name for p in tmp_path.iterdir()] == ["s.attnlab.json"]


def test_never_pickle() -> None:
    source = Path(scenario.__file__).read_text(encoding="utf-8")
    assert "pickle" not in source.replace("never pickle", "")


@pytest.mark.parametrize(
    ("typed", "saved"),
    [("lesson", "lesson.attnlab.json"), ("lesson.attnlab", "lesson.attnlab.json"),
     ("lesson.json", "lesson.json"), ("a.attnlab.json", "a.attnlab.json")],
)
def test_save_names_get_the_scenario_suffix(typed: str, saved: str) -> None:
    assert scenario.with_scenario_suffix(Path("/x") / typed) == Path("/x") / saved


# ---- one option rule for the reader and the document -------------------------------------

@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"heads": 4}, "options.heads", "whole number from 1 to 2, found 4"),
        ({"scale_T": 1}, "options.scale_T", f"from 2 to {MAX_SCALE_T}, found 1"),
        ({"scale_d": MAX_SCALE_D + 1}, "options.scale_d", f"from 1 to {MAX_SCALE_D}"),
        ({"scale_seed": -1}, "options.scale_seed", f"from 0 to {MAX_SEED}, found -1"),
        ({"sink_logit": SINK_LIMIT + 0.5}, "options.sink_logit",
         f"from −{SINK_LIMIT:g} to {SINK_LIMIT:g}, found 50.5"),
        ({"stage": "x" * 201}, "options.stage", "short text"),
    ],
)
def test_options_the_document_refuses_are_refused_on_read(options: dict, field: str,
                                                          words: str) -> None:
    doc = document()
    doc["options"].update(options)
    error = problem(doc)
    assert (error.field, str(error)) == (field, f"test.attnlab.json: {field}: {error.problem}")
    assert words in error.problem
    name = field.split(".")[1]
    assert option_problem(replace(Options(), **options)) == (name, error.problem)


def test_options_at_their_limits_open_and_every_option_change_still_works(qtbot) -> None:
    from app.model.lesson.data import load_lesson_data
    from app.model.view import initial_state
    from app.state.document import Document

    document_ = Document(load_lesson_data())
    at_limits = {"heads": MAX_HEADS, "scale_T": 2, "scale_d": MAX_SCALE_D,
                 "scale_seed": MAX_SEED, "sink_logit": -SINK_LIMIT, "stage": "x" * 200}
    doc = json.loads(dumps(initial_state(document_.data)))
    doc["options"].update(at_limits)
    state = loads(json.dumps(doc), document_.state, "limits.attnlab.json")
    assert {name: getattr(state.options, name) for name in at_limits} == at_limits
    document_.load_state(state)
    refused: list[str] = []
    document_.notice.connect(lambda notice: refused.append(word(notice)))
    for change in ({"causal": True}, {"heads": 1}, {"sink_logit": SINK_LIMIT},
                   {"scale_T": MAX_SCALE_T}, {"scale_seed": 0}, {"stage": None}):
        document_.set_options(**change)
        assert refused == [] and all(
            getattr(document_.state.options, k) == v for k, v in change.items())
    document_.set_options(heads=MAX_HEADS + 1)  # and the same rule refuses in the document
    assert refused and "heads must be a whole number from 1 to 2" in refused[0]


# ---- what the loader accepts, the saver can write ------------------------------------------

@pytest.mark.parametrize(
    ("escape", "field"),
    [
        ('"stage": "why-dot"', "options.stage"),
        ('"heatmap_mode": "weights"', "options.heatmap_mode"),
    ],
)
def test_a_lone_surrogate_is_refused_by_name(escape: str, field: str) -> None:
    key, value = escape.split(": ")
    text = dumps(edited()).replace(escape, f"{key}: {value[:-1]}\\ud800\"")
    assert "\\ud800" in text
    error = problem(text)
    assert error.field == field
    assert "lone surrogate" in error.problem and "UTF-8" in error.problem
    str(error).encode("utf-8")  # the message itself can be printed and logged


def test_a_lone_surrogate_in_a_key_is_refused_before_it_reaches_a_message() -> None:
    text = dumps(edited()).replace('"causal": true', '"caus\\udc00al": true')
    error = problem(text)
    assert error.field == "options" and "key" in error.problem
    str(error).encode("utf-8")


def test_every_state_the_reader_accepts_can_be_saved(tmp_path: Path) -> None:
    state = loads(dumps(edited()), template(), "ok.attnlab.json")
    write_scenario(state, tmp_path / "again.attnlab.json")
    assert read_scenario(tmp_path / "again.attnlab.json", template()) == state


# ---- messages a teacher can act on ----------------------------------------------------------

def test_empty_file_name_says_so() -> None:
    error = read_error(Path(""))
    assert error.problem.startswith("the file name is empty")
    assert str(error).startswith("(no file name): (file): the file name is empty")
    assert "folder" not in str(error)


def test_fractional_position_names_the_number_without_numpy() -> None:
    doc = document()
    doc["positions"][1] = 0.5
    error = problem(doc)
    assert str(error) == "test.attnlab.json: positions[1]: must be a whole number, found 0.5"


def test_position_out_of_range_says_the_range_in_plain_digits() -> None:
    doc = document()
    doc["positions"][1] = 2_000_000
    assert problem(doc).problem == ("must be between −1,000,000 and 1,000,000, "
                                    "found 2000000")


def test_an_overlong_integer_names_its_field_and_says_it_is_too_long() -> None:
    text = dumps(edited()).replace('"scale_seed": 0', '"scale_seed": ' + "9" * 5000)
    error = problem(text)
    assert (error.field, error.problem) == ("options.scale_seed",
                                            "number is too long (5000 digits)")
    assert "sys.set_int_max_str_digits" not in str(error)


def test_no_message_shows_a_numpy_repr() -> None:
    assert describe(np.float64(0.5)) == "0.5" and describe(np.int64(3)) == "3"
    assert "np." not in option_problem(Options(sink_logit=np.float64(99.0)))[1]
