"""A capture dropped on the window as a student does it, from a real file: the model's own
numbers replace whatever the heatmap showed, and the lesson's words stay with the lesson."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QLabel

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



def test_the_lessons_glosses_never_attach_to_an_imported_token(qtbot, window, tmp_path) -> None:
    """A model's token spelled 把 is the model's: no "(ba, object marker)" beside it."""
    data = window.document.data
    gloss = data.teaching.glosses[data.teaching.tokens.index("把")]
    words = ["小明", "把", "苹果", "给了", "小王"]
    rng = np.random.default_rng(4)
    np.savez(tmp_path / "ba.npz", q=rng.standard_normal((5, 6)), k=rng.standard_normal((5, 6)),
             tokens=np.array(words))
    assert drop_file(qtbot, window, tmp_path / "ba.npz")
    window.document.select(query=1, key=1)  # 把 against 把
    window.document.flush()
    match = window.show_panel("match")
    heatmap = window.show_panel("heatmap")
    match.refresh()
    heatmap.refresh()
    table = match.model
    shown = [table.data(table.index(row, column)) or ""
             for row in range(table.rowCount()) for column in range(table.columnCount())]
    assert any("把" in text for text in shown)
    assert not any(gloss in str(text) for text in shown)
    assert list(heatmap._matrix.names["left"]) == words  # the model's names, nothing beside
    texts = [label.text() for label in window.findChildren(QLabel) if label.isVisible()]
    assert any("把" in text for text in texts)
    assert not any(gloss in text for text in texts)
