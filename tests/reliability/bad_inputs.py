"""Bad inputs for the reliability tests: broken scenario and data files, built from the real
files so each case differs from a valid one in exactly the way its name says."""

from __future__ import annotations

import builtins
import json
import math
import os
from pathlib import Path

from app.model.lesson import data as lesson_data
from app.model.lesson.scenes import SCENES_FILE, load_scenes
from app.model.scenario import MAX_BYTES, dumps
from app.model.view import initial_state

DATA = lesson_data.load_lesson_data()
TEMPLATE = initial_state(DATA)
VALID = json.loads(dumps(TEMPLATE))


def doc_with(**changes) -> dict:
    """The lesson's scenario document; `a__b=value` replaces a nested field, KeyError drops it."""
    doc = json.loads(json.dumps(VALID))
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        node = doc
        for part in parents:
            node = node[part]
        if value is KeyError:
            del node[last]
        else:
            node[last] = value
    return doc


def as_json(doc: object) -> str:
    """JSON text that may hold NaN and Infinity, as a hand-edited file might."""
    return json.dumps(doc, allow_nan=True, ensure_ascii=False)


def changed(**changes) -> str:
    """The lesson's scenario text with some fields replaced (KeyError: removed)."""
    return as_json(doc_with(**changes))


SCENARIO_CASES = {
    "not_json": ("this is not JSON {", "line 1 column 1"),
    "empty": ("", "line 1 column 1"),
    "json_list": ("[1, 2, 3]", "(file)"),
    "newer_version": (changed(schema_version=2), "schema_version"),
    "version_text": (changed(schema_version="1"), "schema_version"),
    "other_format": (changed(format="napari-layer"), "format"),
    "missing_vectors": (changed(vectors=KeyError), "vectors"),
    "missing_key": (changed(selection__key=KeyError), "selection.key"),
    "extra_field": (changed(colour="red"), "colour"),
    "wrong_width": (changed(vectors__teaching__Q=[[1, 2, 3]] * 5), "vectors.teaching.Q[0]"),
    "nan": (changed(vectors__dialogue__q=[math.nan, 1]), "vectors.dialogue.q[0]"),
    "infinity": (changed(vectors__dialogue__q=[1, -math.inf]), "vectors.dialogue.q[1]"),
    "overflow_literal": (changed(vectors__dialogue__q=["BIG", 1]).replace('"BIG"', "1e999"),
                         "vectors.dialogue.q[0]"),
    "beyond_edit_limit": (changed(vectors__dialogue__q=[1e308, 1]), "vectors.dialogue.q[0]"),
    "zero_tokens": (changed(vectors__teaching__Q=[]), "vectors.teaching.Q"),
    "thousands_of_tokens": (changed(vectors__teaching__K=[[0.5] * 4] * 5000),
                            "vectors.teaching.K"),
    "text_entry": (changed(vectors__teaching__K=[["1", 2, 3, 4]] + [[0, 0, 0, 0]] * 4),
                   "vectors.teaching.K[0][0]"),
    "selection_out_of_range": (changed(selection__query=17), "selection.query"),
    "unknown_scorer": (changed(scorer="telepathy"), "scorer"),
    "duplicate_key": ('{"world": "dialogue", "world": "teaching"}', "(file)"),
}


def write_case(folder: Path, name: str) -> Path:
    path = folder / f"{name}.attnlab.json"
    path.write_text(SCENARIO_CASES[name][0], encoding="utf-8")
    return path


def big_file(folder: Path) -> Path:
    path = folder / "huge.attnlab.json"
    with path.open("wb") as stream:
        stream.write(b'{"format": "attention-lab-scenario", "pad": "')
        stream.write(b"x" * (50 * 1024 * 1024))
        stream.write(b'"}')
    return path


def special_files(folder: Path) -> dict[str, tuple[Path, str]]:
    non_utf8 = folder / "latin1.attnlab.json"
    non_utf8.write_bytes(changed(scorer="dot").replace("dot", "d\xf6t").encode("latin-1"))
    a_folder = folder / "folder.attnlab.json"
    a_folder.mkdir()
    cases = {
        "fifty_megabytes": (big_file(folder), f"{MAX_BYTES // (1024 * 1024)} MB"),
        "non_utf8": (non_utf8, "UTF-8"),
        "folder": (a_folder, "folder"),
        "missing": (folder / "nowhere.attnlab.json", "not found"),
    }
    if hasattr(os, "mkfifo"):  # opening a FIFO for reading waits for a writer: a hang
        fifo = folder / "pipe.attnlab.json"
        os.mkfifo(fifo)
        cases["fifo"] = (fifo, "not a regular file")
    if Path("/dev/zero").exists():  # endless zeros: must never be read whole
        endless = folder / "zeros.attnlab.json"
        endless.symlink_to("/dev/zero")
        cases["link_to_dev_zero"] = (endless, "not a regular file")
    return cases


def assert_names_what_and_where(error: Exception, path: Path, where: str) -> None:
    message = str(error)
    assert message.startswith(f"{path.name}: "), message
    assert where in message, message
    assert "Traceback" not in message


def refuse_reading(monkeypatch, target: Path) -> None:
    """Tests run as root, who can read anything: make opening this one file fail instead."""
    real_open = Path.open

    def guarded_open(self: Path, *args, **kwargs):
        if Path(self) == target:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", guarded_open)
    real_builtin_open = builtins.open

    def guarded_builtin(file, *args, **kwargs):
        if isinstance(file, (str, os.PathLike)) and Path(file) == target:
            raise PermissionError(13, "Permission denied", str(file))
        return real_builtin_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded_builtin)


LOADERS = {
    lesson_data.DIALOGUE_FILE: lesson_data.load_dialogue,
    lesson_data.TEACHING_FILE: lesson_data.load_teaching_world,
    lesson_data.ANCHOR_FILE: lesson_data.load_anchor,
    lesson_data.FRONTIER_FILE: lesson_data.load_frontier,
    SCENES_FILE: load_scenes,
}


def original_doc(name: str) -> dict:
    return json.loads((lesson_data.DEFAULT_DATA_DIR / name).read_text(encoding="utf-8"))


def data_cases() -> list[tuple[str, str, object, str]]:
    """(file, case, new content: dict, str or bytes, field the message must name)."""
    dialogue = original_doc(lesson_data.DIALOGUE_FILE)
    teaching = original_doc(lesson_data.TEACHING_FILE)
    anchor = original_doc(lesson_data.ANCHOR_FILE)
    cases: list[tuple[str, str, object, str]] = []
    for name in LOADERS:
        doc = original_doc(name)
        cases += [
            (name, "not_json", "{ not json", "line 1 column 3"),
            (name, "empty", "", "line 1 column 1"),
            (name, "other_version", {**doc, "schema_version": 99}, "schema_version"),
            (name, "no_version", {k: v for k, v in doc.items() if k != "schema_version"},
             "schema_version"),
            (name, "non_utf8", b'{"schema_version": 1, "about": "caf\xe9"}', "UTF-8"),
            (name, "list_root", "[]", "(file)"),
        ]
    d = lesson_data.DIALOGUE_FILE
    t = lesson_data.TEACHING_FILE
    a = lesson_data.ANCHOR_FILE
    cases += [
        (d, "missing_query", {k: v for k, v in dialogue.items() if k != "query"}, "query"),
        (d, "nan", as_json({**dialogue, "query": {**dialogue["query"], "vector": [math.nan, 1]}}),
         "query.vector[0]"),
        (d, "infinity", as_json({**dialogue, "query": {**dialogue["query"],
                                                     "vector": [1, math.inf]}}),
         "query.vector[1]"),
        (d, "wrong_shape", {**dialogue, "query": {**dialogue["query"], "vector": [1, 2, 3]}},
         "query.vector"),
        (d, "zero_keys", {**dialogue, "keys": []}, "keys"),
        (d, "text_number", {**dialogue, "query": {**dialogue["query"], "vector": ["2", 3]}},
         "query.vector[0]"),
        (t, "zero_tokens", {**teaching, "tokens": []}, "tokens"),
        (t, "wrong_shape", {**teaching, "E": [teaching["E"][0], teaching["E"][1][:-1],
                                              *teaching["E"][2:]]}, "E[1]"),
        (t, "missing_wq", {k: v for k, v in teaching.items() if k != "W_Q"}, "W_Q"),
        (t, "thousands_of_tokens",
         {**teaching, "tokens": [{"token": f"t{i}", "gloss": "g"} for i in range(3000)],
          "E": [[((i * 7 + j) % 11) / 10 for j in range(len(teaching["E"][0]))]
                for i in range(3000)]},
         "tokens"),
        (a, "missing_layers", {k: v for k, v in anchor.items() if k != "num_hidden_layers"},
         "num_hidden_layers"),
        (a, "negative_heads", {**anchor, "num_attention_heads": -24}, "num_attention_heads"),
        (a, "text_heads", {**anchor, "num_key_value_heads": "four"}, "num_key_value_heads"),
        (a, "absurd_layer_count", {**anchor, "num_hidden_layers": 10**12}, "num_hidden_layers"),
        (d, "absurd_position", {**dialogue, "positions": [3, 0, 10**400, 2]}, "positions[2]"),
        (d, "beyond_edit_limit", {**dialogue, "query": {**dialogue["query"],
                                                        "vector": [2, 1e6]}}, "query.vector[1]"),
        (t, "beyond_edit_limit", {**teaching, "E": [[x * 1e4 for x in row]
                                                    for row in teaching["E"]]}, "E[0][0]"),
        (t, "non_finite_gain", as_json({**teaching, "qk_norm": {**teaching["qk_norm"],
                                                              "gain": [math.nan] * 4}}),
         "qk_norm.gain[0]"),
    ]
    return cases


DATA_CASES = data_cases()


def write_data(folder: Path, name: str, content: object) -> Path:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(as_json(content), encoding="utf-8")
    return path
