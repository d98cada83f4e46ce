"""File → Import vectors… through the real menu action: the imported world on the heatmap
(cell grid and, past it, the image picture) against NumPy for every scorer, one undo step,
heads, unavailable scorers, and bad files that change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QMessageBox
from safetensors.numpy import save_file

from app.model.capture import MAX_SAVED_NUMBERS
from app.ui.actions import files as files_module
from app.ui.panels.heatmap.large import GRID_LIMIT, thinned

RNG = np.random.default_rng(3)
D, D_A = 8, 6


def _weights() -> dict[str, np.ndarray]:
    return {"additive.W1": RNG.standard_normal((D_A, D)).astype(np.float32),
            "additive.W2": RNG.standard_normal((D_A, D)).astype(np.float32),
            "additive.v": RNG.standard_normal(D_A).astype(np.float32),
            "q_norm.weight": RNG.uniform(0.5, 2.0, D).astype(np.float32),
            "k_norm.weight": RNG.uniform(0.5, 2.0, D).astype(np.float32)}


def _capture(path: Path, tq: int, tk: int, heads: int = 1, weights: bool = True,
             d: int = D) -> dict:
    arrays = {"q": RNG.standard_normal((heads, tq, d)).astype(np.float32),
              "k": RNG.standard_normal((heads, tk, d)).astype(np.float32)}
    if weights:
        arrays |= _weights()
    save_file(arrays, str(path), metadata={"tokens": json.dumps([f"w{i}" for i in range(tk)])})
    return arrays


def _reference(name: str, arrays: dict, head: int = 0) -> np.ndarray:
    """Each scorer written out in plain NumPy (float64), the model's own way."""
    q, k = (arrays[n][head].astype(np.float64) for n in ("q", "k"))
    if name == "dot":
        return q @ k.T
    if name == "scaled_dot":
        return q @ k.T / np.sqrt(D)
    if name == "cosine":
        return (q / np.linalg.norm(q, axis=1, keepdims=True)) @ (
            k / np.linalg.norm(k, axis=1, keepdims=True)).T
    if name == "neg_euclidean":
        return -np.sqrt(((q[:, None, :] - k[None, :, :]) ** 2).sum(-1))
    w = {n: v.astype(np.float64) for n, v in arrays.items() if "." in n}
    if name == "additive":
        return np.tanh((q @ w["additive.W1"].T)[:, None, :]
                       + (k @ w["additive.W2"].T)[None, :, :]) @ w["additive.v"]

    def rms(x: np.ndarray, g: np.ndarray) -> np.ndarray:
        return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g

    return rms(q, w["q_norm.weight"]) @ rms(k, w["k_norm.weight"]).T


def _import_through_menu(window, monkeypatch, path: Path) -> None:
    monkeypatch.setattr(files_module.QFileDialog, "getOpenFileName",
                        lambda *_a, **_k: (str(path), ""))
    window.actions["import_vectors"].trigger()
    window.document.finish_import()
    window.document.flush()


@pytest.mark.parametrize(("tq", "tk"), [(5, 7), (GRID_LIMIT + 8, GRID_LIMIT + 8)])
def test_heatmap_shows_every_scorer_as_numpy_computes_it(window, monkeypatch, tmp_path,
                                                         tq: int, tk: int) -> None:
    arrays = _capture(tmp_path / "capture.safetensors", tq, tk)
    _import_through_menu(window, monkeypatch, tmp_path / "capture.safetensors")
    document, heatmap = window.document, window.panels["heatmap"]
    assert document.state.world == "imported"
    assert document.view.key_names[0] == "w0" and len(document.view.query_names) == tq
    window.docks["heatmap"].show()
    for name in ("dot", "scaled_dot", "cosine", "neg_euclidean", "additive", "qk_norm"):
        document.set_scorer(name)
        document.flush()
        heatmap.refresh()
        np.testing.assert_allclose(heatmap.values, _reference(name, arrays), rtol=1e-4,
                                   atol=1e-4, err_msg=name)
    large = max(tq, tk) > GRID_LIMIT
    assert heatmap.image.isVisible() == large  # past the grid: the image picture


def test_an_import_is_one_undo_step(window, monkeypatch, tmp_path) -> None:
    _capture(tmp_path / "c.safetensors", 3, 3)
    before = window.document.state
    _import_through_menu(window, monkeypatch, tmp_path / "c.safetensors")
    assert window.document.state.imported is not None
    window.document.undo_stack.undo()
    window.document.flush()
    assert window.document.state == before


def test_a_file_with_heads_asks_which_head(window, monkeypatch, tmp_path) -> None:
    arrays = _capture(tmp_path / "heads.safetensors", 4, 4, heads=3)
    asked: list[int] = []

    def get_int(_parent, _title, _label, value, low, high):
        asked.append(high)
        return 2, True

    monkeypatch.setattr(files_module.QInputDialog, "getInt", get_int)
    _import_through_menu(window, monkeypatch, tmp_path / "heads.safetensors")
    assert asked == [2]
    capture = window.document.state.imported
    assert capture.head == 2 and np.array_equal(capture.queries, arrays["q"][2])


def test_scorers_without_weights_are_greyed_with_a_reason(window, monkeypatch, tmp_path) -> None:
    _capture(tmp_path / "bare.safetensors", 3, 3, weights=False)
    _import_through_menu(window, monkeypatch, tmp_path / "bare.safetensors")
    combo = window.findChild(QComboBox, "scorer_combo")
    item = combo.model().item(4)  # additive, in registry order
    assert not item.isEnabled()
    assert "additive.W1" in combo.itemData(4, Qt.ItemDataRole.ToolTipRole)
    assert combo.model().item(0).isEnabled()
    notices: list[str] = []
    window.document.notice.connect(notices.append)
    assert window.document.state.scorer == "scaled_dot"  # as the model scored its pairs
    window.document.set_scorer("qk_norm")
    assert window.document.state.scorer == "scaled_dot" and len(notices) == 1


def test_imported_world_is_offered_only_after_an_import(window, monkeypatch, tmp_path) -> None:
    imported = window.findChild(QComboBox, "world_combo").model().item(2)
    assert not imported.isEnabled() and not window.actions["world_imported"].isEnabled()
    notices: list[str] = []
    window.document.notice.connect(notices.append)
    window.document.set_world("imported")
    assert window.document.state.world == "teaching" and len(notices) == 1
    _capture(tmp_path / "c.safetensors", 3, 3)
    _import_through_menu(window, monkeypatch, tmp_path / "c.safetensors")
    assert imported.isEnabled() and window.actions["world_imported"].isEnabled()


def test_a_bad_file_says_why_and_changes_nothing(window, monkeypatch, tmp_path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, q=np.ones((3, 4)), k=np.ones((3, 5)))
    before = window.document.state
    _import_through_menu(window, monkeypatch, bad)
    box = window.files.message
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert box.informativeText() == ("In bad.npz, k has width d = 5 but q has d = 4; the two "
                                     "must match.")
    assert window.document.state == before and window.document.undo_stack.count() == 0
    box.close()


def test_an_import_too_large_to_keep_says_so(window, monkeypatch, tmp_path) -> None:
    T = MAX_SAVED_NUMBERS // (2 * 64) + 1
    _capture(tmp_path / "big.safetensors", T, T, weights=False, d=64)
    _import_through_menu(window, monkeypatch, tmp_path / "big.safetensors")
    assert window.document.state.world == "imported"
    box = window.files.message
    assert box is not None and box.isVisible()
    assert f"{MAX_SAVED_NUMBERS:,}" in box.informativeText()
    box.close()


def test_match_table_scores_every_scorer_of_a_large_import(window, monkeypatch,
                                                           tmp_path) -> None:
    T = 200  # past the view's full matrices: the other scorers come from the selected row
    arrays = _capture(tmp_path / "long.safetensors", T, T, weights=False)
    _import_through_menu(window, monkeypatch, tmp_path / "long.safetensors")
    view = window.document.view
    assert set(view.scores) == {"dot", "scaled_dot"}  # dot and the active scorer only
    row = window.document.state.query
    np.testing.assert_allclose(view.row_scores["cosine"], _reference("cosine", arrays)[row],
                               rtol=1e-5, atol=1e-5)
    window.docks["match"].show()
    window.panels["match"].refresh()
    assert window.panels["match"].model.rows.scores["cosine"] is view.row_scores["cosine"]


def test_thinned_ticks_name_every_step_th_token() -> None:
    names = tuple(f"token{i}" for i in range(4096))
    ticks = thinned(names, 5, 6)
    assert [i for i, _ in ticks] == [0, 1000, 2000, 3000, 4000]
    assert ticks[1][1] == "1000 token…"  # names cut to fit side by side
    assert thinned(("#0", "#1"), 5, 6) == [(0, "0"), (1, "1")]


def test_term_by_term_writes_a_large_d_largest_first(window, monkeypatch, tmp_path) -> None:
    d = 16
    q = np.ones((1, 1, d), np.float32)
    k = np.arange(1, d + 1, dtype=np.float32).reshape(1, 1, d)  # q_i·k_i = i + 1
    k[0, 0, 3] = -40.0  # the largest |product|, and negative
    save_file({"q": q, "k": k}, str(tmp_path / "wide.safetensors"))
    _import_through_menu(window, monkeypatch, tmp_path / "wide.safetensors")
    window.docks["expansion"].show()
    panel = window.panels["expansion"]
    panel.refresh()
    text = panel.equation.text()
    assert text.index("<sub>4</sub>") < text.index("<sub>16</sub>") < text.index("<sub>15</sub>")
    assert "8 smaller terms" in text and "<sub>1</sub>" not in text
    rest = sum(i for i in range(1, 10) if i != 4)  # dims 1–3 and 5–9, left out
    assert f"+ {rest} =" in text
    assert [name for _, name in panel._tick_labels][:2] == ["q₄k₄", "q₁₆k₁₆"]


def test_a_captured_vector_drags_as_one_undo_step(window, monkeypatch, tmp_path) -> None:
    arrays = _capture(tmp_path / "c.safetensors", 3, 4, weights=False)
    _import_through_menu(window, monkeypatch, tmp_path / "c.safetensors")
    document = window.document
    steps = document.undo_stack.count()
    document.begin_drag()
    for x in (0.5, 1.0, 1.5):
        document.set_vector("k", 2, np.full(D, x))
    document.end_drag()
    assert document.undo_stack.count() == steps + 1
    assert np.array_equal(document.state.imported.keys[2], np.full(D, 1.5, np.float32))
    np.testing.assert_allclose(document.view.scores["dot"][:, 2],
                               arrays["q"][0].astype(np.float64) @ np.full(D, 1.5), rtol=1e-5)
    document.undo_stack.undo()
    document.flush()
    assert np.array_equal(document.state.imported.keys, arrays["k"][0])


def test_the_causal_mask_of_a_key_cache_hatches_above_the_shifted_diagonal(
        window, monkeypatch, tmp_path) -> None:
    _capture(tmp_path / "cache.safetensors", GRID_LIMIT + 4, GRID_LIMIT + 12, weights=False)
    _import_through_menu(window, monkeypatch, tmp_path / "cache.safetensors")
    window.document.set_options(causal=True)
    window.document.flush()
    heatmap = window.panels["heatmap"]
    window.docks["heatmap"].show()
    heatmap.refresh()
    box = heatmap.mask_item.path().boundingRect()
    assert (box.left(), box.right()) == (8.5, GRID_LIMIT + 12 - 0.5)  # keys ≤ i + 8 are seen
    assert np.isnan(heatmap.values[0, 9]) and not np.isnan(heatmap.values[0, 8])
