"""Files dropped on the main window, as real drag-enter and drop events carrying file URLs: a
scenario opens (asking first over unsaved work), a capture is imported through File →
Import's own code path, and anything else is refused with a message and changes nothing.
The title names the open file and carries Qt's unsaved mark."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from app.model.scenario import write_scenario
from app.model.view import initial_state
from app.ui.actions import files as files_module


def _mime(urls: list[QUrl]) -> QMimeData:
    mime = QMimeData()
    mime.setUrls(urls)
    return mime


def _enter(window, mime: QMimeData) -> bool:
    """A drag coming over the window; True when the window would take it."""
    event = QDragEnterEvent(window.rect().center(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)
    return event.isAccepted()


def _send_drop(window, *targets: Path | QUrl) -> None:
    """Drag `targets` over the window and drop them."""
    urls = [t if isinstance(t, QUrl) else QUrl.fromLocalFile(str(t)) for t in targets]
    mime = _mime(urls)
    assert _enter(window, mime)
    event = QDropEvent(QPointF(window.rect().center()), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)
    assert event.isAccepted()


def _drop(qtbot, window, *targets: Path | QUrl) -> bool:
    """Drop `targets` on the window; what the drop's `handled` said."""
    with qtbot.waitSignal(window.drops.handled, timeout=5000) as handled:
        _send_drop(window, *targets)
    window.document.finish_import()
    window.document.flush()
    return handled.args[0]


def _drop_and_wait_for_question(qtbot, window, path: Path) -> QMessageBox:
    _send_drop(window, path)
    qtbot.waitUntil(lambda: window.drops.question is not None, timeout=5000)
    box = window.drops.question
    assert box.isVisible() and "s.attnlab.json" in box.text()
    return box


def _scenario(window, path: Path):
    """A scenario whose state differs from the one on screen."""
    state = replace(initial_state(window.document.data), scorer="cosine")
    assert window.document.state != state
    write_scenario(state, path)
    return state


def _answer(qtbot, window, button: QMessageBox.StandardButton) -> bool:
    box = window.drops.question
    assert isinstance(box, QMessageBox) and box.isVisible()
    with qtbot.waitSignal(window.drops.handled, timeout=5000) as handled:
        box.button(button).click()
    window.document.flush()
    return handled.args[0]


def test_a_dropped_scenario_opens_and_the_title_names_it(qtbot, window, tmp_path) -> None:
    state = _scenario(window, tmp_path / "lesson-plan.attnlab.json")
    assert window.windowTitle() == "Attention Lab[*]" and not window.isWindowModified()
    assert _drop(qtbot, window, tmp_path / "lesson-plan.attnlab.json") is True
    assert window.document.state == state
    assert window.windowTitle() == "lesson-plan.attnlab.json[*] — Attention Lab"
    assert not window.isWindowModified()
    window.document.set_scorer("dot")
    window.document.flush()
    assert window.isWindowModified()


def test_a_scenario_dropped_over_unsaved_work_asks_first(qtbot, window, tmp_path) -> None:
    path = tmp_path / "s.attnlab.json"
    _scenario(window, path)
    window.document.set_scorer("neg_euclidean")
    window.document.flush()
    edited = window.document.state
    steps = window.document.undo_stack.count()
    _drop_and_wait_for_question(qtbot, window, path)
    assert window.document.state == edited  # nothing happens before the answer
    assert not _enter(window, _mime([QUrl.fromLocalFile(str(path))]))  # one question at a time
    assert _answer(qtbot, window, QMessageBox.StandardButton.Cancel) is False
    assert window.document.state == edited and window.document.undo_stack.count() == steps
    assert window.drops.question is None and window.files.current_path is None


def test_open_anyway_replaces_the_work_and_one_undo_brings_it_back(qtbot, window,
                                                                    tmp_path) -> None:
    path = tmp_path / "s.attnlab.json"
    state = _scenario(window, path)
    window.document.set_scorer("neg_euclidean")
    window.document.flush()
    edited = window.document.state
    _drop_and_wait_for_question(qtbot, window, path)
    assert _answer(qtbot, window, QMessageBox.StandardButton.Open) is True
    assert window.document.state == state
    window.document.undo_stack.undo()
    window.document.flush()
    assert window.document.state == edited


def test_save_first_keeps_the_work_in_a_file_then_opens(qtbot, window, tmp_path,
                                                         monkeypatch) -> None:
    path = tmp_path / "s.attnlab.json"
    state = _scenario(window, path)
    window.document.set_scorer("neg_euclidean")
    window.document.flush()
    kept = tmp_path / "my-work.attnlab.json"
    monkeypatch.setattr(files_module.QFileDialog, "getSaveFileName",
                        lambda *_a, **_k: (str(kept), ""))
    _drop_and_wait_for_question(qtbot, window, path)
    assert _answer(qtbot, window, QMessageBox.StandardButton.Save) is True
    assert kept.is_file() and window.document.state == state
    assert '"neg_euclidean"' in kept.read_text(encoding="utf-8")


@pytest.mark.parametrize("suffix", [".npz", ".safetensors"])
def test_a_dropped_capture_is_imported(qtbot, window, tmp_path, suffix: str) -> None:
    rng = np.random.default_rng(7)
    q, k = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))
    path = tmp_path / f"layer0{suffix}"
    if suffix == ".npz":
        np.savez(path, q=q, k=k)
    else:
        from safetensors.numpy import save_file

        save_file({"q": q.astype(np.float32), "k": k.astype(np.float32)}, str(path))
    assert _drop(qtbot, window, path) is True
    imported = window.document.state.imported
    assert window.document.state.world == "imported" and imported is not None
    np.testing.assert_allclose(imported.queries, q, rtol=1e-6)
    assert window.windowTitle() == (f"layer0{suffix} · head 0 (of 1, counted from 0)"
                                    " — Attention Lab[*]")
    assert window.isWindowModified()


def test_a_bad_capture_dropped_says_what_file_import_says(qtbot, window, tmp_path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, q=np.ones((3, 4)), k=np.ones((3, 5)))
    before = window.document.state
    assert _drop(qtbot, window, bad) is False
    box = window.files.message  # File → Import's own message
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert box.informativeText() == ("In bad.npz, k has width d = 5 but q has d = 4; the two "
                                     "must match.")
    assert window.document.state == before and window.document.undo_stack.count() == 0


def _refusals(tmp_path: Path) -> dict[str, tuple[list[Path | QUrl], str]]:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a scenario", encoding="utf-8")
    folder = tmp_path / "captures"
    folder.mkdir()
    (folder / "inside.npz").write_bytes(b"")
    scenario = tmp_path / "two.attnlab.json"
    scenario.write_text("{}", encoding="utf-8")
    return {
        "unsupported": ([notes], "notes.txt is neither a scenario"),
        "folder": ([folder], "captures is a folder"),
        "several": ([notes, scenario], "one file at a time (2 were dropped)"),
        "remote": ([QUrl("https://example.org/s.attnlab.json")],
                   "not https://example.org/s.attnlab.json"),
    }


@pytest.mark.parametrize("case", ["unsupported", "folder", "several", "remote"])
def test_anything_else_is_refused_with_a_message_and_changes_nothing(
        qtbot, window, tmp_path, case: str) -> None:
    targets, words = _refusals(tmp_path)[case]
    before, steps = window.document.state, window.document.undo_stack.count()
    assert _drop(qtbot, window, *targets) is False
    box = window.drops.message
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert box.text() == "This cannot be opened here, so nothing was changed."
    assert words in box.informativeText()
    assert window.document.state == before and window.document.undo_stack.count() == steps
    assert window.files.current_path is None


def test_a_drag_without_files_is_not_taken(window) -> None:
    mime = QMimeData()
    mime.setText("q·k")
    assert not _enter(window, mime)
    assert _enter(window, _mime([QUrl.fromLocalFile("/any/file.npz")]))
    assert window.acceptDrops()
