"""A window on screens of given sizes. Qt's offscreen platform reads its screens from a file
when the application starts (without one it has a single 800×800 screen), so such a window
runs in a child process, which prints what it saw as one line: RESULT and JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def screen(name: str, width: int, height: int, x: int = 0) -> dict:
    """One screen of the offscreen platform's file, at 96 dpi."""
    return {"name": name, "x": x, "y": 0, "width": width, "height": height,
            "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}


def run_on_screens(tmp_path: Path, screens: list[dict], child: str, *args: str,
                   timeout: int = 120) -> object:
    """Run `child` (Python source) with `args` on `screens`, with its own settings folder,
    and return what its last RESULT line holds."""
    config = tmp_path / "screens.json"
    config.write_text(json.dumps({"screens": screens}), encoding="utf-8")
    helpers = os.pathsep.join(filter(None, (str(Path(__file__).parent),
                                            os.environ.get("PYTHONPATH"))))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}",
               ATTENTION_LAB_HOME=str(tmp_path / "home"), PYTHONPATH=helpers)
    done = subprocess.run([sys.executable, "-c", child, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    return json.loads(lines[-1].removeprefix("RESULT "))


WINDOW_MANAGER = 62
"""Pixels of a laptop screen's height a window manager's panel and title bar take."""


def on_laptop(tmp_path: Path, size: tuple[int, int], child: str) -> object:
    """Run `child` on one laptop screen of `size`, its window as large as a window manager
    leaves it (argv: width, height, a home folder), and return what it printed."""
    return run_on_screens(tmp_path, [screen("laptop", *size)], child, str(size[0]),
                          str(size[1] - WINDOW_MANAGER), str(tmp_path / "home"), timeout=300)
