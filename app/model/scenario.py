"""Owns scenario files (*.attnlab.json): a whole LabState as versioned, strictly checked JSON.

Plain JSON and never pickle, so a file from a colleague can only ever be data. Reading is
strict (every field, type, shape and range) and each problem is a ScenarioError naming the
file, the JSON path and what is wrong, because teachers edit these files by hand.

Beside the state a file may keep the class's poll counts of its session (`poll`, the tally's
record: each scene's question and counts, nothing about any student).
"""

from __future__ import annotations

import json
import math
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from app.model.answers.tally import (
    MAX_RECORD_BYTES,
    RecordError,
    SceneCounts,
    read_record,
    record_of,
)
from app.model.atomic import write_text_atomic
from app.model.capture import Capture
from app.model.capture.limits import MAX_SAVED_BYTES
from app.model.capture.saved import IMPORTED_FIELDS, capture_from_dict, capture_to_dict
from app.model.errors import ScenarioError
from app.model.jsonfile import (
    MAX_FILE_BYTES,
    ROOT,
    FileRefused,
    describe,
    finite_number,
    first_duplicate,
    first_unsavable,
    join,
    parse_json,
    read_small_file,
)
from app.model.reshape import (
    heads_problem,
    read_colours,
    read_tokens,
    scorer_problem,
    teaching_shape,
)
from app.model.scoring import SCORERS
from app.model.state import (
    EDIT_LIMIT,
    POSITION_LIMIT,
    WORLDS,
    LabState,
    Options,
    frozen_array,
    option_problem,
)

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "SCHEMA_VERSION",
    "SUFFIX",
    "Scenario",
    "dumps",
    "loads",
    "loads_file",
    "read_scenario",
    "read_scenario_file",
    "state_to_dict",
    "with_scenario_suffix",
    "write_scenario",
]

FORMAT = "attention-lab-scenario"
SCHEMA_VERSION = 1
SUFFIX = ".attnlab.json"
MAX_BYTES = math.ceil((MAX_FILE_BYTES + MAX_SAVED_BYTES + MAX_RECORD_BYTES) / 2**20) * 2**20
"""A real scenario is a few KB; the limit keeps a wrong file (a video, a disk image) harmless.
It is the lesson's part (MAX_FILE_BYTES) plus the most a kept import and a poll record can
add, in whole MB: whatever the writer keeps, the reader reads back."""
TOP_FIELDS = ("format", "schema_version", "world", "scorer", "selection", "vectors",
              "positions", "options")
OPTIONAL_FIELDS = ("teaching_tokens", "teaching_colours", "imported", "poll")
"""Written only when there is one (a reshaped 4-D world, an import, a polled scene), so older
files still load."""


@dataclass(frozen=True)
class Scenario:
    """What a file holds: the state, and the class's poll counts of its session (none: no
    scene was answered)."""

    state: LabState
    poll: tuple[SceneCounts, ...] = ()


# ---- writing --------------------------------------------------------------------------------

def state_to_dict(state: LabState, poll: Sequence[SceneCounts] = ()) -> dict[str, Any]:
    """The JSON document for a state: every vector, world, scorer, selection, option, position,
    and the poll's counts when there are any."""
    state = kept_state(state)
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "world": state.world,
        "scorer": state.scorer,
        "selection": {"query": int(state.query), "key": int(state.key)},
        "vectors": {
            "dialogue": {"q": state.dialogue_q.tolist(), "keys": state.dialogue_keys.tolist()},
            "teaching": {"Q": state.teaching_q.tolist(), "K": state.teaching_k.tolist()},
        },
        "positions": [int(p) for p in state.positions],
        "options": {f.name: _plain(getattr(state.options, f.name)) for f in fields(Options)},
    } | ({} if state.teaching_tokens is None
         else {"teaching_tokens": list(state.teaching_tokens)}) | (
        {} if state.teaching_colours is None or state.teaching_tokens is None
        else {"teaching_colours": list(state.teaching_colours)}) | _imported_fields(state) | (
        {} if not poll else {"poll": record_of(poll)})


def _imported_fields(state: LabState) -> dict[str, Any]:
    """The imported world, when there is one small enough to keep (MAX_SAVED_NUMBERS); a
    larger one is left out, and a file saved while it was open opens in the 4-D world."""
    capture = state.imported
    if capture is None or not capture.savable:
        return {}
    return {"imported": capture_to_dict(capture)}


def kept_state(state: LabState) -> LabState:
    """What a scenario written now brings back: without an import too large to keep."""
    if state.imported is None or state.imported.savable:
        return state
    dropped = replace(state, imported=None)
    return dropped.with_world("teaching") if state.world == "imported" else dropped


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _encode(value: Any, indent: str = "") -> str:
    """Pretty JSON with one vector per line, so a teacher can read and edit a file by hand."""
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_encode(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}" if items else "{}"
    if isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
        return "[\n" + ",\n".join(inner + _encode(v, inner) for v in value) + f"\n{indent}]"
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def dumps(state: LabState, poll: Sequence[SceneCounts] = ()) -> str:
    """The file's text; float repr round-trips exactly, so open(save(s)) == s."""
    return _encode(state_to_dict(state, poll)) + "\n"


def write_scenario(state: LabState, path: Path, poll: Sequence[SceneCounts] = ()) -> None:
    write_text_atomic(path, dumps(state, poll))


def with_scenario_suffix(path: Path) -> Path:
    """lesson → lesson.attnlab.json; a name already ending in .json is kept as typed."""
    name = path.name
    if name.endswith(".json"):
        return path
    return path.with_name(name + (".json" if name.endswith(".attnlab") else SUFFIX))


# ---- reading --------------------------------------------------------------------------------

def read_scenario(path: Path, template: LabState) -> LabState:
    """Open a scenario; shapes come from `template` (the lesson's state). Raises ScenarioError."""
    return read_scenario_file(path, template).state


def read_scenario_file(path: Path, template: LabState) -> Scenario:
    """`read_scenario`, with the poll counts the file keeps beside the state."""
    path = Path(path)

    def fail(problem: str) -> ScenarioError:
        return ScenarioError(path, ROOT, problem)

    try:
        raw = read_small_file(path, MAX_BYTES)
    except FileRefused as refused:
        if refused.problem.startswith("is larger than"):
            raise fail(f"is larger than {MAX_BYTES // (1024 * 1024)} MB, so it is not a "
                       "scenario") from None
        if refused.problem == "the file name is empty":
            raise fail("the file name is empty; name a scenario file (*.attnlab.json)") from None
        raise fail(refused.problem) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise fail(f"is not UTF-8 text (bad byte at offset {error.start})") from None
    return loads_file(text, template, path)


def loads(text: str, template: LabState, source: Path | str = "<scenario>") -> LabState:
    """Parse and check scenario text; the first problem found is raised as ScenarioError."""
    return loads_file(text, template, source).state


def loads_file(text: str, template: LabState, source: Path | str = "<scenario>") -> Scenario:
    """`loads`, with the poll counts the text keeps beside the state."""
    reader = _Reader(source, template)
    root = parse_json(text, reader.fail, "a scenario")
    unsavable = first_unsavable(root)  # what the loader accepts, the saver must be able to write
    if unsavable is not None:
        raise reader.fail(*unsavable)
    duplicate = first_duplicate(root)
    if duplicate is not None:
        raise reader.fail(ROOT, f"the key {duplicate[1]} appears twice in one object")
    return Scenario(reader.state(root), reader.poll(root.get("poll")))


class _Reader:
    """Checks one parsed document against the template's shapes, field by field."""

    def __init__(self, source: Path | str, template: LabState) -> None:
        self.source = source
        self.template = template

    def fail(self, where: str, problem: str) -> ScenarioError:
        return ScenarioError(self.source, where or ROOT, problem)

    def obj(self, value: Any, where: str, allowed: tuple[str, ...],
            required: tuple[str, ...] | None = None) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be an object, found {describe(value)}")
        for key in value:
            if key not in allowed:
                expected = ", ".join(allowed)
                raise self.fail(join(where, key), f"unknown field; expected one of {expected}")
        for key in allowed if required is None else required:
            if key not in value:
                raise self.fail(join(where, key), "is required but missing")
        return value

    def choice(self, value: Any, where: str, choices: tuple[Any, ...]) -> Any:
        if isinstance(value, bool) or value not in choices:
            listed = ", ".join(json.dumps(c) for c in choices)
            raise self.fail(where, f"must be one of {listed}, found {describe(value)}")
        return value

    def number(self, value: Any, where: str, limit: float | None = None) -> float:
        number = finite_number(value, where, self.fail)
        if limit is not None and abs(number) > limit:
            shown = f"{int(limit):,}" if float(limit).is_integer() else f"{limit:g}"
            raise self.fail(where, f"must be between −{shown} and {shown}, "
                            f"found {describe(value)}")
        return number

    def integer(self, value: Any, where: str, low: int | None = None,
                high: int | None = None) -> int:
        if type(value) is not int:
            raise self.fail(where, f"must be a whole number, found {describe(value)}")
        if low is not None and high is not None and not low <= value <= high:
            raise self.fail(where, f"must be from {low} to {high}, found {value}")
        return value

    def matrix(self, value: Any, where: str, shape: tuple[int, ...], what: str,
               limit: float = EDIT_LIMIT) -> np.ndarray:
        """A list (1-D) or list of rows (2-D) of the template's exact shape."""
        if not isinstance(value, list):
            raise self.fail(where, f"must be a list, found {describe(value)}")
        if len(value) != shape[0]:
            raise self.fail(where, f"must have {shape[0]} {what}, found {len(value)}")
        if len(shape) == 1:
            return frozen_array([self.number(x, join(where, i), limit)
                                 for i, x in enumerate(value)])
        rows = [self.matrix(row, join(where, i), shape[1:], "numbers", limit)
                for i, row in enumerate(value)]
        return frozen_array(rows)

    def state(self, root: Any) -> LabState:
        t = self.template
        if not isinstance(root, dict):
            raise self.fail(ROOT, f"must be a JSON object, found {describe(root)}")
        if root.get("format") != FORMAT:
            raise self.fail("format", f"must be {FORMAT!r}: this is not an Attention Lab scenario")
        version = root.get("schema_version")
        if type(version) is not int or version < 1:
            found = describe(version)
            raise self.fail("schema_version", f"must be a whole number ≥ 1, found {found}")
        if version > SCHEMA_VERSION:
            raise self.fail("schema_version", f"is {version}: made by a newer Attention Lab; "
                            f"this one reads up to {SCHEMA_VERSION}")
        self.obj(root, ROOT, TOP_FIELDS + OPTIONAL_FIELDS, required=TOP_FIELDS)
        tokens = read_tokens(root.get("teaching_tokens"), self.fail)
        world = self.choice(root["world"], "world", WORLDS)
        scorer = self.choice(root["scorer"], "scorer", tuple(SCORERS))
        vectors = self.obj(root["vectors"], "vectors", ("dialogue", "teaching"))
        dialogue = self.obj(vectors["dialogue"], "vectors.dialogue", ("q", "keys"))
        teaching = self.obj(vectors["teaching"], "vectors.teaching", ("Q", "K"))
        shape = teaching_shape(teaching["Q"], tokens, t.teaching_q.shape, self.fail)
        state = replace(
            t,
            world=world,
            scorer=scorer,
            dialogue_q=self.matrix(dialogue["q"], "vectors.dialogue.q", t.dialogue_q.shape,
                                   "numbers"),
            dialogue_keys=self.matrix(dialogue["keys"], "vectors.dialogue.keys",
                                      t.dialogue_keys.shape, "key vectors"),
            teaching_q=self.matrix(teaching["Q"], "vectors.teaching.Q", shape,
                                   "query vectors (one per token)"),
            teaching_k=self.matrix(teaching["K"], "vectors.teaching.K", shape,
                                   "key vectors (one per token)"),
            teaching_tokens=tokens,
            positions=self.positions(root["positions"]),
            options=self.options(root["options"]),
        )
        state = replace(state, imported=self.imported(root.get("imported"), world),
                        teaching_colours=read_colours(root.get("teaching_colours"), tokens,
                                                      self.fail),
                        world=world)  # "imported" holds only once the import is there
        problem = scorer_problem(state, t.teaching_q.shape[1], scorer)  # weights that fit
        if problem is not None:
            raise self.fail("scorer", problem)
        heads = heads_problem(state, state.options)
        if heads is not None:
            raise self.fail(join("options", heads[0]), heads[1])
        selection = self.obj(root["selection"], "selection", ("query", "key"))
        queries, keys = state.vectors
        return replace(
            state,
            query=self.integer(selection["query"], "selection.query", 0, len(queries) - 1),
            key=self.integer(selection["key"], "selection.key", 0, len(keys) - 1),
        )

    def imported(self, value: Any, world: str) -> Capture | None:
        """The imported world (absent: none), checked as an import is; "world": "imported"
        needs one."""
        if value is None:
            if world == "imported":
                raise self.fail("imported", "is required when the world is \"imported\"")
            return None
        if not isinstance(value, dict):
            raise self.fail("imported", f"must be an object, found {describe(value)}")
        self.obj(value, "imported", IMPORTED_FIELDS)

        def fail(where: str, problem: str) -> ScenarioError:
            return self.fail(join("imported", where), problem)

        return capture_from_dict(value, fail)

    def poll(self, value: Any) -> tuple[SceneCounts, ...]:
        """The poll's counts (absent: none), checked as the tally reads its record."""
        if value is None:
            return ()
        try:
            return read_record(value)
        except RecordError as error:
            where = "poll" if error.field == "(record)" else join("poll", error.field)
            raise self.fail(where, error.problem) from None

    def positions(self, value: Any) -> np.ndarray:
        array = self.matrix(value, "positions", self.template.positions.shape,
                            "positions (the query's, then one per key)", POSITION_LIMIT)
        for i, number in enumerate(array):
            if number != round(number):
                raise self.fail(join("positions", i),
                                f"must be a whole number, found {describe(number)}")
        return array

    def options(self, value: Any) -> Options:
        """Every Options field by its type hint; a missing one keeps its default (older files)."""
        hints = typing.get_type_hints(Options)
        names = tuple(f.name for f in fields(Options))
        value = self.obj(value, "options", names, required=())
        changes = {name: self.typed(value[name], join("options", name), hints[name], name)
                   for name in names if name in value}
        options = replace(Options(), **changes)
        problem = option_problem(options)  # the document's own rule, so every edit still works
        if problem is not None:
            name, why = problem
            raise self.fail(join("options", name), why)
        return options

    def typed(self, value: Any, where: str, hint: Any, name: str) -> Any:
        """Check a value against a type hint: bool, int, float, str, None, Literal, unions."""
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Union or origin is types.UnionType:
            if value is None and type(None) in args:
                return None
            arms = [a for a in args if a is not type(None)]
            if len(arms) == 1:
                return self.typed(value, where, arms[0], name)
            raise self.fail(where, f"option type {hint} is not supported")
        if origin is typing.Literal:
            return self.choice(value, where, args)
        if hint is bool:
            if not isinstance(value, bool):
                raise self.fail(where, f"must be true or false, found {describe(value)}")
            return value
        if hint is int:
            return self.integer(value, where)  # ranges: option_problem, after every field
        if hint is float:
            return self.number(value, where)
        if hint is str:
            if not isinstance(value, str):  # its length: option_problem, like the others
                raise self.fail(where, f"must be a short text, found {describe(value)}")
            return value
        raise self.fail(where, f"option type {hint} is not supported")
