"""Captured q and k: every accepted shape, the learned weights, and each bad input a loader
must refuse, as one CaptureError naming the file (built with NumPy and safetensors.numpy)."""

from __future__ import annotations

import json
import struct
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from app.model.attention import softmax
from app.model.capture import (
    MAX_D,
    MAX_SAVED_NUMBERS,
    MAX_T,
    Capture,
    CaptureError,
    capture_from_arrays,
    load_capture,
)
from app.model.capture.view import FULL_CELLS, available_scorers
from app.model.errors import ScenarioError
from app.model.lesson.data import load_lesson_data
from app.model.scenario import dumps, loads
from app.model.scoring import SCORERS, score_matrix
from app.model.view import compute_view, initial_state

RNG = np.random.default_rng(17)


def _qk(*shape: int, dtype: type = np.float32) -> dict[str, np.ndarray]:
    return {"q": RNG.standard_normal(shape).astype(dtype),
            "k": RNG.standard_normal(shape).astype(dtype)}


def _safetensors(path: Path, arrays: dict[str, np.ndarray], tokens: object = None) -> Path:
    metadata = None if tokens is None else {"tokens": json.dumps(tokens)}
    save_file(arrays, str(path), metadata=metadata)
    return path


def _refused(path: Path, words: str, head: int = 0) -> str:
    with pytest.raises(CaptureError) as caught:
        load_capture(path, head)
    message = str(caught.value)
    assert message.startswith(path.name + ":"), message
    assert "\n" not in message
    assert words in message, message
    return message


# ---- what is accepted -----------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(6, 8), (3, 6, 8), (1, 3, 6, 8)])
def test_each_documented_shape_gives_the_head_asked_for(tmp_path: Path,
                                                         shape: tuple[int, ...]) -> None:
    arrays = _qk(*shape)
    tokens = [f"t{i}" for i in range(6)]
    path = _safetensors(tmp_path / "c.safetensors", arrays, tokens)
    head = 2 if len(shape) > 2 else 0
    capture = load_capture(path, head)
    q = arrays["q"].reshape(-1, 6, 8)[head]
    assert np.array_equal(capture.queries, q)
    assert capture.queries.dtype == np.float32  # a float32 capture stays float32
    assert capture.key_names == tuple(tokens) and capture.query_names == tuple(tokens)
    assert capture.heads == (1 if len(shape) == 2 else 3) and capture.source == "c.safetensors"


def test_npz_with_tokens_and_float64(tmp_path: Path) -> None:
    arrays = _qk(4, 5, dtype=np.float64)
    path = tmp_path / "c.npz"
    np.savez(path, **arrays, tokens=np.array(["我", "爱", "你", "们"]))
    capture = load_capture(path)
    assert capture.queries.dtype == np.float64
    assert np.array_equal(capture.keys, arrays["k"])
    assert capture.key_names == ("我", "爱", "你", "们")


def test_a_key_cache_names_queries_by_the_last_tokens_and_masks_bottom_right(
        tmp_path: Path) -> None:
    path = _safetensors(tmp_path / "cache.safetensors",
                        {"q": RNG.standard_normal((2, 4)).astype(np.float32),
                         "k": RNG.standard_normal((5, 4)).astype(np.float32)},
                        ["a", "b", "c", "d", "e"])
    capture = load_capture(path)
    assert capture.query_names == ("d", "e")
    data = load_lesson_data()
    state = replace(initial_state(data), imported=capture).with_world("imported", (1, 0))
    state = replace(state, options=replace(state.options, causal=True))
    view = compute_view(state, data)
    # query "d" (row 0) sees keys a…d, query "e" sees all five
    assert view.allowed.tolist() == [[True] * 4 + [False], [True] * 5]


def test_grouped_heads_use_the_shared_key_head(tmp_path: Path) -> None:
    q = RNG.standard_normal((4, 3, 2)).astype(np.float32)
    k = RNG.standard_normal((2, 3, 2)).astype(np.float32)
    path = _safetensors(tmp_path / "gqa.safetensors", {"q": q, "k": k})
    assert np.array_equal(load_capture(path, 3).keys, k[1])


def test_learned_weights_make_their_scorers_available(tmp_path: Path) -> None:
    d, d_a = 6, 5
    arrays = _qk(4, d) | {
        "additive.W1": RNG.standard_normal((d_a, d)).astype(np.float32),
        "additive.W2": RNG.standard_normal((d_a, d)).astype(np.float32),
        "additive.v": RNG.standard_normal(d_a).astype(np.float32),
        "q_norm.weight": RNG.uniform(0.5, 2, d).astype(np.float32),
        "k_norm.weight": RNG.uniform(0.5, 2, d).astype(np.float32),
    }
    capture = load_capture(_safetensors(tmp_path / "w.safetensors", arrays))
    assert available_scorers(capture) == tuple(SCORERS)
    q, k = arrays["q"].astype(np.float64), arrays["k"].astype(np.float64)
    W1, W2, v = (arrays[n].astype(np.float64) for n in ("additive.W1", "additive.W2",
                                                        "additive.v"))
    additive = np.tanh((q @ W1.T)[:, None, :] + (k @ W2.T)[None, :, :]) @ v
    got = score_matrix("additive", capture.queries, capture.keys, capture.params)
    np.testing.assert_allclose(got, additive, rtol=1e-4, atol=1e-4)

    def rms(x: np.ndarray, g: np.ndarray) -> np.ndarray:
        return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g

    gq, gk = (arrays[n].astype(np.float64) for n in ("q_norm.weight", "k_norm.weight"))
    qk_norm = rms(q, gq) @ rms(k, gk).T  # each side its own gain, as the model has them
    got = score_matrix("qk_norm", capture.queries, capture.keys, capture.params)
    np.testing.assert_allclose(got, qk_norm, rtol=1e-4, atol=1e-4)


def test_without_weights_the_learned_scorers_are_unavailable() -> None:
    capture = capture_from_arrays(_qk(3, 4), None)
    assert available_scorers(capture) == ("dot", "scaled_dot", "cosine", "neg_euclidean")
    assert capture.key_names == ("#0", "#1", "#2")


# ---- the imported world in the view ---------------------------------------------------------

def test_a_large_import_computes_full_matrices_only_for_what_is_drawn() -> None:
    data = load_lesson_data()
    T = 200
    assert T * T > FULL_CELLS
    capture = capture_from_arrays(_qk(T, 16), None)
    state = replace(initial_state(data), imported=capture, scorer="cosine").with_world(
        "imported", (T - 1, 3))
    view = compute_view(state, data)
    assert set(view.scores) == {"cosine", "dot"}
    for name in available_scorers(capture):  # every scorer's selected row, as NumPy has it
        expected = score_matrix(name, capture.queries, capture.keys)[T - 1]
        np.testing.assert_allclose(view.row_scores[name], expected, rtol=1e-5, atol=1e-5)
        assert len(view.row_ranks[name]) == T


def test_a_small_import_round_trips_through_a_scenario() -> None:
    data = load_lesson_data()
    template = initial_state(data)
    capture = capture_from_arrays(_qk(3, 4) | {"q_norm.weight": np.ones(4)},
                                  ["x", "y", "z"], source="mine.npz")
    state = replace(template, imported=capture).with_world("imported", (2, 1))
    back = loads(dumps(state), template)
    assert back == state and back.world == "imported"
    assert back.imported.queries.dtype == np.float32


def test_an_import_too_large_to_keep_is_left_out_of_the_scenario() -> None:
    data = load_lesson_data()
    template = initial_state(data)
    T = MAX_SAVED_NUMBERS // 64 + 1
    capture = capture_from_arrays(_qk(T, 32), None)
    assert not capture.savable
    state = replace(template, imported=capture).with_world("imported", (0, 0))
    back = loads(dumps(state), template)
    assert back.imported is None and back.world == "teaching"


def test_an_edit_of_an_imported_vector_keeps_its_dtype_and_range() -> None:
    data = load_lesson_data()
    capture = capture_from_arrays(_qk(3, 4), None)
    state = replace(initial_state(data), imported=capture).with_world("imported", (0, 0))
    edited = state.with_vector("k", 1, [150.0, 0, 0, 0])
    assert edited.imported.keys.dtype == np.float32
    assert edited.imported.keys[1, 0] == 150.0  # the lesson's ±100 is not the import's range
    assert np.array_equal(edited.imported.queries, capture.queries)


# ---- bad input: one line naming the file ----------------------------------------------------

def test_missing_q_or_k(tmp_path: Path) -> None:
    path = _safetensors(tmp_path / "noq.safetensors", {"k": _qk(3, 4)["k"]})
    _refused(path, "q: is missing")
    path = tmp_path / "nok.npz"
    np.savez(path, q=np.ones((3, 4)))
    _refused(path, "k: is missing")


def test_widths_differ(tmp_path: Path) -> None:
    path = _safetensors(tmp_path / "w.safetensors",
                        {"q": np.ones((3, 4), np.float32), "k": np.ones((3, 5), np.float32)})
    _refused(path, "d = 5 but q has d = 4")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_values(tmp_path: Path, bad: float) -> None:
    q = np.ones((3, 4), np.float32)
    q[2, 1] = bad
    path = _safetensors(tmp_path / "nan.safetensors", {"q": q, "k": np.ones((3, 4), np.float32)})
    _refused(path, "non-finite values (NaN or ±inf), first at token 2, dimension 1")


def test_object_or_pickled_arrays(tmp_path: Path) -> None:
    path = tmp_path / "pickled.npz"
    np.savez(path, q=np.array([{"a": 1}, None], dtype=object), k=np.ones((2, 2)))
    _refused(path, "pickled")


def test_tokens_of_the_wrong_length_or_not_strings(tmp_path: Path) -> None:
    arrays = _qk(3, 4)
    _refused(_safetensors(tmp_path / "short.safetensors", arrays, ["a", "b"]),
             "tokens: has 2 names but there are 3 keys")
    _refused(_safetensors(tmp_path / "ints.safetensors", arrays, ["a", 2, "c"]),
             "tokens[1]: must be a string")
    path = tmp_path / "numbers.npz"
    np.savez(path, **arrays, tokens=np.arange(3))
    _refused(path, "tokens: must be a 1-D array of strings")


def test_shapes_and_sizes_beyond_the_limits(tmp_path: Path) -> None:
    _refused(_safetensors(tmp_path / "wide.safetensors",
                          {"q": np.zeros((2, MAX_D + 1), np.float16),
                           "k": np.zeros((2, MAX_D + 1), np.float16)}), f"d is {MAX_D + 1}")
    _refused(_safetensors(tmp_path / "long.safetensors",
                          {"q": np.zeros((1, 2), np.float16),
                           "k": np.zeros((MAX_T + 1, 2), np.float16)}), f"T of k is {MAX_T + 1}")
    _refused(_safetensors(tmp_path / "5d.safetensors",
                          {"q": np.zeros((1, 1, 1, 2, 2), np.float32),
                           "k": np.zeros((2, 2), np.float32)}), "expected (T, d), (heads, T, d)")
    _refused(_safetensors(tmp_path / "more_q.safetensors",
                          {"q": np.zeros((3, 2), np.float32), "k": np.zeros((2, 2), np.float32)}),
             "keys must cover every query")


def test_head_out_of_range(tmp_path: Path) -> None:
    path = _safetensors(tmp_path / "heads.safetensors", _qk(2, 3, 4))
    _refused(path, "head: 2 is out of range: the file has 2 heads (0–1)", head=2)


def test_truncated_or_lying_safetensors_header(tmp_path: Path) -> None:
    good = _safetensors(tmp_path / "good.safetensors", _qk(3, 4)).read_bytes()
    cut = tmp_path / "cut.safetensors"
    cut.write_bytes(good[:-10])
    _refused(cut, "lie outside the file")
    tiny = tmp_path / "tiny.safetensors"
    tiny.write_bytes(b"\x01\x02\x03")
    _refused(tiny, "too short for a safetensors header")
    lying = tmp_path / "lying.safetensors"
    lying.write_bytes(struct.pack("<Q", 10**9) + good[8:])
    _refused(lying, "says its header is 1000000000 bytes")
    header = json.dumps({"q": {"dtype": "F32", "shape": [3, 4], "data_offsets": [0, 40]},
                         "k": {"dtype": "F32", "shape": [3, 4], "data_offsets": [0, 48]}})
    shape_lie = tmp_path / "shape_lie.safetensors"
    shape_lie.write_bytes(struct.pack("<Q", len(header)) + header.encode() + bytes(48))
    _refused(shape_lie, "does not match its 40 bytes")


def test_empty_file_folder_missing_and_wrong_kind(tmp_path: Path) -> None:
    empty = tmp_path / "empty.npz"
    empty.touch()
    _refused(empty, "is empty")
    folder = tmp_path / "folder.safetensors"
    folder.mkdir()
    _refused(folder, "is a folder")
    _refused(tmp_path / "gone.npz", "does not exist")
    other = tmp_path / "notes.txt"
    other.write_text("q k")
    _refused(other, "must be a .npz or .safetensors file")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    _refused(broken, "not a valid .npz archive")


def test_capture_equality_compares_values() -> None:
    arrays = _qk(2, 3)
    one, two = capture_from_arrays(arrays, None), capture_from_arrays(arrays, None)
    assert one == two
    assert one != Capture(arrays["q"] + 1, arrays["k"], one.query_names, one.key_names)


def test_an_edited_capture_compares_as_its_values_say() -> None:
    """An edit remembers its origin, so comparing the two reads one vector: the answers are
    the ones a comparison of every value gives, back and forth and after an undo's values."""
    arrays = _qk(4, 3)
    origin = capture_from_arrays(arrays, None)
    for role in ("q", "k"):
        values = np.array(origin.vectors(role)[2], np.float64)
        moved = origin.with_vector(role, 2, values + 0.5)
        same = origin.with_vector(role, 2, values)
        assert moved.edited_from(origin) == (role, 2) and origin.edited_from(moved) is None
        assert moved != origin and origin != moved
        assert same == origin and origin == same
        copies = (moved.with_vectors(moved.queries.copy(), moved.keys.copy()),
                  same.with_vectors(same.queries.copy(), same.keys.copy()))
        assert copies[0].edited_from(origin) is None  # no shortcut: every value compared
        assert (copies[0] == origin, copies[1] == origin) == (False, True)
        assert moved.vectors("k" if role == "q" else "q") is origin.vectors(
            "k" if role == "q" else "q")  # the other half is shared, read-only
        assert not moved.vectors(role).flags.writeable


def test_a_scenario_with_a_bad_import_names_the_field() -> None:
    data = load_lesson_data()
    template = initial_state(data)
    capture = capture_from_arrays(_qk(3, 4), ["x", "y", "z"])
    state = replace(template, imported=capture).with_world("imported", (2, 1))
    doc = json.loads(dumps(state))
    doc["imported"]["K"][1] = [1.0, 2.0]
    with pytest.raises(ScenarioError, match=r"imported\.K: .*rows of equal length"):
        loads(json.dumps(doc), template)
    del doc["imported"]
    with pytest.raises(ScenarioError, match=r"imported: is required when the world is"):
        loads(json.dumps(doc), template)


def test_a_large_import_showing_scores_computes_only_the_selected_rows_weights() -> None:
    data = load_lesson_data()
    T = 200
    capture = capture_from_arrays(_qk(T, 8), None)
    state = replace(initial_state(data), imported=capture).with_world("imported", (5, 0))
    view = compute_view(state, data)
    expected = softmax(score_matrix("dot", capture.queries, capture.keys)[5])
    np.testing.assert_allclose(view.weights[5], expected, rtol=1e-6)
    assert np.isnan(view.weights[4]).all()  # not computed, and never passes for a weight
    weights_mode = replace(state, options=replace(state.options, heatmap_mode="weights"))
    full = compute_view(weights_mode, data).weights
    assert np.isfinite(full).all()
    np.testing.assert_allclose(full[5], view.weights[5], rtol=1e-6)


def test_the_imported_world_without_an_import_is_the_4d_world() -> None:
    data = load_lesson_data()
    state = initial_state(data).with_world("imported")
    assert state.world == "teaching"
    assert loads(dumps(state), initial_state(data)) == state
