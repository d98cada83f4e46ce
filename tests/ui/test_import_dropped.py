"""A capture dropped on the window as a student does it, from a real file: the model's own
numbers replace whatever the heatmap showed, and the lesson's words stay with the lesson."""

from __future__ import annotations

import numpy as np

from app.i18n import tr
from tests.ui.dropping import drop_file


def _save(path, t: int = 5, d: int = 6) -> None:
    rng = np.random.default_rng(3)
    np.savez(path, q=rng.standard_normal((t, d)), k=rng.standard_normal((t, d)))


def test_an_import_turns_scale_mode_off_and_says_so(qtbot, window, tmp_path) -> None:
    document = window.document
    heatmap = window.panels["heatmap"]
    window.docks["heatmap"].show()
    heatmap.scale_box.click()
    document.flush()
    assert document.state.options.scale_mode
    _save(tmp_path / "layer.npz")
    assert drop_file(qtbot, window, tmp_path / "layer.npz")
    assert not document.state.options.scale_mode
    assert not heatmap.scale_box.isChecked()
    heatmap.refresh()
    assert "seed" not in heatmap.info.text()
    assert tr("import.scale_off") in window.statusBar().currentMessage()
    document.undo_stack.undo()  # one step brings back scale mode and what was there
    document.flush()
    assert document.state.options.scale_mode and document.state.imported is None

