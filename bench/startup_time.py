"""Owns the start-up timing: process start to the first painted main window, in a subprocess.

The child is `python -m bench.first_paint`: the real command line and start-up
(`app.main.main`), handed `exit_after_first_paint`, which prints a CLOCK_MONOTONIC timestamp
(shared by all processes on the machine) once the window's first paint pass has finished and
quits. The app itself knows nothing of the benchmark. The parent reads the clock just
before it spawns the child, so the figure includes interpreter start, imports, data loading,
building the panels and painting. PYTHONDONTWRITEBYTECODE is dropped for the child, so after
the unrecorded first launch the app's modules load from cached bytecode, as for a user.

Each launch of the app is followed by one of `bench.bare_window`, a window of the same
libraries with nothing of the app: its median is the start-up's reference on this machine.
Then one of `bench.first_screen_window`, the same libraries building and painting the first
screen's kind of content (a docked plot and a page of text): reported beside the reference,
it shows how much of the app's start-up any app of these libraries would spend on that screen.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from bench import Result

MARK = "attention-lab-first-paint"
CHILD_TIMEOUT_S = 60.0
APP_CHILD = (sys.executable, "-m", "bench.first_paint")
"""The app, started as its command line starts it, that reports its first paint."""
BARE_CHILD = (sys.executable, "-m", "bench.bare_window")
"""The start-up's reference: a window of the app's libraries, reporting its first paint."""
SCREEN_CHILD = (sys.executable, "-m", "bench.first_screen_window")
"""The first screen's kind of content from the same libraries: the least such a screen costs."""
CHECKOUT = Path(__file__).resolve().parents[1]
"""The checkout that holds `bench` and `app`: the child starts there, so `-m bench.…` and the
app it imports are this checkout's."""


class _FirstPaint(QObject):
    """Waits for the window's first paint event, then reports once that paint has finished."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._seen = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self._seen:
            self._seen = True
            # A zero timer runs after the whole paint pass (children included) has returned.
            QTimer.singleShot(0, self._report)
        return False

    def _report(self) -> None:
        print(f"{MARK} {time.monotonic():.6f}", flush=True)
        QApplication.quit()


def exit_after_first_paint(window: QWidget) -> None:
    """Start-up hook: print when `window` has first been painted, then quit the event loop."""
    window.installEventFilter(_FirstPaint(window))


def _parse(stdout: str) -> float:
    for line in stdout.splitlines():
        if line.startswith(MARK):
            return float(line.split()[1])
    raise RuntimeError(f"the child printed no {MARK!r} line:\n{stdout}")


def launch_once(command: Sequence[str] | None = None) -> float:
    """Milliseconds from spawning the app (or `command`) to its first painted window.

    The child never outlives this call: on a timeout, Ctrl+C or SIGTERM (which `run_bench`
    turns into SystemExit) it is killed and reaped before the exception goes on.
    """
    with tempfile.TemporaryDirectory(prefix="attention-lab-bench-") as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ATTENTION_LAB_HOME=home)
        # As on a user's machine, the app's bytecode is cached after the first launch.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        argv = list(APP_CHILD if command is None else command)
        start = time.monotonic()
        child = subprocess.Popen(argv, env=env, cwd=CHECKOUT, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        try:
            stdout, stderr = child.communicate(timeout=CHILD_TIMEOUT_S)
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
        if child.returncode != 0:
            raise RuntimeError(f"the app exited with {child.returncode}:\n{stderr}")
        return (_parse(stdout) - start) * 1000.0


def measure_startup(runs: int, warmup: bool = True) -> list[Result]:
    """Several launches of the app, each followed by one of a bare window of its libraries
    (`bare_window`), after an unrecorded pair that may still write bytecode caches. The
    app's row carries the bare window's median as its reference: start-up figures from two
    machines compare as ratios to their references, not as seconds."""
    if warmup:
        launch_once()
        launch_once(BARE_CHILD)
        launch_once(SCREEN_CHILD)
    samples, bare, screen = [], [], []
    for _ in range(runs):
        samples.append(launch_once())
        bare.append(launch_once(BARE_CHILD))
        screen.append(launch_once(SCREEN_CHILD))
    bare_ms = statistics.median(bare)
    app_row = Result("startup", "process start → first painted window", "the app", samples,
                     {"reference_ms": bare_ms,
                      "ratio_to_reference": statistics.median(samples) / bare_ms})
    return [app_row, Result("startup_reference", "process start → first painted bare window "
                            "(NumPy, Qt and pyqtgraph, nothing of the app)", "the libraries",
                            bare),
            Result("startup_screen", "process start → first painted plot and text docks "
                   "(the same libraries, nothing of the app)", "the libraries", screen,
                   {"reference_ms": bare_ms,
                    "ratio_to_reference": statistics.median(screen) / bare_ms,
                    "app_ratio": statistics.median(samples) / statistics.median(screen)})]
