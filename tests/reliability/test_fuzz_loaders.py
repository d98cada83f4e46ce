"""Fuzzing the loaders: whatever JSON (or bytes) arrives, a loader either returns a value or
raises the app's own error type — never anything else — and a loaded scenario round-trips."""

from __future__ import annotations

import copy
import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.model.errors import AttentionLabError, DataError, ScenarioError
from app.model.lesson import data as lesson_data
from app.model.scenario import POSITION_LIMIT, dumps, loads, read_scenario
from app.model.scoring import SCORERS
from app.model.state import EDIT_LIMIT, SINK_LIMIT, WORLDS, LabState, Options, frozen_array
from app.model.view import compute_view, initial_state

FUZZ = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DATA = lesson_data.load_lesson_data()
TEMPLATE = initial_state(DATA)
DATA_FILES = {
    lesson_data.DIALOGUE_FILE: lesson_data.load_dialogue,
    lesson_data.TEACHING_FILE: lesson_data.load_teaching_world,
    lesson_data.ANCHOR_FILE: lesson_data.load_anchor,
    lesson_data.FRONTIER_FILE: lesson_data.load_frontier,
}

INTERESTING = st.sampled_from([
    0, -1, 1, 2, 3, 5, 64, 2**31, 2**63, 10**30, -(10**30), 0.5, -0.0, 1e-320, 1e308, -1e308,
    EDIT_LIMIT, -EDIT_LIMIT, EDIT_LIMIT * 1.000001, "", "dot", "cosine", "dialogue", "teaching",
    "小王", True, False, None, [], {}, [0, 0], [0, 0, 0, 0], [[0, 0, 0, 0]] * 5,
    "attention-lab-scenario", "full_attention", "linear_attention",
])
SCALARS = (st.none() | st.booleans() | st.integers(-(10**6), 10**6)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12) | INTERESTING)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=6)
    | st.dictionaries(st.text(max_size=10), children, max_size=6),
    max_leaves=25,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a node of a JSON document, the root first."""
    found = [prefix]
    if isinstance(node, dict):
        for key, child in node.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            found += _paths(child, (*prefix, index))
    return found


def _parent(doc: Any, path: tuple) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """A valid document with one to three random edits: replace, delete, add or grow a list."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)))
        action = draw(st.sampled_from(["replace", "replace", "delete", "add", "grow"]))
        if not path:
            if action == "replace":
                doc = copy.deepcopy(draw(JSON_VALUES))
            continue
        parent, step = _parent(doc, path), path[-1]
        if action == "replace":
            parent[step] = copy.deepcopy(draw(JSON_VALUES | INTERESTING))  # never a shared []
        elif action == "delete":
            del parent[step]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=10))] = copy.deepcopy(draw(JSON_VALUES))
        elif action == "grow" and isinstance(parent, list):
            parent.insert(draw(st.integers(0, len(parent))), copy.deepcopy(parent[step]))
    return doc


def _text(doc: Any) -> str:
    return json.dumps(doc, allow_nan=True, ensure_ascii=False)


# ---- scenarios --------------------------------------------------------------------------------

def _check_scenario(text: str) -> None:
    """Loads or raises ScenarioError; a loaded state round-trips and can be shown."""
    try:
        state = loads(text, TEMPLATE, "fuzz.attnlab.json")
    except ScenarioError as error:
        assert str(error).startswith("fuzz.attnlab.json: ")
        return
    again = loads(dumps(state), TEMPLATE, "again.attnlab.json")
    assert again == state
    assert dumps(again) == dumps(state)
    view = compute_view(state, DATA)
    assert np.all(np.isfinite(view.weights))


VALID_DOC = json.loads(dumps(TEMPLATE))


@FUZZ
@given(doc=JSON_VALUES)
def test_random_json_is_loaded_or_refused_as_a_scenario_error(doc: Any) -> None:
    _check_scenario(_text(doc))


@FUZZ
@given(doc=mutated(VALID_DOC))
def test_mutated_scenarios_load_or_fail_cleanly(doc: Any) -> None:
    _check_scenario(_text(doc))


@FUZZ
@given(text=st.text(max_size=400), cut=st.integers(0, len(dumps(TEMPLATE))))
def test_damaged_scenario_text_fails_cleanly(text: str, cut: int) -> None:
    valid = dumps(TEMPLATE)
    _check_scenario(valid[:cut] + text + valid[cut:])
    _check_scenario(valid[:cut])


ENTRY = st.floats(-EDIT_LIMIT, EDIT_LIMIT, allow_nan=False, allow_subnormal=True)


@st.composite
def lab_states(draw: st.DrawFn) -> LabState:
    """Any state a user can reach: entries within the editing range, any world and options."""
    def matrix(shape: tuple[int, ...]) -> np.ndarray:
        count = int(np.prod(shape))
        return frozen_array(np.array(draw(st.lists(ENTRY, min_size=count, max_size=count)))
                            .reshape(shape))

    world = draw(st.sampled_from(WORLDS))
    state = LabState(
        world=world,
        scorer=draw(st.sampled_from(list(SCORERS))),
        dialogue_q=matrix(TEMPLATE.dialogue_q.shape),
        dialogue_keys=matrix(TEMPLATE.dialogue_keys.shape),
        teaching_q=matrix(TEMPLATE.teaching_q.shape),
        teaching_k=matrix(TEMPLATE.teaching_k.shape),
        query=0,
        key=0,
        positions=frozen_array(draw(st.lists(st.integers(-POSITION_LIMIT, POSITION_LIMIT),
                                             min_size=4, max_size=4))),
        options=Options(
            heatmap_mode=draw(st.sampled_from(["scores", "weights"])),
            causal=draw(st.booleans()),
            heads=draw(st.sampled_from([1, 2])),  # what the document accepts
            sink_logit=draw(st.none() | st.floats(-SINK_LIMIT, SINK_LIMIT, allow_nan=False)),
            rope=draw(st.booleans()),
            show_additive=draw(st.booleans()),
        ),
    )
    queries, keys = state.vectors
    query = draw(st.integers(0, len(queries) - 1))
    key = draw(st.integers(0, len(keys) - 1))
    return replace(state, query=query, key=key)


@FUZZ
@given(state=lab_states())
def test_every_reachable_state_saves_and_loads_back_identical(state: LabState) -> None:
    text = dumps(state)
    loaded = loads(text, TEMPLATE, "round.attnlab.json")
    assert loaded == state
    assert dumps(loaded) == text


@FUZZ
@given(raw=st.binary(max_size=600))
def test_random_bytes_in_a_scenario_file_fail_cleanly(raw: bytes, tmp_path_factory) -> None:
    path = tmp_path_factory.mktemp("bytes") / "random.attnlab.json"
    path.write_bytes(raw)
    try:
        read_scenario(path, TEMPLATE)
    except ScenarioError as error:
        assert error.path == path


# ---- data files -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def data_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("data")
    for name in DATA_FILES:
        shutil.copy(lesson_data.DEFAULT_DATA_DIR / name, folder / name)
    return folder


def _check_usable(name: str, loaded: object) -> None:
    """A world that loads must also start the app: its first state is shown and autosaved."""
    if name == lesson_data.DIALOGUE_FILE:
        data = replace(DATA, dialogue=loaded)
    elif name == lesson_data.TEACHING_FILE:
        data = replace(DATA, teaching=loaded)
    else:
        return
    state = initial_state(data)
    assert loads(dumps(state), state, "autosave.attnlab.json") == state
    for world in WORLDS:
        view = compute_view(state.with_world(world), data)
        assert np.all(np.isfinite(view.weights))


def _check_data_file(folder: Path, name: str, text: str) -> None:
    """Only DataError may escape a loader; the file is restored afterwards for the next run."""
    original = (lesson_data.DEFAULT_DATA_DIR / name).read_bytes()
    (folder / name).write_text(text, encoding="utf-8")
    try:
        loaded = DATA_FILES[name](folder)
    except DataError as error:
        assert error.path.name == name
        assert str(error).startswith(f"{name}: ")
    else:
        _check_usable(name, loaded)
    finally:
        (folder / name).write_bytes(original)


ORIGINAL_DOCS = {name: json.loads((lesson_data.DEFAULT_DATA_DIR / name).read_text("utf-8"))
                 for name in DATA_FILES}


@pytest.mark.parametrize("name", list(DATA_FILES))
@FUZZ
@given(data=st.data())
def test_mutated_data_files_load_or_raise_data_error(name: str, data: st.DataObject,
                                                     data_copy: Path) -> None:
    _check_data_file(data_copy, name, _text(data.draw(mutated(ORIGINAL_DOCS[name]))))


@pytest.mark.parametrize("name", list(DATA_FILES))
@settings(FUZZ, max_examples=60)
@given(doc=JSON_VALUES)
def test_random_json_data_files_raise_data_error(name: str, doc: Any, data_copy: Path) -> None:
    _check_data_file(data_copy, name, _text(doc))


def test_errors_are_the_apps_own_types() -> None:
    """The contract the fuzzers rely on: catching AttentionLabError catches both kinds."""
    assert issubclass(ScenarioError, AttentionLabError)
    assert issubclass(DataError, AttentionLabError)
