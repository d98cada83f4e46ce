"""File → Open model folder… and a dropped model folder: the folder is read and the forward
pass runs on a real worker thread, the dialog asks for the sentence, layer and head, and the
head opens as the imported world; Cancel and refusals change nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QMessageBox, QWidget

from app.model.checkpoint import open_checkpoint
from app.ui.actions import models as models_module
from tests.ui.dropping import drop_file

CHECKPOINTS = Path(__file__).resolve().parents[1] / "data" / "checkpoints"
SENTENCE = "The cat sat on the mat."


def _pick_folder(monkeypatch, folder: Path) -> None:
    monkeypatch.setattr(models_module.QFileDialog, "getExistingDirectory",
                        lambda *_args, **_kw: str(folder))


def _wait_for_dialog(qtbot, window):
    qtbot.waitUntil(lambda: window.models.dialog is not None, timeout=10000)
    dialog = window.models.dialog
    assert dialog.isVisible()
    return dialog


def test_the_menu_opens_the_chosen_head_of_a_real_model(qtbot, window, monkeypatch) -> None:
    folder = CHECKPOINTS / "qwen2-f32"
    _pick_folder(monkeypatch, folder)
    window.actions["open_model"].trigger()
    dialog = _wait_for_dialog(qtbot, window)
    layers = open_checkpoint(folder).config.n_layers
    assert dialog.layer.value() == layers - 1 and dialog.head.value() == 0  # the defaults
    dialog.text.setText(SENTENCE)
    dialog.layer.setValue(0)
    dialog.head.setValue(1)
    with qtbot.waitSignal(window.models.run.shown, timeout=10000):
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    window.document.flush()
    state = window.document.state
    assert state.world == "imported" and state.scorer == "scaled_dot"
    answer = open_checkpoint(folder).queries_keys(SENTENCE, 0)
    np.testing.assert_array_equal(state.imported.queries, answer.q[1])
    np.testing.assert_array_equal(state.imported.keys, answer.k[1])
    assert state.imported.key_names == answer.tokens and state.imported.source == "qwen2-f32"
    assert not window.findChild(QWidget, "model_progress").isVisible()


def test_the_dialog_will_not_run_an_empty_sentence(qtbot, window, monkeypatch) -> None:
    _pick_folder(monkeypatch, CHECKPOINTS / "llama-f32")
    window.actions["open_model"].trigger()
    dialog = _wait_for_dialog(qtbot, window)
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled()
    dialog.text.setText("  ")
    assert not ok.isEnabled()


def test_a_dropped_model_folder_asks_for_the_sentence(qtbot, window) -> None:
    assert drop_file(qtbot, window, CHECKPOINTS / "gpt2-f32") is True
    dialog = _wait_for_dialog(qtbot, window)
    assert any("gpt2-f32" in label.text() for label in dialog.findChildren(QLabel))
    assert dialog.layer.maximum() == open_checkpoint(CHECKPOINTS / "gpt2-f32").config.n_layers - 1


@pytest.mark.parametrize(("breaks", "text", "words"), [
    (lambda f: (f / "config.json").unlink(), SENTENCE, "has no config.json"),
    (None, "cat " * 600, "at most 512 are scored"),
])
def test_a_refusal_is_a_message_and_changes_nothing(qtbot, window, tmp_path, breaks, text,
                                                    words) -> None:
    folder = shutil.copytree(CHECKPOINTS / "llama-f32", tmp_path / "model")
    before, steps = window.document.state, window.document.undo_stack.count()
    run = window.models.run
    if breaks is not None:
        breaks(folder)
        with qtbot.waitSignal(run.failed, timeout=10000):
            window.models.open_folder(folder)
    else:
        with qtbot.waitSignal(run.opened, timeout=10000):
            run.open_folder(folder)
        with qtbot.waitSignal(run.failed, timeout=10000):
            run.show(text, 0, 0)
    box = window.models.message
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert box.text() == "The model cannot be shown; nothing on screen changed."
    assert words in box.informativeText()
    window.document.flush()
    assert window.document.state == before and window.document.undo_stack.count() == steps
    assert not run.busy


def test_cancel_stops_the_pass_and_changes_nothing(qtbot, window) -> None:
    run = window.models.run
    with qtbot.waitSignal(run.opened, timeout=10000):
        run.open_folder(CHECKPOINTS / "llama-f32")
    progress = window.findChild(QWidget, "model_progress")
    steps = window.document.undo_stack.count()
    shown = []
    run.shown.connect(lambda: shown.append(True))
    run.show(SENTENCE, 1, 0)
    assert run.busy and progress.isVisible()
    progress.cancel.click()
    assert not run.busy and not progress.isVisible()
    run.shutdown()  # wait for the worker: what it still reports must be dropped
    QApplication.processEvents()
    assert shown == [] and window.document.undo_stack.count() == steps
    assert window.document.state.world != "imported"
