"""pyqtgraph imported the app's way (`app.ui.pyqtgraph_import`) creates only the Qt classes
it reads, and its mirrors of QtCore, QtGui and QtWidgets answer every name as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
{first}
import pyqtgraph as pg
import PySide6.QtCore, PySide6.QtGui, PySide6.QtWidgets
modules = {{"QtCore": PySide6.QtCore, "QtGui": PySide6.QtGui, "QtWidgets": PySide6.QtWidgets}}
created = sum(len([n for n in m.__dict__ if not n.startswith("__")]) for m in modules.values())
listed = {{name: dir(m) for name, m in modules.items()}}
def named(obj):
    return f"{{getattr(obj, '__module__', type(obj).__module__)}}." + getattr(
        obj, "__qualname__", type(obj).__name__)
mirrors = {{name: {{n: named(getattr(getattr(pg.Qt, name), n)) for n in listed[name]
                   if not n.startswith("__")}} for name in modules}}
print(json.dumps({{"created": created, "listed": sum(map(len, listed.values())),
                   "mirrors": mirrors}}))
"""


def _probe(first: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(first=first)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_the_apps_import_of_pyqtgraph_creates_a_part_of_qt_and_mirrors_all_of_it() -> None:
    plain = _probe("")
    apps = _probe("import app.startup")  # the path every launch takes
    # the plain import created every class the modules list; the app's way, not half of them
    assert plain["created"] >= plain["listed"] - 15 * 3  # (the dunders dir() lists)
    assert apps["created"] < plain["created"] // 2
    assert apps["listed"] == plain["listed"]  # dir() of PySide6 is whole again afterwards
    # every name of the three modules reads, through pyqtgraph, the same object as before
    assert apps["mirrors"] == plain["mirrors"]
    assert len(apps["mirrors"]["QtWidgets"]) > 150
