"""An import computed off the UI thread: the window answers meanwhile, edits made meanwhile are
kept, the import lands as one undo step with a view equal to a from-scratch recompute, and a
failure says why and changes nothing."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt, QThread
from PySide6.QtWidgets import QApplication
from safetensors.numpy import save_file

from app.i18n import tr
from app.model.capture import Capture, load_capture
from app.model.lesson.data import load_lesson_data
from app.model.scale import block_image
from app.model.view import compute_view
from app.state import document as document_module
from app.state.document import Document
from app.ui.actions import files as files_module


def _write(folder: Path, T: int = 300, d: int = 16) -> Path:
    rng = np.random.default_rng(T)
    path = folder / f"capture-{T}.safetensors"
    save_file({"q": rng.standard_normal((T, d)).astype(np.float32),
               "k": rng.standard_normal((T, d)).astype(np.float32)}, str(path),
              metadata={"tokens": json.dumps([f"t{i}" for i in range(T)])})
    return path


def _capture(folder: Path) -> Capture:
    return load_capture(_write(folder))


def _landed(qtbot, document: Document):
    return qtbot.waitSignal(document.importing, timeout=10_000,
                            check_params_cb=lambda tokens: tokens == 0)


def _same_view(document: Document, tolerance: float = 0.0) -> None:
    """What the document shows equals a recompute of its state from scratch (exactly, or
    within float32 rounding where a step was patched into it)."""
    fresh, view = compute_view(document.state, document.data), document.view
    assert view.world == fresh.world == "imported"
    for name, matrix in fresh.scores.items():
        np.testing.assert_allclose(np.ma.filled(view.scores[name], np.nan),
                                   np.ma.filled(matrix, np.nan), rtol=tolerance,
                                   atol=tolerance)
    np.testing.assert_allclose(view.weights, fresh.weights, rtol=tolerance, atol=tolerance)
    np.testing.assert_array_equal(view.allowed, fresh.allowed)


@pytest.fixture
def document(qtbot):
    document = Document(load_lesson_data())
    yield document
    document.shutdown()  # no job of this test runs on into a later test's collection


def test_an_import_is_computed_off_the_ui_thread_and_lands_as_one_undo_step(
        qtbot, document, tmp_path) -> None:
    capture = _capture(tmp_path)
    before, steps, recomputes = document.state, document.undo_stack.count(), \
        document.recompute_count
    with qtbot.waitSignal(document.importing, timeout=1000) as started:
        document.import_capture(capture)
    assert started.args == [300]
    assert document.importing_tokens == 300
    # nothing is computed on the UI thread meanwhile: the state and view are the lesson's
    assert document.state is before and document.view.world == "teaching"
    assert document.recompute_count == recomputes
    with _landed(qtbot, document):
        pass
    assert document.importing_tokens == 0
    assert document.state.imported is capture and document.undo_stack.count() == steps + 1
    view = vars(document.view)  # the first frame's numbers, made ahead on the worker:
    assert "shown_halved" in view and "reasons" in view  # the picture's cells, the reasons
    assert set(view["_reduced"]) >= {2, 4, 8}  # the picture at the factors a plot draws
    ranks = document.view.row_ranks
    assert set(vars(ranks)["_values"]) == set(ranks)  # the table's ranks under every scorer
    _same_view(document)
    document.undo_stack.undo()
    assert document.state == before
    document.undo_stack.redo()
    assert document.state.imported is capture
    _same_view(document)


def test_edits_made_while_importing_are_kept_under_the_import(qtbot, document,
                                                              tmp_path) -> None:
    before = document.state
    capture = _capture(tmp_path)
    with _landed(qtbot, document):
        document.import_capture(capture)
        document.set_vector("k", 0, [1.0, 2.0, 3.0, 4.0])
        document.set_vector("q", 1, [0.5, 0.5, 0.5, 0.5])
        document.flush()
        assert document.state.world == "teaching"  # the edits land in the world on screen
    state = document.state
    assert state.world == "imported" and state.imported is capture
    np.testing.assert_array_equal(state.teaching_k[0], [1, 2, 3, 4])
    np.testing.assert_array_equal(state.teaching_q[1], [0.5, 0.5, 0.5, 0.5])
    _same_view(document)
    document.undo_stack.undo()  # the import alone
    assert document.state.world == "teaching"
    np.testing.assert_array_equal(document.state.teaching_q[1], [0.5, 0.5, 0.5, 0.5])
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert document.state == before


def test_an_option_changed_while_importing_is_in_the_imported_view(qtbot, document,
                                                                   tmp_path) -> None:
    with _landed(qtbot, document):
        document.import_capture(_capture(tmp_path))
        document.set_options(causal=not document.state.options.causal,
                             heatmap_mode="weights")
    assert document.state.options.heatmap_mode == "weights"
    _same_view(document)


def test_an_import_that_arrives_during_a_drag_waits_for_its_end(qtbot, document,
                                                                tmp_path) -> None:
    capture = _capture(tmp_path)
    steps = document.undo_stack.count()
    document.begin_drag()
    document.set_vector("k", 0, [1.0, 1.0, 1.0, 1.0])
    with qtbot.waitSignal(document._importer.finished, timeout=10_000):
        document.import_capture(capture)
    document.set_vector("k", 0, [2.0, 1.0, 1.0, 1.0])
    document.flush()
    assert document.state.world == "teaching" and document.importing_tokens == 300
    with _landed(qtbot, document):
        document.end_drag()
    assert document.state.imported is capture
    np.testing.assert_array_equal(document.state.teaching_k[0], [2, 1, 1, 1])
    assert document.undo_stack.count() == steps + 2  # the drag, then the import
    _same_view(document)


def test_a_failed_import_says_why_and_changes_nothing(qtbot, document, tmp_path,
                                                      monkeypatch) -> None:
    real = document_module.compute_view

    def failing(state, data, *args, **kwargs):
        if state.world == "imported":
            raise MemoryError("no room for 300 × 300 scores")
        return real(state, data, *args, **kwargs)

    monkeypatch.setattr(document_module, "compute_view", failing)
    before, steps = document.state, document.undo_stack.count()
    notices = []
    document.notice.connect(notices.append)
    with _landed(qtbot, document):
        document.import_capture(_capture(tmp_path))
    assert [notice.key for notice in notices] == ["notice.import_failed"]
    assert "no room" in notices[0].params["reason"]
    assert document.state is before and document.undo_stack.count() == steps
    assert document.importing_tokens == 0


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_status_line_and_cursor_say_an_import_is_running(qtbot, open_window, tmp_path,
                                                             monkeypatch, language) -> None:
    window = open_window(language)
    window.document.flush()
    path = _write(tmp_path, T=1100, d=4)  # small enough to keep: the summary is a status
    monkeypatch.setattr(files_module.QFileDialog, "getOpenFileName",
                        lambda *_a, **_k: (str(path), ""))
    bar = window.statusBar()
    with _landed(qtbot, window.document):
        window.actions["import_vectors"].trigger()
        assert bar.currentMessage() == tr("status.importing", tokens="1,100")
        assert "1,100" in bar.currentMessage()
        cursor = QApplication.overrideCursor()
        assert cursor is not None and cursor.shape() == Qt.CursorShape.BusyCursor
    assert QApplication.overrideCursor() is None
    assert window.document.state.world == "imported"
    window.document.flush()
    picture = window.panels["heatmap"].picture
    assert picture.factor > 1  # a picture reduced from the view's halved cells
    np.testing.assert_array_equal(picture.image,
                                  block_image(window.document.view.shown, picture.factor))
    assert bar.currentMessage() == tr("import.done", file=path.name, queries=1100, keys=1100,
                                      d=4)


def test_undo_then_redo_of_an_import_takes_its_view_back_without_computing_it(
        qtbot, document, tmp_path, monkeypatch) -> None:
    capture = _capture(tmp_path)
    with _landed(qtbot, document):
        document.import_capture(capture)
    document.flush()
    imported = document.view
    computed = []
    real = document_module.compute_view

    def counted(state, data, *args, **kwargs):
        computed.append(state.world)
        return real(state, data, *args, **kwargs)

    monkeypatch.setattr(document_module, "compute_view", counted)
    document.undo_stack.undo()
    document.flush()
    assert document.view.world == "teaching"
    document.undo_stack.redo()
    document.flush()
    assert document.view is imported and computed == ["teaching"]
    _same_view(document)
    document.set_vector("k", 4, np.ones(16))  # the view is the document's again: patched
    document.flush()
    assert computed == ["teaching", "imported"]
    _same_view(document, 1e-5)


def _on_the_worker(qtbot, document: Document, monkeypatch, change) -> list[bool]:
    """Make `change` (an option, the scorer, a world, an undo) and let its view land; says,
    per view the document computed, whether on the UI thread."""
    threads: list[bool] = []
    real = document_module.compute_view
    ui = QThread.currentThread()
    gate = threading.Event()

    def watched(state, data, *args, **kwargs):
        threads.append(QThread.currentThread() is ui)
        if not threads[-1]:
            gate.wait(10)  # the worker holds its view until the window has answered
        return real(state, data, *args, **kwargs)

    monkeypatch.setattr(document_module, "compute_view", watched)
    announced, shown = document.recompute_count, document.view
    change()
    for _ in range(3):
        QApplication.processEvents()  # the window answers: the state is in, its view is not
    assert document.recompute_count == announced, "told of before its view is there"
    assert document._view is shown and document.state is not document._view_state
    with qtbot.waitSignal(document.changed, timeout=10_000):
        gate.set()
    assert document.recompute_count == announced + 1  # one recompute, announced once
    monkeypatch.setattr(document_module, "compute_view", real)
    return threads


def test_a_large_imports_view_from_scratch_is_computed_off_the_ui_thread(
        qtbot, document, tmp_path, monkeypatch) -> None:
    with _landed(qtbot, document):
        document.import_capture(_capture(tmp_path))
    document.flush()
    for change in (lambda: document.set_options(causal=True),
                   lambda: document.set_scorer("cosine"),
                   lambda: document.select(key=7)):
        assert _on_the_worker(qtbot, document, monkeypatch, change) == [False]
        _same_view(document)
    document.set_world("teaching")
    document.flush()
    document.set_options(causal=False)  # the imported view left is no longer the one to take
    document.flush()
    assert _on_the_worker(qtbot, document, monkeypatch,
                          lambda: document.set_world("imported")) == [False]
    _same_view(document)
    document.set_world("teaching")
    document.flush()
    document.set_vector("k", 0, np.ones(4))  # an edit there: the view left is let go
    document.flush()

    def back() -> None:  # to the imported world, by undoing the edit and the switch
        document.undo_stack.undo()
        document.undo_stack.undo()

    assert _on_the_worker(qtbot, document, monkeypatch, back) == [False]
    assert document.state.world == "imported" and document.state.scorer == "cosine"
    _same_view(document)


def test_reading_a_view_being_computed_waits_for_it_and_announces_it_once(
        qtbot, document, tmp_path) -> None:
    with _landed(qtbot, document):
        document.import_capture(_capture(tmp_path))
    document.flush()
    announced = document.recompute_count
    document.set_options(causal=True)
    QApplication.processEvents()
    assert document.view.allowed.sum() < document.view.allowed.size  # the new view, now
    _same_view(document)
    qtbot.waitUntil(lambda: document.recompute_count == announced + 1)
    QApplication.processEvents()
    assert document.recompute_count == announced + 1


def test_shutdown_leaves_no_job_running(qtbot, document, tmp_path) -> None:
    """A document let go mid-import must not leave its job running into whatever deletes
    it later (a collection in another test crashed that way)."""
    document.import_capture(_capture(tmp_path))
    document.shutdown()
    assert document._importer._pool.activeThreadCount() == 0
    assert document._viewer._pool.activeThreadCount() == 0
