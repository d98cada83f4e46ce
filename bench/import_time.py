"""Owns the benchmark's import rows: a captured q, k of T = 4096, d = 128 from File → Import to
its first picture on the heatmap (the target: under a second on a 2-core machine), and
imports of 256 and 4,096 tokens with every dock on screen, the match table's rows included
(the target: any accepted size opens in under two seconds)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
from PySide6.QtWidgets import QApplication

from app.model.capture import load_capture
from app.ui.main_window import MainWindow
from bench import Result


def write_capture(folder: Path, T: int, d: int, seed: int = 0) -> Path:
    """A seeded float32 capture as a model's hook would save it (safetensors, token names)."""
    import json

    from safetensors.numpy import save_file

    rng = np.random.default_rng(seed)
    path = folder / f"capture-{T}x{d}.safetensors"
    save_file({"q": rng.standard_normal((T, d), dtype=np.float32),
               "k": rng.standard_normal((T, d), dtype=np.float32)}, str(path),
              metadata={"tokens": json.dumps([f"t{i}" for i in range(T)])})
    return path


FIRST_PICTURE = "import a capture → first picture on the heatmap"
EVERY_DOCK = "import a capture → every dock shown and painted"


def import_to_picture(window: MainWindow, T: int, d: int, runs: int,
                      name: str = FIRST_PICTURE, target_ms: float = 1000.0) -> Result:
    """Read the file, import it (one undo step), recompute, and paint the window: the time
    until the heatmap (and every other panel on screen) shows the capture. Each run is undone
    (untimed) before the next. Its group is start-up's: a first picture, not a frame of an
    edit in progress."""
    document = window.document
    heatmap = window.panels.get("heatmap")
    samples = []
    with tempfile.TemporaryDirectory() as folder:
        path = write_capture(Path(folder), T, d)
        for _ in range(runs):
            start = time.perf_counter()
            document.import_capture(load_capture(path))
            document.flush()
            if heatmap is not None:
                heatmap.repaint()
            QApplication.processEvents()
            samples.append((time.perf_counter() - start) * 1000.0)
            document.undo_stack.undo()
            document.flush()
            QApplication.processEvents()
    return Result("startup", name, f"T={T}, d={d}", samples, {"target_ms": target_ms})
