"""Token names at the loader's limit, and large imports, shown well: a 200-character name never
makes the window demand thousands of pixels (labels show it elided, the whole name in the
tooltip), a newline in a name never adds a line, and a 256- or 1,024-key import lays its match
table out without measuring every row (timings: the benchmark's "import a capture → every dock
shown and painted" rows)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QLabel
from safetensors.numpy import save_file

from app.model.capture import MAX_TOKEN_CHARS, load_capture
from app.model.capture.view import REASON_KEYS
from app.ui.panels.match.model import MatchModel
from app.ui.panels.match.panel import MatchTablePanel

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

LONG = "x" * (MAX_TOKEN_CHARS - 3)
"""No space or CJK character to wrap at: a label can only be as wide as the whole name."""
NEWLINE = "line1\nline2\nline3"


def _capture(folder: Path, tokens: list[str], d: int = 64, name: str = "c.safetensors") -> Path:
    rng = np.random.default_rng(23)
    path = folder / name
    T = len(tokens)
    save_file({"q": rng.standard_normal((T, d)).astype(np.float32),
               "k": rng.standard_normal((T, d)).astype(np.float32)}, str(path),
              metadata={"tokens": json.dumps(tokens)})
    return path


def _show_everything(window) -> None:
    """Each dock in front once (a panel behind a tab refreshes when it is shown)."""
    for dock in window.docks.values():
        dock.show()
        dock.raise_()
        QApplication.processEvents()


def _visible_labels(window) -> list[QLabel]:
    return [label for label in window.findChildren(QLabel) if label.isVisible()]


@pytest.fixture
def long_names(window, tmp_path: Path):
    """The shared window (1400 × 900, every dock) on an import whose names are at the limit,
    one of them with newlines, selected as the pair on screen."""
    tokens = [f"{LONG}{i:03d}" for i in range(5)] + [NEWLINE]
    window.document.import_capture(load_capture(_capture(tmp_path, tokens)))
    window.document.finish_import()
    window.document.select(query=5, key=0)
    window.document.flush()
    _show_everything(window)
    return window


def test_a_name_at_the_limit_never_widens_the_window(long_names) -> None:
    window = long_names
    assert window.minimumSizeHint().width() <= window.width()
    for name, dock in window.docks.items():
        assert dock.minimumSizeHint().width() <= window.width(), name
    wide = [f"{label.objectName() or type(label).__name__}: {label.minimumSizeHint().width()}"
            for label in _visible_labels(window)
            if label.minimumSizeHint().width() > window.width() // 2]
    assert not wide, wide


def test_a_newline_in_a_name_never_adds_a_line(long_names) -> None:
    window = long_names
    texts = [label.text() for label in _visible_labels(window)]
    model = window.panels["match"].model
    texts += [model.data(model.index(row, 0)) for row in range(model.rowCount())]
    assert not [text for text in texts if "line1\nline2" in text]
    assert any("line1⏎line2⏎line3" in text for text in texts)


def test_the_whole_name_is_in_the_tooltip_where_a_label_shortens_it(long_names) -> None:
    window = long_names
    whole = f"{LONG}000"  # the selected key
    for name in ("status_pair", "heatmap_readout", "editor_imported_pair",
                 "expansion_heading"):
        label = window.findChild(QLabel, name)
        assert label.isVisible(), name
        assert "…" in label.text() and whole not in label.text(), (name, label.text())
        tip = label.toolTip() or label.parentWidget().toolTip()  # Qt asks the parent next
        assert whole in tip, name
    model = window.panels["match"].model
    assert whole in model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)


def test_a_256_key_import_explains_only_the_top_keys_swaps(window, tmp_path: Path) -> None:
    """All 32,640 pairs of 256 keys once produced 7,306 reasons and a label of 1.25 million
    characters, which took seconds to lay out."""
    tokens = [f"t{i}" for i in range(256)]
    window.document.import_capture(load_capture(_capture(tmp_path, tokens)))
    window.document.finish_import()
    window.document.flush()
    window.docks["match"].raise_()
    QApplication.processEvents()
    reasons = window.document.view.reasons.reasons
    pairs = REASON_KEYS * (REASON_KEYS - 1) // 2
    assert 0 < len(reasons) <= 2 * pairs  # dot against cosine and against distance
    assert window.panels["match"].reasons.text().count("\n") < 2 * pairs


def test_the_match_table_sizes_its_columns_without_reading_every_row(qtbot, window,
                                                                     tmp_path: Path,
                                                                     monkeypatch) -> None:
    """Qt's resizeColumnsToContents asks the model about a thousand rows of each column, at
    every fit; the table measures its texts once and asks Qt only about each column's widest
    cells. Counted on a panel of its own, built after the count is installed (Qt looks a
    Python override up when the model is made)."""
    T = 1024
    calls = {"n": 0}
    data = MatchModel.data

    def counted(self, index, role=Qt.ItemDataRole.DisplayRole):
        calls["n"] += 1
        return data(self, index, role)

    monkeypatch.setattr(MatchModel, "data", counted)
    panel = MatchTablePanel(window.document)
    try:
        panel.setMinimumSize(1, 1)
        panel.resize(900, 700)
        panel.show()
        qtbot.waitExposed(panel)
        window.document.import_capture(load_capture(_capture(
            tmp_path, [f"t{i}" for i in range(T)], d=16)))
        window.document.finish_import()
        window.document.flush()
        QApplication.processEvents()
        calls["n"] = 0
        panel.refresh()
        panel.resize(880, 700)  # a new width: the table is fitted again
        QApplication.processEvents()
        qtbot.waitUntil(lambda: not panel._measurer.isActive())  # measured over turns
        assert panel.model.rowCount() == T and panel.table.height() > 30 * T  # every row
        assert calls["n"] < 10 * T, calls["n"]
        shown = [c for c in range(panel.model.columnCount())
                 if not panel.table.isColumnHidden(c)]
        widths = [panel.table.columnWidth(c) for c in shown]
        needed = [panel.table.sizeHintForColumn(c) for c in shown]
        assert all(w >= n for w, n in zip(widths, needed, strict=True)), (widths, needed)
    finally:  # gone before the count is: Qt keeps calling the override it looked up
        panel.close()
        panel.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
