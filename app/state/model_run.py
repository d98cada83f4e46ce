"""Owns the opened model: its checkpoint, the sentence, the layers already computed for it,
and the forward passes that compute more, off the UI thread (see `background`).

A pass runs a layer at a time, reports each one and stops between layers when cancelled or
replaced; its layers are kept, so another head of a computed layer opens at once. Each head
it opens goes to the document as one import (one undo step); `origin` tells which imports
came from a model, and from which layer and sentence. The checkpoint reader is imported when
a model is first opened, not by every start.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.model.capture import Capture
from app.state.background import BackgroundRunner
from app.state.document import Document

if TYPE_CHECKING:
    from app.model.checkpoint import Checkpoint, LayerQK


@dataclass(frozen=True)
class Origin:
    """Where an imported head came from: which model, sentence, layer and head."""

    model: str
    text: str
    layer: int
    layers: int
    head: int
    heads: int


@dataclass(frozen=True)
class _Opened:
    checkpoint: Checkpoint


@dataclass(frozen=True)
class _Passed:
    checkpoint: Checkpoint
    text: str
    layers: dict[int, LayerQK]
    layer: int
    head: int


def _refusals_as_failures(work: Callable[[], object]) -> object:
    """A refused folder, text or layer is a failure the runner reports, not a crash."""
    from app.model.checkpoint import CheckpointError

    try:
        return work()
    except (CheckpointError, OSError) as error:
        raise ValueError(str(error)) from None


class ModelRun(QObject):
    """The window's one opened model and the passes that read it."""

    opened = Signal()
    """A folder was read: `checkpoint` is the new model (no layer computed yet)."""
    progressed = Signal(int, int)
    """(layers done, layers needed) of the running pass."""
    busy_changed = Signal(bool)
    failed = Signal(str)
    """A folder, sentence, layer or head was refused (the model's one sentence); nothing
    changed."""
    shown = Signal()
    """A head was opened in the document (its import has landed)."""

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.checkpoint: Checkpoint | None = None
        self.text = ""
        self._layers: dict[int, LayerQK] = {}
        self._origins: dict[int, tuple[weakref.ref[Capture], Origin]] = {}
        """By the capture's id, while the capture lives (in the document or its history)."""
        self._busy = False
        self._runner = BackgroundRunner(self)
        self._runner.finished.connect(self._on_finished)
        self._runner.failed.connect(self._on_failed)
        self._runner.progressed.connect(self.progressed)
        self._showing: Capture | None = None
        """The head handed to the document, until its import lands (or fails)."""
        document.importing.connect(self._on_importing)

    @property
    def busy(self) -> bool:
        return self._busy

    @property
    def layers(self) -> int:
        return self.checkpoint.config.n_layers if self.checkpoint is not None else 0

    @property
    def heads(self) -> int:
        return self.checkpoint.config.n_heads if self.checkpoint is not None else 0

    def computed(self, layer: int) -> bool:
        return layer in self._layers

    def origin(self, capture: Capture | None) -> Origin | None:
        """The model head `capture` was opened from, or None for any other import."""
        found = self._origins.get(id(capture)) if capture is not None else None
        return found[1] if found is not None and found[0]() is capture else None

    def open_folder(self, folder: Path | str) -> None:
        """Read a model folder off the UI thread; `opened` or `failed` follows."""
        from app.model.checkpoint import open_checkpoint

        self._start(lambda _stop, _progress: _refusals_as_failures(
            lambda: _Opened(open_checkpoint(folder))))

    def show(self, text: str, layer: int, head: int) -> None:
        """Open head `head` of layer `layer` over `text`: at once when that layer is computed
        for this sentence, else after a pass (replacing any pass still running)."""
        checkpoint = self.checkpoint
        if checkpoint is None:
            return
        from app.model.checkpoint import CheckpointError, head_capture, index_in

        if text == self.text and layer in self._layers:
            self._runner.cancel()
            self._set_busy(False)
            try:
                self._import(self._layers[layer], head)
            except CheckpointError as error:
                self.failed.emit(str(error))
            return
        kept = dict(self._layers) if text == self.text else {}

        def work(should_stop: Callable[[], bool], progress: Callable[[int, int], None]
                 ) -> _Passed | None:
            index_in(layer, "layer", checkpoint.config.n_layers)
            index_in(head, "head", checkpoint.config.n_heads)
            layers = dict(kept)
            progress(0, layer + 1)
            for answer in checkpoint.every_layer(text):
                if should_stop():
                    return None
                layers[answer.layer] = answer
                progress(answer.layer + 1, layer + 1)
                if answer.layer == layer:
                    break
            head_capture(layers[layer], head)  # a damaged head fails here, off the UI thread
            return _Passed(checkpoint, text, layers, layer, head)

        self._start(lambda stop, progress: _refusals_as_failures(lambda: work(stop, progress)))

    def adopt(self, checkpoint: Checkpoint, text: str, answer: LayerQK, head: int) -> None:
        """Take a model read elsewhere (the command line's pass) and open its head."""
        self._take(checkpoint, text, {answer.layer: answer})
        self._import(answer, head)

    def _take(self, checkpoint: Checkpoint, text: str, layers: dict[int, LayerQK]) -> None:
        """A new model: heads of the one before stay in the history as plain imports."""
        self.checkpoint, self.text, self._layers = checkpoint, text, layers
        self._origins.clear()

    def cancel(self) -> None:
        """Stop the running pass or read; what is on screen stays."""
        self._runner.cancel()
        self._set_busy(False)

    def shutdown(self) -> None:
        self._runner.shutdown()

    def _start(self, work: Callable[[Callable[[], bool], Callable[[int, int], None]], object]
               ) -> None:
        self._set_busy(True)
        self._runner.start(work)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)

    def _on_finished(self, result: object) -> None:
        self._set_busy(False)
        if isinstance(result, _Opened):
            self._take(result.checkpoint, "", {})
            self.opened.emit()
        elif isinstance(result, _Passed) and result.checkpoint is self.checkpoint:
            self.text, self._layers = result.text, result.layers
            self._import(result.layers[result.layer], result.head)

    def _on_failed(self, message: str) -> None:
        self._set_busy(False)
        self.failed.emit(message)

    def _import(self, answer: LayerQK, head: int) -> None:
        from app.model.checkpoint import head_capture

        capture = head_capture(answer, head)
        key, origins = id(capture), self._origins
        self._origins[key] = (weakref.ref(capture, lambda _gone: origins.pop(key, None)), Origin(
            answer.model, self.text, answer.layer, self.layers, head, capture.heads))
        self._showing = capture
        self.document.import_capture(capture)

    def _on_importing(self, tokens: int) -> None:
        if tokens or self._showing is None:
            return
        showing, self._showing = self._showing, None
        if self.document.state.imported is showing:
            self.shown.emit()
