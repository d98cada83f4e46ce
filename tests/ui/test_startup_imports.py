"""What a fresh start imports: only what the first screen needs (the class poll's server, its
QR codes and the web libraries they bring wait for a poll, a model's reader and the dialogs
for their first use; a dock behind a tab waits to import its panel), and pyqtgraph the app's
way (`app.ui.pyqtgraph_import`), which creates only the Qt classes it reads while its mirrors
of QtCore, QtGui and QtWidgets answer every name as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _probe(code: str) -> object:
    """What `code`, run in a fresh interpreter, prints as JSON on its last line."""
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


FIRST_PAINT = """
import json, sys
from PySide6.QtCore import QEvent, QObject
from bench.startup_time import exit_after_first_paint
from app.main import main
painted = []
class Watch(QObject):
    def eventFilter(self, window, event):
        if event.type() == QEvent.Type.Paint and not painted:
            painted.append(sorted(sys.modules))
        return False
def on_window(window):
    exit_after_first_paint(window)
    window.installEventFilter(Watch(window))
main(["--lang", "en"], on_window=on_window)
print(json.dumps(painted[0]))
"""

NOT_ON_THE_FIRST_SCREEN = ("segno", "aiohttp", "ssl", "http.client", "email", "app.poll.server",
                           "polib", "tokenizers", "safetensors", "app.model.checkpoint",
                           "app.ui.export", "app.ui.head_overview", "app.ui.widgets.model_dialog",
                           "app.ui.widgets.answer_history", "app.ui.widgets.shortcuts_dialog",
                           "PySide6.QtNetwork", "hashlib", "secrets")
"""The poll's server, QR codes, room code and the network addresses it lists wait for a poll
or the first paint; polib for a catalogue changed since its
parsed form was kept; the checkpoint reader and its tokenizer for a model; safetensors for an
import; the exporter and the dialogs for their first use."""
FIRST_SCREENS_DOCKS = ("playground", "guide")
"""Scene 1: the plane and the lesson's guide; every other dock waits behind a tab."""


def test_the_first_painted_window_has_imported_only_what_it_shows() -> None:
    modules = set(_probe(FIRST_PAINT))
    assert "pyqtgraph" in modules and "app.ui.main_window" in modules  # it did start
    assert sorted(modules & set(NOT_ON_THE_FIRST_SCREEN)) == []
    from app.ui.panels.registry import panel_specs

    panels = {spec.name for spec in panel_specs()}
    imported = {name for name in panels if f"app.ui.panels.{name}.panel" in modules}
    assert panels > set(FIRST_SCREENS_DOCKS) and imported == set(FIRST_SCREENS_DOCKS)


COLLECTOR = """
import gc, json
from bench.startup_time import exit_after_first_paint
from app.main import main
main(["--lang", "en"], on_window=exit_after_first_paint)
print(json.dumps({"collecting": gc.isenabled(), "frozen": gc.get_freeze_count()}))
"""


def test_the_start_pauses_the_garbage_collector_only_for_its_imports() -> None:
    """The imports run with the cyclic collector paused and their objects are frozen out of
    later collections; the window runs with the collector on."""
    found = _probe(COLLECTOR)
    assert found["collecting"] is True
    assert found["frozen"] > 50_000  # the objects of NumPy, Qt, pyqtgraph and the app


MIRRORS = """
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


def test_the_apps_import_of_pyqtgraph_creates_a_part_of_qt_and_mirrors_all_of_it() -> None:
    plain = _probe(MIRRORS.format(first=""))
    apps = _probe(MIRRORS.format(first="import app.startup"))  # the path every launch takes
    # the plain import created every class the modules list; the app's way, not half of them
    assert plain["created"] >= plain["listed"] - 15 * 3  # (the dunders dir() lists)
    assert apps["created"] < plain["created"] // 2
    assert apps["listed"] == plain["listed"]  # dir() of PySide6 is whole again afterwards
    # every name of the three modules reads, through pyqtgraph, the same object as before
    assert apps["mirrors"] == plain["mirrors"]
    assert len(apps["mirrors"]["QtWidgets"]) > 150


ORDER = """
import json, sys
from app.main import _import_startup
_import_startup()
modules = list(sys.modules)
print(json.dumps(modules.index("numpy") < modules.index("PySide6")))
"""


def test_the_start_imports_numpy_before_qt() -> None:
    """PySide6 reads the source of each module imported after it (to see whether it uses
    PySide6); NumPy's modules, imported first, are never read."""
    assert _probe(ORDER) is True
