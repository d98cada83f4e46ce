"""Saying which head is on screen and switching it in place: the title and the status bar name
the model, the sentence's start, the layer and the head (or a capture file and its head); the
toolbar's layer and head boxes open another head at once, or another layer after a pass on
the worker thread, and the score matrix shows that head's scores."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QLabel

from app.model.capture import load_capture
from app.model.checkpoint import open_checkpoint
from app.ui.widgets.model_switch import ModelSwitch

CHECKPOINTS = Path(__file__).resolve().parents[1] / "data" / "checkpoints"
FOLDER = CHECKPOINTS / "llama-f32"
SENTENCE = "The cat sat on the mat, and the dog sat on the log."
OTHER = "A dog."


@pytest.fixture
def opened(qtbot, window):
    """The window showing head 0 of the model's last layer, from a pass on the worker."""
    run = window.models.run
    with qtbot.waitSignal(run.opened, timeout=10000):
        run.open_folder(FOLDER)
    with qtbot.waitSignal(run.shown, timeout=10000):
        run.show(SENTENCE, run.layers - 1, 0)
    window.document.flush()
    yield window
    run.shutdown()


def _switch(window) -> ModelSwitch:
    return window.findChild(ModelSwitch, "model_switch")


def _status(window) -> str:
    return window.findChild(QLabel, "status_showing").text()


def _heatmap_scores(qtbot, window) -> np.ndarray:
    panel = window.show_panel("heatmap")
    qtbot.waitUntil(lambda: panel.cells.grid.isVisible(), timeout=5000)
    return np.asarray(panel.cells.grid.values, dtype=np.float64)


def _reference(layer: int, head: int, text: str = SENTENCE) -> np.ndarray:
    answer = open_checkpoint(FOLDER).queries_keys(text, layer)
    q, k = answer.q[head].astype(np.float64), answer.k[head].astype(np.float64)
    return q @ k.T / np.sqrt(q.shape[1])


def test_title_and_status_name_the_model_sentence_layer_and_head(opened) -> None:
    words = "llama-f32 · “The cat sat on the mat,…” · layer 1 · head 0"
    assert words in opened.windowTitle()
    assert _status(opened) == words
    opened.document.set_world("teaching")
    opened.document.flush()
    assert "llama-f32" not in opened.windowTitle() and not _status(opened)


def test_a_head_switch_is_instant_and_the_heatmap_shows_that_head(qtbot, opened) -> None:
    switch = _switch(opened)
    assert switch.layer.isVisible() and switch.head.isVisible()
    assert (switch.layer.value(), switch.head.value()) == (1, 0)
    np.testing.assert_allclose(_heatmap_scores(qtbot, opened), _reference(1, 0), rtol=1e-5,
                               atol=1e-5)
    switch.head.setValue(3)  # no pass: layer 1 is computed
    assert not opened.models.run.busy
    opened.document.finish_import()  # its view is computed off the UI thread
    opened.document.flush()
    assert opened.document.state.imported.head == 3
    np.testing.assert_allclose(_heatmap_scores(qtbot, opened), _reference(1, 3), rtol=1e-5,
                               atol=1e-5)
    assert "layer 1 · head 3" in opened.windowTitle() and "head 3" in _status(opened)
    opened.document.undo_stack.undo()  # the switch was one step
    opened.document.flush()
    assert "layer 1 · head 0" in opened.windowTitle() and switch.head.value() == 0


def test_a_layer_switch_runs_the_model_again_off_the_ui_thread(qtbot, opened) -> None:
    switch, run = _switch(opened), opened.models.run
    with qtbot.waitSignal(run.shown, timeout=10000):
        run.show(OTHER, 0, 2)  # a new sentence: only layer 0 is computed for it
    assert (switch.layer.value(), switch.head.value()) == (0, 2)
    with qtbot.waitSignal(run.shown, timeout=10000):
        switch.layer.setValue(1)
        assert run.busy  # the pass runs on the worker; the UI went on
    opened.document.flush()
    np.testing.assert_allclose(_heatmap_scores(qtbot, opened), _reference(1, 2, OTHER),
                               rtol=1e-5, atol=1e-5)
    assert "“A dog.” · layer 1 · head 2" in opened.windowTitle()
    switch.layer.setValue(0)  # both layers are computed now: at once
    assert not run.busy
    opened.document.finish_import()
    assert opened.document.state.imported.head == 2
    assert "layer 0 · head 2" in _status(opened)


def test_a_capture_import_names_its_file_and_head(qtbot, window, tmp_path) -> None:
    path = tmp_path / "layer0.npz"
    rng = np.random.default_rng(3)
    np.savez(path, q=rng.standard_normal((4, 3, 5)), k=rng.standard_normal((2, 3, 5)))
    window.document.import_capture(load_capture(path, 2))
    window.document.finish_import()
    window.document.flush()
    assert "layer0.npz · head 2 (of 4, counted from 0)" in window.windowTitle()
    assert _status(window) == "layer0.npz · head 2 (of 4, counted from 0)"
    assert not _switch(window).layer.isVisible()  # nothing to run again
