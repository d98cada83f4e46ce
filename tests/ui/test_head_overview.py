"""Every head at a glance: the overview computes each layer's and head's causal attention map
on the worker thread, equal to NumPy's softmax of q·kᵀ/√d, and a click on a map opens that
head in the lab."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt

from app.model.checkpoint import open_checkpoint

FOLDER = Path(__file__).resolve().parents[1] / "data" / "checkpoints" / "qwen3-bf16"
SENTENCE = "The cat sat on the mat."


def _softmax_causal(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    s = q.astype(np.float64) @ k.astype(np.float64).T / np.sqrt(q.shape[1])
    s[np.triu_indices(len(s), 1)] = -np.inf
    w = np.exp(s - s.max(1, keepdims=True))
    return w / w.sum(1, keepdims=True)


def test_every_head_is_mapped_and_a_click_opens_it(qtbot, window) -> None:
    run = window.models.run
    action = window.actions["model_overview"]
    assert not action.isEnabled()  # no sentence run yet
    with qtbot.waitSignal(run.opened, timeout=10000):
        run.open_folder(FOLDER)
    with qtbot.waitSignal(run.shown, timeout=10000):
        run.show(SENTENCE, 0, 0)
    window.document.flush()
    assert action.isEnabled()
    action.trigger()
    overview = window.models.overview
    qtbot.waitUntil(lambda: bool(overview.tiles), timeout=10000)
    checkpoint = open_checkpoint(FOLDER)
    layers, heads = checkpoint.config.n_layers, checkpoint.config.n_heads
    assert sorted(overview.tiles) == [(la, h) for la in range(layers) for h in range(heads)]
    for layer in range(layers):
        answer = checkpoint.queries_keys(SENTENCE, layer)
        for head in range(heads):
            np.testing.assert_allclose(overview.maps[layer][head],
                                       _softmax_causal(answer.q[head], answer.k[head]),
                                       rtol=1e-6, atol=1e-9)
    last = (layers - 1, heads - 1)
    with qtbot.waitSignal(run.shown, timeout=10000):
        qtbot.mouseClick(overview.tiles[last], Qt.MouseButton.LeftButton)
    window.document.flush()
    assert window.document.state.imported.head == heads - 1
    assert f"layer {layers - 1} · head {heads - 1}" in window.windowTitle()
    overview.close()
    run.shutdown()
