"""The vector editor in the imported world: a capture imported through the real menu, the
selected pair's q and k shown (largest |qᵢ·kᵢ| first), edited by keyboard and by dragging as
one undo step each, any dimension reachable, and the 4-D world's reshape controls out of reach."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from safetensors.numpy import save_file

from app.i18n import tr
from app.model import view as view_module
from app.model.capture import VALUE_LIMIT
from app.model.view import compute_view
from app.ui.actions import files as files_module
from app.ui.format import format_number
from app.ui.widgets.number_box import NumberNote, quoted
from tests.ui.dropping import drop_file

RNG = np.random.default_rng(11)


def _capture(path: Path, t: int, d: int) -> dict[str, np.ndarray]:
    arrays = {"q": RNG.standard_normal((t, d)).astype(np.float32),
              "k": RNG.standard_normal((t, d)).astype(np.float32)}
    save_file(arrays, str(path), metadata={"tokens": json.dumps([f"w{i}" for i in range(t)])})
    return arrays


def _import(window, monkeypatch, path: Path) -> None:
    monkeypatch.setattr(files_module.QFileDialog, "getOpenFileName",
                        lambda *_a, **_k: (str(path), ""))
    window.actions["import_vectors"].trigger()
    window.document.finish_import()
    window.document.flush()


def _editor(window):
    window.docks["editor"].show()
    window.docks["editor"].raise_()
    panel = window.panels["editor"]
    panel.refresh()
    return panel


def test_the_editor_shows_the_selected_pair_of_a_capture(window, monkeypatch, tmp_path) -> None:
    arrays = _capture(tmp_path / "c.safetensors", 6, 20)
    _import(window, monkeypatch, tmp_path / "c.safetensors")
    assert not window.docks["editor"].isHidden()  # the capture keeps the vector editor
    window.document.select(query=4, key=1)
    panel = _editor(window)
    assert panel.stack.currentWidget() is panel._imported_page
    page = panel.imported
    q, k = arrays["q"][4].astype(np.float64), arrays["k"][1].astype(np.float64)
    expected = np.argsort(-np.abs(q * k), kind="stable")[:8]
    assert list(page.dims) == list(expected)
    np.testing.assert_allclose(page.bars["q"].values, q[expected], rtol=1e-6)
    np.testing.assert_allclose(page.bars["k"].values, k[expected], rtol=1e-6)
    assert [label.text() for label in page.ticks["q"]] == [str(i + 1) for i in expected]
    assert "w4" in page.pair_line.text() and "w1" in page.pair_line.text()
    assert page.dim_spin.value() == expected[0] + 1  # the largest term's exact values
    assert page.boxes["q"].value() == round(float(q[expected[0]]), 4)
    # the 4-D world's reshape controls are not offered; a note says why
    assert not panel.reshape_bar.isVisibleTo(panel)
    assert page.fixed_note.isVisibleTo(panel) and page.fixed_note.toolTip()


def test_typing_an_entry_is_one_undo_step_the_heatmap_follows(window, monkeypatch,
                                                              tmp_path) -> None:
    arrays = _capture(tmp_path / "c.safetensors", 5, 12)
    _import(window, monkeypatch, tmp_path / "c.safetensors")
    document = window.document
    document.select(query=2, key=3)
    page = _editor(window).imported
    steps = document.undo_stack.count()
    page.dim_spin.setValue(7)  # dimension 7 = index 6
    box = page.boxes["k"]
    box.setFocus()
    box.selectAll()
    QTest.keyClicks(box, "2.5")
    QTest.keyClick(box, Qt.Key.Key_Return)
    document.flush()
    assert document.undo_stack.count() == steps + 1
    key = arrays["k"][3].astype(np.float64)
    key[6] = 2.5
    assert document.state.imported.keys[3][6] == 2.5
    heatmap = window.panels["heatmap"]
    window.docks["heatmap"].show()
    heatmap.refresh()
    d = len(key)  # the import is scored as the model scored it: q·k/√d
    np.testing.assert_allclose(heatmap.values[2, 3],
                               arrays["q"][2].astype(np.float64) @ key / np.sqrt(d), rtol=1e-5)
    document.undo_stack.undo()
    document.flush()
    assert np.array_equal(document.state.imported.keys, arrays["k"])
    assert page.boxes["k"].value() == round(float(arrays["k"][3][6]), 4)


def test_dragging_a_bar_is_one_undo_step(window, monkeypatch, tmp_path, qtbot) -> None:
    arrays = _capture(tmp_path / "c.safetensors", 4, 16)
    _import(window, monkeypatch, tmp_path / "c.safetensors")
    document = window.document
    document.select(query=1, key=2)
    panel = _editor(window)
    qtbot.waitUntil(lambda: panel.imported.plots["q"].isVisible())
    page = panel.imported
    plot = page.plots["q"]
    column = 0
    dim = int(page.dims[column])
    steps = document.undo_stack.count()
    width, height = plot.viewport().width(), plot.viewport().height()
    x = int((column + 0.5) * width / len(page.dims))
    viewport = plot.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=QPoint(x, height // 2))
    for y in (height // 2 - 5, height // 3, height // 6):
        QTest.mouseMove(viewport, QPoint(x, y))
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=QPoint(x, height // 6))
    document.flush()
    assert document.undo_stack.count() == steps + 1
    dragged = document.state.imported.queries[1]
    top = plot.canvas.transform().inverted()[0].map(QPointF(x, height // 6)).y()
    assert dragged[dim] > arrays["q"][1][dim] and abs(dragged[dim] - top) < 0.05 * page._reach
    others = np.delete(np.arange(16), dim)
    assert np.array_equal(dragged[others], arrays["q"][1][others])  # only that dimension
    document.undo_stack.undo()
    document.flush()
    assert np.array_equal(document.state.imported.queries, arrays["q"])


def test_a_wide_capture_shows_its_largest_dims_and_reaches_the_last(window, monkeypatch,
                                                                   tmp_path) -> None:
    arrays = _capture(tmp_path / "wide.safetensors", 3, 300)
    _import(window, monkeypatch, tmp_path / "wide.safetensors")
    document = window.document
    document.select(query=0, key=0)
    page = _editor(window).imported
    products = arrays["q"][0].astype(np.float64) * arrays["k"][0].astype(np.float64)
    assert len(page.dims) == 8
    assert np.all(np.diff(np.abs(products[page.dims])) <= 0)  # largest first
    assert np.abs(products[page.dims[-1]]) >= np.sort(np.abs(products))[-8]
    assert page.dim_spin.maximum() == 300
    page.dim_spin.setValue(300)  # the last dimension, index 299
    assert page.boxes["q"].value() == round(float(arrays["q"][0][299]), 4)
    page.boxes["q"].setValue(-1.25)
    document.flush()
    assert document.state.imported.queries[0][299] == -1.25


def test_the_editor_dock_names_the_world_it_edits(window, monkeypatch, tmp_path) -> None:
    dock = window.docks["editor"]
    assert dock.windowTitle() == "4-D vector editor"
    window.document.set_dimension(6)
    window.document.flush()
    assert dock.windowTitle() == "6-D vector editor"
    _capture(tmp_path / "c.safetensors", 6, 20)
    _import(window, monkeypatch, tmp_path / "c.safetensors")
    assert dock.windowTitle() == "Vector editor (imported model, d = 20)"
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    window.document.flush()
    assert dock.windowTitle() == "4-D vector editor"


def test_a_captures_boxes_read_a_decimal_comma_and_refuse_a_pasted_row(
        window, monkeypatch, tmp_path, qtbot) -> None:
    """Up to 1024 dimensions: a row pasted into one entry cannot be meant to fill the pair's
    vector, so it is refused under the box and nothing changes."""
    _capture(tmp_path / "c.safetensors", 4, 10)
    _import(window, monkeypatch, tmp_path / "c.safetensors")
    document = window.document
    page = _editor(window).imported
    page.dim_spin.setValue(2)
    box = page.boxes["q"]
    box.setFocus()
    box.selectAll()
    QTest.keyClicks(box, "0,125")
    QTest.keyClick(box, Qt.Key.Key_Return)
    document.flush()
    assert document.state.imported.queries[document.state.query][1] == 0.125
    before, steps = document.state, document.undo_stack.count()
    text = "1.5, 2.5, 3.5, 4.5"
    QApplication.clipboard().setText(text)
    box.selectAll()
    QTest.keyClick(box.lineEdit(), Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(box, Qt.Key.Key_Return)
    document.flush()
    assert document.state == before and document.undo_stack.count() == steps
    note = NumberNote.near(box)
    assert note.isVisible() and note.box is box
    accepts = tr("typed.accepts", low=format_number(-VALUE_LIMIT),
                 high=format_number(VALUE_LIMIT))
    assert note.text() == tr("typed.several", typed=quoted(text), count=4, accepts=accepts)


def test_a_bar_dragged_down_stays_in_the_chart_until_the_next_pair(
        window, tmp_path, qtbot, every_move_counts) -> None:
    """Dragged to zero, the largest term is the smallest: it stays under the hand and after
    the release; choosing a pair ranks the dimensions again."""
    arrays = _capture(tmp_path / "c.safetensors", 4, 40)
    assert drop_file(qtbot, window, tmp_path / "c.safetensors")
    document = window.document
    document.select(query=1, key=2)
    panel = _editor(window)
    qtbot.waitUntil(lambda: panel.imported.plots["q"].isVisible())
    page = panel.imported
    chosen = list(page.dims)
    plot = page.plots["q"]
    viewport = plot.viewport()
    x = int(0.5 * viewport.width() / len(page.dims))  # the first bar: the largest term
    zero = plot.canvas.transform().map(QPointF(0.0, 0.0)).y()
    bar = plot.canvas.transform().map(QPointF(0.0, float(page.bars["q"].values[0]))).y()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=QPoint(x, int(bar)))
    for step in range(1, 6):
        QTest.mouseMove(viewport, QPoint(x, int(bar + (zero - bar) * step / 5)))
        document.flush()
        assert list(page.dims) == chosen
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=QPoint(x, int(zero)))
    document.flush()
    qtbot.wait(10)
    edited = document.state.imported.queries[1].astype(np.float64)
    assert abs(edited[chosen[0]]) < abs(arrays["q"][1][chosen[0]])  # it did shrink
    assert list(page.dims) == chosen
    assert [label.text() for label in page.ticks["q"]] == [str(i + 1) for i in chosen]
    document.select(query=2, key=2)
    document.flush()
    document.select(query=1, key=2)
    document.flush()
    products = np.abs(edited * arrays["k"][2].astype(np.float64))
    assert list(page.dims) == list(np.argsort(-products, kind="stable")[:8])


def test_a_drag_on_a_long_capture_gives_what_a_full_recompute_gives(
        window, tmp_path, qtbot, monkeypatch, every_move_counts) -> None:
    """Each step scores only the dragged key's column again; the numbers on screen are the
    ones a recompute from scratch gives."""
    t = 140  # past FULL_CELLS: the large import's own path
    _capture(tmp_path / "long.safetensors", t, 24)
    assert drop_file(qtbot, window, tmp_path / "long.safetensors")
    document = window.document
    document.set_options(heatmap_mode="weights", causal=True)
    document.select(query=t - 3, key=5)
    panel = _editor(window)
    qtbot.waitUntil(lambda: panel.imported.plots["k"].isVisible())
    page = panel.imported
    viewport = page.plots["k"].viewport()
    x = int(1.5 * viewport.width() / len(page.dims))
    height = viewport.height()
    before = document.state.imported.keys.copy()
    whole = []  # full matrices scored during the drag: none
    scored = view_module.imported_scores
    monkeypatch.setattr(view_module, "imported_scores",
                        lambda *args: whole.append(1) or scored(*args))
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=QPoint(x, height // 2))
    for y in (height // 3, height // 5, height // 4):
        QTest.mouseMove(viewport, QPoint(x, y))
        document.flush()
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=QPoint(x, height // 4))
    document.flush()
    assert not np.array_equal(document.state.imported.keys[5], before[5]) and whole == []
    shown, fresh = document.view, compute_view(document.state, document.data)
    for name, matrix in fresh.scores.items():
        np.testing.assert_allclose(shown.scores[name], matrix, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(shown.weights, fresh.weights, rtol=1e-5, atol=1e-7)
    heatmap = window.show_panel("heatmap")
    heatmap.refresh()
    np.testing.assert_allclose(heatmap.values, 100 * fresh.weights, rtol=1e-5, atol=1e-5)
