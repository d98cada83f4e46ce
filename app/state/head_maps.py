"""Owns computing every head's attention map for the opened model's sentence, off the UI
thread: one forward pass, a layer at a time, so the overview can show its progress and stop
between layers. It has a runner of its own, so it never cancels the pass of a switch."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, Signal

from app.model.checkpoint import Checkpoint, CheckpointError, attention_maps
from app.state.background import BackgroundRunner


class HeadMaps(QObject):
    """`compute(checkpoint, text)`; `finished` carries one (heads, T, T) array per layer."""

    progressed = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = BackgroundRunner(self)
        self._runner.progressed.connect(self.progressed)
        self._runner.finished.connect(self.finished)
        self._runner.failed.connect(self.failed)

    def compute(self, checkpoint: Checkpoint, text: str) -> None:
        layers = checkpoint.config.n_layers

        def work(should_stop: Callable[[], bool], progress: Callable[[int, int], None]
                 ) -> list[np.ndarray] | None:
            maps: list[np.ndarray] = []
            try:
                for answer in checkpoint.every_layer(text):
                    if should_stop():
                        return None
                    maps.append(attention_maps(answer))
                    progress(len(maps), layers)
            except (CheckpointError, OSError) as error:
                raise ValueError(str(error)) from None
            return maps

        self._runner.start(work)

    def cancel(self) -> None:
        self._runner.cancel()

    def shutdown(self) -> None:
        self._runner.shutdown()
