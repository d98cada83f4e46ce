"""Owns the benchmark's import rows: a captured q, k of T = 4096, d = 128 from File → Import to
its first picture on the heatmap (the target: under a second on a 2-core machine), imports
of 256 and 4,096 tokens with every dock on screen, the match table's rows included (the
target: any accepted size opens in under two seconds), and a drag step on an imported
T = 4096 capture, which must keep up with the lesson's own drag step."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
from PySide6.QtWidgets import QApplication

from app.model.capture import Capture, load_capture
from app.state.document import Document
from app.ui.main_window import MainWindow
from bench import Result
from bench.ui_latency import DRAG_EDIT, FrameClock, Heartbeat, drag_steps, run_loop, settle


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


IMPORT_TIMEOUT_MS = 60_000
LANDING_POLL_MS = 2


def import_landed(document: Document, capture: Capture) -> None:
    """Import `capture` and run the event loop (as the window would) until its view, computed
    off the UI thread, has landed as an undo step."""
    deadline = time.perf_counter() + IMPORT_TIMEOUT_MS / 1000.0
    document.import_capture(capture)
    while document.importing_tokens:
        if time.perf_counter() > deadline:
            raise RuntimeError("the import did not land within its timeout")
        run_loop(LANDING_POLL_MS)
    if document.state.imported is not capture:
        raise RuntimeError("the import failed")


FIRST_PICTURE = "import a capture → first picture on the heatmap"
EVERY_DOCK = "import a capture → every dock shown and painted"
IMPORT_EDIT = "edit a key of an imported capture → every visible panel repainted"
BEAT_MS = 20
"""The event loop runs this long around each import, so the heartbeat brackets it."""


def import_to_picture(window: MainWindow, T: int, d: int, runs: int,
                      name: str = FIRST_PICTURE, target_ms: float = 1000.0) -> Result:
    """Read the file, import it (one undo step, its view computed off the UI thread while
    the event loop runs), and paint the window: the time until the heatmap (and every other
    panel on screen) shows the capture. Each run is undone
    (untimed) before the next. Its group is start-up's: a first picture, not a frame of an
    edit in progress."""
    document = window.document
    heatmap = window.panels.get("heatmap")
    samples = []
    beat = Heartbeat()
    with tempfile.TemporaryDirectory() as folder:
        path = write_capture(Path(folder), T, d)
        for _ in range(runs):
            beat.start()
            run_loop(BEAT_MS)
            start = time.perf_counter()
            import_landed(document, load_capture(path))
            document.flush()
            if heatmap is not None:
                heatmap.repaint()
            QApplication.processEvents()
            samples.append((time.perf_counter() - start) * 1000.0)
            run_loop(BEAT_MS)
            beat.stop()
            document.undo_stack.undo()
            document.flush()
            QApplication.processEvents()
    return Result("startup", name, f"T={T}, d={d}", samples,
                  {"target_ms": target_ms, "max_ui_block_ms": beat.max_gap_s * 1000.0})


def import_edit_latency(window: MainWindow, T: int, d: int, steps: int) -> Result:
    """Drag steps on a key of an imported T×d capture, timed as the lesson's drag rows are
    (through the document, to every visible panel repainted), in the window's layout; the
    import is undone afterwards."""
    document = window.document
    with tempfile.TemporaryDirectory() as folder:
        capture = load_capture(write_capture(Path(folder), T, d))
    import_landed(document, capture)
    clock = FrameClock(window)
    settle(window)
    document.begin_drag()
    result = clock.measure(IMPORT_EDIT, f"T={T}, d={d}", drag_steps(window), steps,
                           drag=False, edit_kind=DRAG_EDIT)
    document.end_drag()
    document.undo_stack.undo()  # the drag
    document.undo_stack.undo()  # the import
    settle(window)
    clock.deleteLater()
    return result


def against_drag(edit: Result, drag: Result) -> Result:
    """The import's drag row, its p95 as a ratio to the lesson's drag step (median)."""
    edit.extra.update(drag_ms=drag.median_ms, ratio_to_drag=edit.p95_ms / drag.median_ms)
    return edit
