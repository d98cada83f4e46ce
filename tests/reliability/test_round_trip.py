"""Whatever the app writes it reads back, and a hand edit never stops it: one set of limits for the
scenario writer and reader, proven over every field the writer can produce, and an autosave that
cannot be read, for any reason, is set aside while the app opens."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.model import scenario
from app.model.answers.poll import MAX_CHOICES
from app.model.answers.tally import MAX_COUNT, MAX_SCENE_CHARS, MAX_SCENES, MAX_TEXT, SceneCounts
from app.model.capture import Capture, capture_from_arrays
from app.model.capture.limits import (
    MAX_HEADS,
    MAX_SAVED_NUMBERS,
    MAX_SOURCE_CHARS,
    MAX_T,
    MAX_TOKEN_CHARS,
    VALUE_LIMIT,
)
from app.model.errors import ScenarioError
from app.model.lesson.data import MAX_TOKENS, load_lesson_data
from app.model.reshape import MAX_DIM, MIN_DIM, name_problem, scorer_usable
from app.model.scenario import MAX_BYTES, dumps, loads, loads_file, write_scenario
from app.model.scoring import SCORERS
from app.model.state import (
    EDIT_LIMIT,
    HEATMAP_MODES,
    HEATMAP_SOURCES,
    MAX_SCALE_D,
    MAX_SCALE_T,
    MAX_SEED,
    POSITION_LIMIT,
    Q_SCALES,
    ROPE_STEP_RANGE,
    SINK_LIMIT,
    WORLDS,
    Options,
    frozen_array,
)
from app.model.view import initial_state
from app.state import autosave as autosave_module
from app.state.autosave import Autosaver, autosave_paths, restore
from app.state.document import Document

DATA = load_lesson_data()
TEMPLATE = initial_state(DATA)
PROPERTY = settings(max_examples=80, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def _round_trip(state: Any, poll: tuple[SceneCounts, ...] = ()) -> None:
    """The writer's text reads back to the same state, poll counts and text, within the
    limit."""
    text = dumps(state, poll)
    assert len(text.encode("utf-8")) <= MAX_BYTES
    back = loads_file(text, TEMPLATE, "autosave.attnlab.json")
    assert back.state == state and back.poll == poll
    assert dumps(back.state, back.poll) == text


# ---- the writer's every field -----------------------------------------------------------

NAMES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=MAX_TOKEN_CHARS)
FILE_NAMES = (st.text(st.characters(blacklist_categories=()), max_size=MAX_SOURCE_CHARS + 60)
              | st.binary(max_size=255).map(os.fsdecode))  # a name in another encoding
"""What `Path.name` can hold: any text, lone surrogates included, up to 300 characters."""


def _floats(dtype: type) -> st.SearchStrategy[float]:
    return st.floats(-VALUE_LIMIT, VALUE_LIMIT, allow_nan=False,
                     width=32 if dtype is np.float32 else 64)


@st.composite
def captures(draw: st.DrawFn) -> Capture:
    """An import as the loaders make one (any dtype, names, weights, head of up to 256),
    then edited as the editor edits one (vectors clamped to ±VALUE_LIMIT)."""
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    tk, d = draw(st.integers(1, 10)), draw(st.integers(1, 5))
    tq = draw(st.integers(1, tk))

    def matrix(rows: int, cols: int, kind: type = dtype) -> np.ndarray:
        cells = draw(st.lists(_floats(kind), min_size=rows * cols, max_size=rows * cols))
        return np.array(cells, dtype=kind).reshape(rows, cols)

    arrays: dict[str, np.ndarray] = {"q": matrix(tq, d), "k": matrix(tk, d)}
    if draw(st.booleans()):
        d_a = draw(st.integers(1, 3))
        arrays |= {"additive.W1": matrix(d_a, d, np.float64),
                   "additive.W2": matrix(d_a, d, np.float64),
                   "additive.v": matrix(1, d_a, np.float64)[0]}
    for name in draw(st.sets(st.sampled_from(["q_norm.weight", "k_norm.weight"]))):
        gains = st.floats(0, VALUE_LIMIT, allow_nan=False)  # one sign: the app folds both
        arrays[name] = np.array(draw(st.lists(gains, min_size=d, max_size=d)))
    tokens = draw(st.none() | st.lists(NAMES, min_size=tk, max_size=tk))
    capture = capture_from_arrays(arrays, tokens, 0, "capture.npz")
    heads = draw(st.integers(1, MAX_HEADS))
    capture = replace(capture, source=draw(FILE_NAMES), head=draw(st.integers(0, heads - 1)),
                      heads=heads)
    if draw(st.booleans()):  # an edit in the editor, far past the lesson's ±100
        row = draw(st.integers(0, tk - 1))
        keys = np.array(capture.keys)
        keys[row] = np.clip(draw(st.floats(-2 * VALUE_LIMIT, 2 * VALUE_LIMIT)), -VALUE_LIMIT,
                            VALUE_LIMIT)
        capture = capture.with_vectors(capture.queries, keys)
    return capture


TOKEN_NAME = st.text(min_size=1, max_size=20).filter(lambda n: name_problem(n, ()) is None)


@st.composite
def options(draw: st.DrawFn, width: int) -> Options:
    """Every option, each anywhere in the range the document accepts."""
    heads = draw(st.sampled_from([1, 2] if width % 2 == 0 else [1]))
    return Options(
        heatmap_mode=draw(st.sampled_from(HEATMAP_MODES)),
        causal=draw(st.booleans()),
        heads=heads,
        sink_logit=draw(st.none() | st.floats(-SINK_LIMIT, SINK_LIMIT, allow_nan=False)),
        rope=draw(st.booleans()),
        rope_step=draw(st.floats(*ROPE_STEP_RANGE)),
        show_additive=draw(st.booleans()),
        stage=draw(st.none() | st.text(st.characters(blacklist_categories=("Cs",)),
                                       max_size=40)),
        scale_mode=draw(st.booleans()),
        scale_T=draw(st.integers(2, MAX_SCALE_T)),
        scale_d=draw(st.integers(1, MAX_SCALE_D)),
        scale_seed=draw(st.integers(0, MAX_SEED)),
        q_scale=draw(st.sampled_from(Q_SCALES)),
        heatmap_source=draw(st.sampled_from(HEATMAP_SOURCES)),
    )


@st.composite
def written_states(draw: st.DrawFn) -> Any:
    """Any state the app can hold: edited vectors, a reshaped 4-D world, every option, an
    import, any world and any scorer that world can run, any selection."""
    def entries(shape: tuple[int, ...]) -> np.ndarray:
        count = int(np.prod(shape))
        floats = st.floats(-EDIT_LIMIT, EDIT_LIMIT, allow_nan=False)
        return frozen_array(np.array(draw(st.lists(floats, min_size=count, max_size=count)))
                            .reshape(shape))

    tokens = draw(st.none() | st.lists(TOKEN_NAME, min_size=2, max_size=MAX_TOKENS,
                                       unique=True))
    shape = TEMPLATE.teaching_q.shape
    if tokens is not None:
        shape = (len(tokens), draw(st.integers(MIN_DIM, MAX_DIM)))
    state = replace(
        TEMPLATE,
        dialogue_q=entries(TEMPLATE.dialogue_q.shape),
        dialogue_keys=entries(TEMPLATE.dialogue_keys.shape),
        teaching_q=entries(shape), teaching_k=entries(shape),
        teaching_tokens=None if tokens is None else tuple(tokens),
        positions=frozen_array(draw(st.lists(st.integers(-POSITION_LIMIT, POSITION_LIMIT),
                                             min_size=4, max_size=4))),
        options=draw(options(shape[1])),
        imported=draw(st.none() | captures()),
    )
    state = state.with_world(draw(st.sampled_from(WORLDS)))
    usable = [name for name in SCORERS if scorer_usable(state, DATA, name)]
    queries, keys = state.vectors
    return replace(state, scorer=draw(st.sampled_from(usable)),
                   query=draw(st.integers(0, len(queries) - 1)),
                   key=draw(st.integers(0, len(keys) - 1)))


TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=MAX_TEXT)


@st.composite
def scene_counts(draw: st.DrawFn) -> SceneCounts:
    """One scene's counts as the poll keeps them: any id and texts the question allows."""
    choices = draw(st.lists(TEXTS, min_size=1, max_size=MAX_CHOICES))
    counts = draw(st.lists(st.integers(0, MAX_COUNT), min_size=len(choices),
                           max_size=len(choices)))
    return SceneCounts(
        draw(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1,
                     max_size=MAX_SCENE_CHARS)),
        tuple(choices), draw(st.none() | st.integers(0, len(choices) - 1)), tuple(counts),
        draw(st.booleans()))


POLLS = st.lists(scene_counts(), max_size=6, unique_by=lambda s: s.scene).map(tuple)


@PROPERTY
@given(state=written_states(), poll=POLLS)
def test_every_state_the_writer_can_produce_reads_back_identical(state: Any, poll) -> None:
    _round_trip(state, poll)


def test_an_import_with_a_long_file_name_survives_a_restart(tmp_path: Path) -> None:
    """~230 characters fit a file system; the autosave keeps them, and reads them back."""
    capture = capture_from_arrays({"q": np.ones((2, 3)), "k": np.ones((2, 3))}, None, 0,
                                  "layer0-" + "x" * 223 + ".npz")
    assert len(capture.source) == 234
    state = replace(TEMPLATE, imported=capture).with_world("imported", (1, 0))
    autosave, _ = autosave_paths(tmp_path)
    write_scenario(state, autosave)
    found = restore(TEMPLATE, tmp_path)
    assert found.problems == [] and found.state == state


def test_the_largest_import_a_scenario_keeps_is_under_the_readers_limit() -> None:
    """The writer's worst case: the most numbers, at their longest, and the most names, each
    as long as allowed and made of characters JSON writes as six-byte escapes."""
    d = MAX_SAVED_NUMBERS // (2 * MAX_T)
    rng = np.random.default_rng(3)
    q = rng.uniform(-1e-4, 1e-4, (MAX_T, d)) - 1e-7  # "-1.2345678901234567e-05": 23 chars
    names = [f"{i:04d}" + "\x01" * (MAX_TOKEN_CHARS - 4) for i in range(MAX_T)]
    capture = capture_from_arrays({"q": q, "k": q[::-1].copy()}, names, 0, "😀" * 300)
    assert capture.savable and capture.numbers == MAX_SAVED_NUMBERS
    state = replace(TEMPLATE, imported=capture).with_world("imported", (0, 0))
    assert scenario.kept_state(state) == state
    _round_trip(state, _largest_poll())


def _largest_poll() -> tuple[SceneCounts, ...]:
    """The most a poll record can hold: every scene, choice and count at its longest."""
    return tuple(SceneCounts(f"{i:03d}" + "\x01" * (MAX_SCENE_CHARS - 3),
                             ("\x01" * MAX_TEXT,) * MAX_CHOICES, MAX_CHOICES - 1,
                             (MAX_COUNT,) * MAX_CHOICES, False)
                 for i in range(MAX_SCENES))


# ---- hand edits: numbers of hundreds of digits, deep nesting ----------------------------

def _imported_doc() -> dict:
    """An autosave with an import and the class's poll counts, for hand edits anywhere."""
    capture = capture_from_arrays({"q": np.ones((2, 3)), "k": np.ones((2, 3)),
                                   "q_norm.weight": np.ones(3)}, ["a", "b"], 0, "c.npz")
    state = replace(TEMPLATE, imported=capture).with_world("imported", (1, 0))
    poll = (SceneCounts("design", ("x", "y"), 1, (3, 4), True),)
    return json.loads(dumps(state, poll))


def _number_paths(node: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a number (not a bool) in a document."""
    if isinstance(node, dict):
        return [p for key, child in node.items() for p in _number_paths(child, (*path, key))]
    if isinstance(node, list):
        return [p for i, child in enumerate(node) for p in _number_paths(child, (*path, i))]
    return [path] if isinstance(node, (int, float)) and not isinstance(node, bool) else []


def _with(doc: dict, path: tuple, literal: str) -> str:
    """The document's text with the value at `path` replaced by raw JSON text."""
    marker = "\u0000HAND_EDIT\u0000"
    copy = json.loads(json.dumps(doc))
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = marker
    return json.dumps(copy, ensure_ascii=False).replace(json.dumps(marker), literal)


def _path_text(path: tuple) -> str:
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


IMPORTED_DOC = _imported_doc()


@pytest.mark.parametrize("path", _number_paths(IMPORTED_DOC), ids=_path_text)
def test_a_number_of_hundreds_of_digits_anywhere_is_refused_naming_its_field(path) -> None:
    with pytest.raises(ScenarioError) as caught:
        loads(_with(IMPORTED_DOC, path, "1" + "0" * 400), TEMPLATE, "edited.attnlab.json")
    message = str(caught.value)
    assert message.startswith(f"edited.attnlab.json: {_path_text(path)}: "), message
    assert "\n" not in message


@st.composite
def hand_edited(draw: st.DrawFn) -> str:
    """A valid autosave (with an import) with one value anywhere replaced by a hand edit:
    an integer of hundreds or thousands of digits, a float past the double range, or a
    value nested thousands of levels deep."""
    paths = [p for p in _every_path(IMPORTED_DOC) if p]
    path = draw(st.sampled_from(paths))
    digits = draw(st.integers(300, 6000))
    literal = draw(st.sampled_from([
        "9" * digits, "-" + "9" * digits, f"1e{digits}", "0." + "0" * digits + "1",
        "[" * digits + "1" + "]" * digits, '{"a": ' * digits + "1" + "}" * digits,
        "[" + ", ".join(["1" + "0" * 400] * 3) + "]",
    ]))
    return _with(IMPORTED_DOC, path, literal)


def _every_path(node: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(node, dict):
        found += [p for key, child in node.items() for p in _every_path(child, (*path, key))]
    elif isinstance(node, list):
        found += [p for i, child in enumerate(node) for p in _every_path(child, (*path, i))]
    return found


@PROPERTY
@given(text=hand_edited())
def test_any_hand_edit_is_read_or_refused_as_a_scenario_error(text: str) -> None:
    try:
        state = loads(text, TEMPLATE, "edited.attnlab.json")
    except ScenarioError as error:
        assert str(error).startswith("edited.attnlab.json: ") and "\n" not in str(error)
    else:
        _round_trip(state)


@PROPERTY
@given(text=hand_edited())
def test_any_hand_edited_autosave_is_restored_or_set_aside(qapp, text: str,
                                                          tmp_path_factory) -> None:
    folder = tmp_path_factory.mktemp("home")
    autosave, _ = autosave_paths(folder)
    autosave.write_text(text, encoding="utf-8")
    found = restore(TEMPLATE, folder)
    saver = Autosaver(Document(DATA), folder)
    moved = saver.keep_aside_unreadable()
    if found.state is None:
        assert [error.path for error in found.problems] == [autosave]
        assert [old for old, _ in moved] == [autosave] and not autosave.exists()
        assert moved[0][1].read_text(encoding="utf-8") == text
    else:
        assert moved == [] and autosave.read_text(encoding="utf-8") == text
    saver.stop()


def test_an_autosave_the_reader_chokes_on_is_set_aside_too(qapp, tmp_path: Path,
                                                          monkeypatch) -> None:
    """Any exception, not only the reader's own errors: a bug must not stop every start."""
    autosave, _ = autosave_paths(tmp_path)
    write_scenario(TEMPLATE, autosave)

    def broken(*_args: object) -> None:
        raise KeyError("something nobody expected")

    monkeypatch.setattr(autosave_module, "read_scenario_file", broken)
    found = restore(TEMPLATE, tmp_path)
    assert found.state is None and len(found.problems) == 1
    assert "could not be read (KeyError" in str(found.problems[0])
    saver = Autosaver(Document(DATA), tmp_path)
    moved = saver.keep_aside_unreadable()
    assert len(moved) == 1 and not autosave.exists()
    saver.stop()


def test_the_window_opens_over_an_autosave_with_a_hand_edited_huge_number(window) -> None:
    """As the app starts: the last session cannot be read, so it is set aside, the lesson
    is on screen, the status bar says why, and the next save writes a new autosave."""
    from app.paths import user_data_dir

    autosave, _ = autosave_paths(user_data_dir())
    path = ("imported", "K", 1, 2)
    text = _with(IMPORTED_DOC, path, "1" + "0" * 400)
    autosave.write_text(text, encoding="utf-8")
    window.files.begin_session()
    assert "too large to be finite" in window.statusBar().currentMessage()
    saver = window.files.start_autosave()
    kept = sorted(autosave.parent.glob("autosave.unreadable-*.attnlab.json"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == text
    assert window.document.state == initial_state(window.document.data)
    window.document.set_scorer("cosine")
    window.document.flush()
    saver.flush()
    assert loads(autosave.read_text(encoding="utf-8"), TEMPLATE).scorer == "cosine"
    if window.files.note is not None:
        window.files.note.close()
