"""Start-up imports only what the first screen needs: the class poll's server, its QR
codes and the web libraries they bring are loaded when a poll is first opened."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from app.bench.startup_time import exit_after_first_paint
from app.main import main
main(["--lang", "en"], on_window=exit_after_first_paint)
print(json.dumps(sorted(sys.modules)))
"""

NOT_ON_THE_FIRST_SCREEN = ("segno", "aiohttp", "ssl", "http.client", "email", "app.poll.server")


def test_the_first_painted_window_has_not_imported_the_polls_libraries() -> None:
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    modules = set(json.loads(proc.stdout.splitlines()[-1]))
    assert "pyqtgraph" in modules and "app.ui.main_window" in modules  # it did start
    assert sorted(modules & set(NOT_ON_THE_FIRST_SCREEN)) == []
