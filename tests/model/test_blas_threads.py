"""A model's forward pass, and every background job, run NumPy's products on one BLAS
thread: the command line's pass and a pass the window starts on its worker. Each case runs
in a child process that starts with two BLAS threads, since the limit holds for the rest of
a process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QWEN3 = ROOT / "tests" / "data" / "checkpoints" / "qwen3-bf16"

RECORD = """
import numpy as np
from threadpoolctl import threadpool_info
from app.model.checkpoint import forward

def blas():
    return sorted({lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"})

seen = []
real_layer = forward._Llama.layer
def layer(self, *args, **kwargs):
    seen.append(blas())
    return real_layer(self, *args, **kwargs)
forward._Llama.layer = layer
print("before", blas())
"""

COMMAND_LINE = RECORD + """
from app.model.checkpoint import read_head
read_head(FOLDER, "注意力打分，the cat sat.")
print("during", sorted({n for threads in seen for n in threads}), len(seen))
print("after", blas())
"""

WINDOW_WORKER = RECORD + """
from PySide6.QtCore import QCoreApplication, QTimer
from app.model.checkpoint import open_checkpoint
from app.state.head_maps import HeadMaps
app = QCoreApplication([])
maps = HeadMaps()
maps.finished.connect(lambda _maps: app.quit())
maps.failed.connect(lambda message: (print("failed", message), app.quit()))
QTimer.singleShot(10000, app.quit)
maps.compute(open_checkpoint(FOLDER), "注意力打分，the cat sat.")
app.exec()
print("during", sorted({n for threads in seen for n in threads}), len(seen))
print("after", blas())
"""


def _run(script: str) -> dict[str, str]:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2", "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", script.replace("FOLDER", repr(str(QWEN3)))],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in done.stdout.splitlines()}


@pytest.mark.parametrize("script", [COMMAND_LINE, WINDOW_WORKER],
                         ids=["command line", "window's worker"])
def test_the_forward_pass_runs_on_one_blas_thread(script: str) -> None:
    lines = _run(script)
    if lines["before"] == "[]":
        pytest.skip("NumPy's BLAS is not one threadpoolctl can see")
    assert lines["before"] == "[2]"
    during, layers = lines["during"].split(" ")
    assert during == "[1]" and int(layers) > 0
    assert lines["after"] == "[1]"
