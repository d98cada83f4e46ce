"""Sizes said about an imported capture: the heatmap's size line groups its digits, and the
shapes panel says its sizes are the lesson's and the anchor's, naming the capture's own."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from app.i18n import set_language
from app.ui.actions import files as files_module
from app.ui.format import format_number


def _import(window, monkeypatch, path: Path, tq: int, tk: int, d: int) -> None:
    rng = np.random.default_rng(5)
    save_file({"q": rng.standard_normal((tq, d)).astype(np.float32),
               "k": rng.standard_normal((tk, d)).astype(np.float32)}, str(path),
              metadata={"tokens": json.dumps([f"t{i}" for i in range(tk)])})
    monkeypatch.setattr(files_module.QFileDialog, "getOpenFileName",
                        lambda *_a, **_k: (str(path), ""))
    window.actions["import_vectors"].trigger()
    window.document.finish_import()
    window.document.flush()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_heatmap_size_line_groups_digits(open_window, monkeypatch, tmp_path,
                                             language: str) -> None:
    window = open_window(language)
    try:
        _import(window, monkeypatch, tmp_path / "c.safetensors", 1030, 1100, 2)
        heatmap = window.panels["heatmap"]
        window.docks["heatmap"].show()
        heatmap.refresh()
        text = heatmap.info.text()
        assert "1,030 × 1,100 = 1,133,000" in text and "1133000" not in text
    finally:
        set_language("en")


def test_the_shapes_panel_names_the_imports_size(window, monkeypatch, tmp_path) -> None:
    shapes = window.panels["shapes"]
    window.docks["shapes"].show()
    assert not shapes.import_note.isVisibleTo(shapes)  # the lesson's world: nothing to say
    _import(window, monkeypatch, tmp_path / "c.safetensors", 7, 2000, 16)
    shapes.refresh()
    assert shapes.import_note.isVisibleTo(shapes)
    note = shapes.import_note.text()
    assert f"7 queries × {format_number(2000)} keys, d = 16" in note
    assert format_number(7 * 2000) in note
    window.document.set_world("teaching")
    window.document.flush()
    shapes.refresh()
    assert not shapes.import_note.isVisibleTo(shapes)


def test_a_picture_formats_no_cell_number(window, monkeypatch, tmp_path) -> None:
    """Past the cell grid the heatmap is one picture: formatting every cell's number (16.7
    million at T = 4096) took a minute before its first frame."""
    from app.ui.panels.heatmap import panel as heatmap_module

    formatted: list[tuple[int, int]] = []
    real = heatmap_module.cell_texts

    def counting(state, view, embeddings, shape):
        formatted.append(shape)
        return real(state, view, embeddings, shape)

    monkeypatch.setattr(heatmap_module, "cell_texts", counting)
    window.docks["heatmap"].show()
    _import(window, monkeypatch, tmp_path / "wide.safetensors", 40, 40, 2)
    window.panels["heatmap"].refresh()
    assert formatted == []
    _import(window, monkeypatch, tmp_path / "grid.safetensors", 30, 30, 2)
    window.panels["heatmap"].refresh()
    assert formatted and formatted[-1] == (30, 30)  # cells print their numbers up to the grid's
