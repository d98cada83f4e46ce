"""Data loaders: the shipped files load, and every kind of broken file gives a DataError that
names the file and the field, never another exception type."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.model.errors import AttentionLabError, DataError
from app.model.jsonfile import MAX_FILE_BYTES, FileRefused, read_small_file
from app.model.lesson.data import (
    ANCHOR_FILE,
    DEFAULT_DATA_DIR,
    DIALOGUE_FILE,
    FRONTIER_FILE,
    TEACHING_FILE,
    load_lesson_data,
)

FILES = (DIALOGUE_FILE, TEACHING_FILE, ANCHOR_FILE, FRONTIER_FILE)


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _delete(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return change


def test_shipped_files_load_with_consistent_shapes() -> None:
    data = load_lesson_data()
    t = data.teaching
    assert t.tokens == ("小明", "把", "苹果", "给了", "小王")
    assert t.E.shape == (5, 4) and t.W_Q.shape == t.W_K.shape == t.W_V.shape == (4, 4)
    np.testing.assert_array_equal(t.Q, t.E @ t.W_Q)
    np.testing.assert_array_equal(t.K, t.E @ t.W_K)
    assert t.additive.d == 4 and t.qk_norm.d == 4
    d = data.dialogue
    assert d.q.shape == (2,) and d.keys.shape == (3, 2) and len(d.key_tokens) == 3
    assert d.key_tokens[d.key_index("opposite")] == "汽车"
    assert d.positions.shape == (4,)
    assert data.anchor.full_attention_layers + data.anchor.linear_attention_layers == 64
    assert {c.id for c in data.frontier.claims} >= {"dsv2_kv_reduction_vs_67b",
                                                     "dsv41_global_kv_per_token"}


def test_arrays_are_read_only() -> None:
    t = load_lesson_data().teaching
    for array in (t.E, t.W_Q, t.Q, t.K, load_lesson_data().dialogue.keys):
        with pytest.raises(ValueError):
            array[0, 0] = 99.0


def test_teaching_numbers_have_one_decimal_so_products_are_exact() -> None:
    t = load_lesson_data().teaching
    for M in (t.E, t.W_Q, t.W_K, t.W_V):
        np.testing.assert_allclose(M * 10, np.rint(M * 10), atol=1e-9)
    for M in (t.Q, t.K):
        np.testing.assert_allclose(M * 100, np.rint(M * 100), atol=1e-9)


def test_claims_are_kept_apart_from_configs_with_sources() -> None:
    frontier = load_lesson_data().frontier
    claim = frontier.claim("dsv2_kv_reduction_vs_67b")
    assert claim.value == -93.3 and claim.unit == "pct" and "DeepSeek-V2" in claim.source
    gqa = {c.id: c.value for c in frontier.claims if c.id.startswith("gqa_t5xxl")}
    assert gqa == {"gqa_t5xxl_mha_avg": 47.2, "gqa_t5xxl_mha_time": 1.51,
                   "gqa_t5xxl_mqa_avg": 46.6, "gqa_t5xxl_mqa_time": 0.24,
                   "gqa_t5xxl_gqa8_avg": 47.1, "gqa_t5xxl_gqa8_time": 0.28}
    with pytest.raises(DataError, match="claims"):
        frontier.claim("no-such-claim")


BAD_EDITS = [
    (TEACHING_FILE, _set(["E", 2, 1], "0.5"), "E[2][1]", "number"),
    (TEACHING_FILE, _set(["E", 0, 0], True), "E[0][0]", "number"),
    (TEACHING_FILE, _set(["E", 1], [0.1, 0.2, 0.3]), "E[1]", "4 numbers"),
    (TEACHING_FILE, lambda d: d["E"].pop(), "E", "5 rows"),
    (TEACHING_FILE, _set(["W_K"], [[1, 0, 0, 0]] * 3), "W_K", "4 rows"),
    (TEACHING_FILE, _delete(["W_Q"]), "W_Q", "missing"),
    (TEACHING_FILE, _set(["n_heads"], 3), "n_heads", "divide"),
    (TEACHING_FILE, _set(["roles", "query"], 7), "roles.query", "past the last"),
    (TEACHING_FILE, _delete(["roles", "object"]), "roles.object", "missing"),
    (TEACHING_FILE, _set(["tokens", 4, "token"], "小明"), "tokens[4].token", "twice"),
    (TEACHING_FILE, _set(["qk_norm", "eps"], 0), "qk_norm.eps", "greater than 0"),
    (TEACHING_FILE, _set(["additive", "v"], [1.0]), "additive.v", "3 numbers"),
    (TEACHING_FILE, lambda d: [row.__setitem__(3, 0) for row in d["E"]], "E", "column rank"),
    (TEACHING_FILE, _set(["schema_version"], 2), "schema_version", "reads 1"),
    (TEACHING_FILE, _delete(["about"]), "about", "missing"),
    (DIALOGUE_FILE, _set(["keys", 1, "vector"], [1, 2, 3]), "keys[1].vector", "2 numbers"),
    (DIALOGUE_FILE, _set(["positions"], [0, 1]), "positions", "4 positions"),
    (DIALOGUE_FILE, _set(["positions", 2], -1), "positions[2]", "at least 0"),
    (DIALOGUE_FILE, _set(["query"], [2, 3]), "query", "object"),
    (DIALOGUE_FILE, _set(["keys"], []), "keys", "non-empty"),
    (ANCHOR_FILE, _set(["head_dim"], "256"), "head_dim", "whole number"),
    (ANCHOR_FILE, _set(["head_dim"], 256.5), "head_dim", "whole number"),
    (ANCHOR_FILE, _set(["num_key_value_heads"], 5), "num_key_value_heads", "divide"),
    (ANCHOR_FILE, _set(["layer_types", 3], "linear_attention"), "layer_types[3]", "interval"),
    (ANCHOR_FILE, _set(["layer_types", 0], "sliding"), "layer_types[0]", "must be"),
    (ANCHOR_FILE, lambda d: d["layer_types"].pop(), "layer_types", "one type per layer"),
    (ANCHOR_FILE, _set(["full_attention_interval"], 0), "full_attention_interval", "at least 1"),
    (ANCHOR_FILE, _delete(["linear_value_head_dim"]), "linear_value_head_dim", "linear"),
    (ANCHOR_FILE, _set(["partial_rotary_factor"], 0.3), "partial_rotary_factor", "whole"),
    (ANCHOR_FILE, _set(["attn_output_gate"], "yes"), "attn_output_gate", "true or false"),
    (ANCHOR_FILE, _delete(["max_position_embeddings"]), "max_position_embeddings", "required"),
    (FRONTIER_FILE, _delete(["models", "deepseek-v2", "num_hidden_layers"]),
     "models.deepseek-v2.num_hidden_layers", "missing"),
    (FRONTIER_FILE, _delete(["models", "glm-5.3", "qk_rope_head_dim"]),
     "models.glm-5.3.qk_rope_head_dim", "MLA"),
    (FRONTIER_FILE, _delete(["models", "deepseek-llm-67b", "num_key_value_heads"]),
     "models.deepseek-llm-67b.num_key_value_heads", "MLA"),
    (FRONTIER_FILE, _delete(["claims", 0, "source"]), "claims[0].source", "missing"),
    (FRONTIER_FILE, _set(["claims", 1, "id"], "dsv2_kv_reduction_vs_67b"), "claims[1].id",
     "earlier"),
    (FRONTIER_FILE, _set(["models"], {}), "models", "at least one"),
]


@pytest.mark.parametrize(("name", "change", "field", "problem"), BAD_EDITS)
def test_invalid_field_names_file_and_field(
    data_dir: Path, edit_data, name: str, change: Callable[[dict[str, Any]], None], field: str,
    problem: str | None,
) -> None:
    edit_data(name, change)
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    err = info.value
    assert err.path.name == name and err.field == field
    if problem is not None:
        assert problem in err.problem
    assert name in str(err) and field in str(err)


RAW_BREAKAGE = [
    (TEACHING_FILE, b"\xff\xfe{\x00", "(file)", "UTF-8"),
    (ANCHOR_FILE, b'{"schema_version": 1,', "line 1 column 22", "not valid JSON"),
    (DIALOGUE_FILE, b"[1, 2, 3]", "(file)", "JSON object"),
    (FRONTIER_FILE, b"", "line 1 column 1", "not valid JSON"),
]


@pytest.mark.parametrize(("name", "content", "field", "problem"), RAW_BREAKAGE)
def test_unreadable_content(data_dir: Path, name: str, content: bytes, field: str,
                            problem: str) -> None:
    (data_dir / name).write_bytes(content)
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert info.value.path.name == name and info.value.field == field
    assert problem in info.value.problem


@pytest.mark.parametrize(("literal", "problem"),
                         [("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"),
                          ("1e999", "too large")])
def test_non_finite_numbers_are_rejected_with_their_path(data_dir: Path, literal: str,
                                                         problem: str) -> None:
    path = data_dir / TEACHING_FILE
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["E"][2][1] = "@@"
    path.write_text(json.dumps(doc, ensure_ascii=False).replace('"@@"', literal), "utf-8")
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert info.value.field == "E[2][1]" and problem in info.value.problem


def test_duplicate_keys_are_reported(data_dir: Path) -> None:
    path = data_dir / ANCHOR_FILE
    text = path.read_text(encoding="utf-8").replace('"head_dim": 256,',
                                                    '"head_dim": 256, "head_dim": 128,')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert info.value.field == "head_dim" and "more than once" in info.value.problem


@pytest.mark.parametrize("name", FILES)
def test_missing_file_and_folder_instead_of_file(data_dir: Path, name: str) -> None:
    (data_dir / name).unlink()
    with pytest.raises(DataError, match="not found") as info:
        load_lesson_data(data_dir)
    assert info.value.path.name == name
    (data_dir / name).mkdir()
    with pytest.raises(DataError, match="folder") as info:
        load_lesson_data(data_dir)
    assert info.value.path.name == name


def test_missing_data_folder(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        load_lesson_data(tmp_path / "nowhere")


def test_unknown_fields_are_tolerated(data_dir: Path, edit_data) -> None:
    edit_data(ANCHOR_FILE, _set(["intermediate_size"], 17408))
    edit_data(TEACHING_FILE, _set(["notes"], {"anything": [1, "x", None]}))
    assert load_lesson_data(data_dir).anchor.head_dim == 256


def test_error_types_and_pickling() -> None:
    import pickle

    err = DataError(Path("/x/anchor-model.json"), "head_dim", "must be a whole number")
    assert isinstance(err, AttentionLabError)
    assert str(err).endswith("anchor-model.json: head_dim: must be a whole number")
    again = pickle.loads(pickle.dumps(err))
    assert (again.path, again.field, again.problem) == (err.path, err.field, err.problem)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=8,
)
FUZZ_TARGETS = [
    (TEACHING_FILE, ["E"]), (TEACHING_FILE, ["E", 3]), (TEACHING_FILE, ["roles"]),
    (TEACHING_FILE, ["additive", "W1"]), (TEACHING_FILE, ["tokens", 0]),
    (DIALOGUE_FILE, ["query", "vector"]), (DIALOGUE_FILE, ["keys", 0]),
    (ANCHOR_FILE, ["layer_types"]), (ANCHOR_FILE, ["num_attention_heads"]),
    (FRONTIER_FILE, ["models", "deepseek-v2"]), (FRONTIER_FILE, ["claims"]),
]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.sampled_from(FUZZ_TARGETS), value=JSON_VALUES)
def test_any_json_value_in_a_known_field_loads_or_raises_data_error(
    data_dir: Path, edit_data, target: tuple[str, list[Any]], value: Any
) -> None:
    name, path = target
    for each in FILES:  # examples share the folder: start every one from the shipped files
        shutil.copyfile(DEFAULT_DATA_DIR / each, data_dir / each)
    edit_data(name, _set(path, value))
    try:
        load_lesson_data(data_dir)
    except DataError as err:
        assert err.path.name == name


# ---- one set of limits: what the loader accepts, every widget can show -------------------

LIMIT_EDITS = [
    (DIALOGUE_FILE, _set(["query", "vector"], [0, 0]), "query.vector", "has length 0"),
    (DIALOGUE_FILE, _set(["keys", 2, "vector"], [0.001, 0]), "keys[2].vector",
     "at least 0.01"),
    (DIALOGUE_FILE, lambda d: (d["query"].update(vector=[1, 1]),
                               [k.update(vector=v) for k, v in
                                zip(d["keys"], ([1, 0], [-2, 0], [1, 0]), strict=True)]),
     "keys", "sum to 0"),
    (TEACHING_FILE, lambda d: d["E"].__setitem__(1, [0, 0, 0, 0]), "E[1]", "has length 0"),
    (TEACHING_FILE, _set(["n_heads"], 4), "n_heads", "at most 2"),
    (ANCHOR_FILE, _set(["max_position_embeddings"], 2**31), "max_position_embeddings",
     f"at most {2**31 - 1}"),
    (FRONTIER_FILE, _set(["models", "glm-5.3", "max_position_embeddings"], 2**40),
     "models.glm-5.3.max_position_embeddings", f"at most {2**31 - 1}"),
    (FRONTIER_FILE, _set(["claims", 0, "value"], 1e300), "claims[0].value", "10¹⁵"),
]


@pytest.mark.parametrize(("name", "change", "field", "problem"), LIMIT_EDITS)
def test_data_no_widget_could_show_is_refused_by_name(
    data_dir: Path, edit_data, name: str, change: Callable[[dict[str, Any]], None], field: str,
    problem: str,
) -> None:
    edit_data(name, change)
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert (info.value.path.name, info.value.field) == (name, field)
    assert problem in info.value.problem, info.value.problem


def test_a_q_or_k_row_of_length_zero_is_refused_on_the_token(data_dir: Path, edit_data) -> None:
    def zero_keys(doc: dict[str, Any]) -> None:  # E is still fine; every K = E·W_K is 0
        for row in doc["W_K"]:
            row[:] = [0.0] * len(row)

    edit_data(TEACHING_FILE, zero_keys)
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert info.value.field == "E[0]" and "K = E·W_K has length 0" in info.value.problem


# ---- regular files only, of a bounded size ---------------------------------------------------

def test_a_fifo_data_file_is_refused_without_hanging(data_dir: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    (data_dir / ANCHOR_FILE).unlink()
    os.mkfifo(data_dir / ANCHOR_FILE)  # opening it for reading would wait for a writer
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert info.value.path.name == ANCHOR_FILE and "not a regular file" in info.value.problem


def test_a_link_to_dev_zero_is_refused_not_read(data_dir: Path) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero on this system")
    (data_dir / TEACHING_FILE).unlink()
    (data_dir / TEACHING_FILE).symlink_to("/dev/zero")
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert info.value.path.name == TEACHING_FILE and "not a regular file" in info.value.problem


def test_an_oversized_data_file_is_refused_before_it_is_read(data_dir: Path) -> None:
    with (data_dir / FRONTIER_FILE).open("ab") as stream:
        stream.truncate(MAX_FILE_BYTES + 1)  # a sparse tail: huge on paper, cheap on disk
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert info.value.path.name == FRONTIER_FILE and "larger than 5 MB" in info.value.problem


def test_read_small_file_is_the_one_reader_and_says_why(tmp_path: Path) -> None:
    small = tmp_path / "ok.json"
    small.write_bytes(b"{}")
    assert read_small_file(small) == b"{}"
    three = tmp_path / "three.json"
    three.write_bytes(b"abc")
    with pytest.raises(FileRefused, match="larger than 2 bytes"):
        read_small_file(three, max_bytes=2)
    with pytest.raises(FileRefused, match="the file name is empty"):
        read_small_file("")
    with pytest.raises(FileRefused, match="folder"):
        read_small_file(tmp_path)
    with pytest.raises(OSError, match="file not found"):  # an OSError for callers' handlers
        read_small_file(tmp_path / "nowhere")


# ---- what the app loads it can save and print ------------------------------------------------

def test_a_lone_surrogate_in_a_token_name_is_refused(data_dir: Path) -> None:
    path = data_dir / TEACHING_FILE
    text = path.read_text(encoding="utf-8")
    first = json.loads(text)["tokens"][0]["token"]
    path.write_text(text.replace(json.dumps(first, ensure_ascii=False),
                                 '"\\ud800"', 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert info.value.field == "tokens[0].token"
    assert "lone surrogate" in info.value.problem
    str(info.value).encode("utf-8")


def test_an_overlong_integer_names_its_field(data_dir: Path) -> None:
    path = data_dir / ANCHOR_FILE
    text = path.read_text(encoding="utf-8").replace('"head_dim": 256', '"head_dim": ' + "7" * 5000)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_lesson_data(data_dir)
    assert (info.value.field, info.value.problem) == ("head_dim",
                                                      "number is too long (5000 digits)")
