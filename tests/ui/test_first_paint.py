"""The start's first paint comes before the work the first screen does not show: the
autosave's probe of the folder and its first write wait for it (an edit made before then is
saved by that first write), and so does View → Poll network, while a window built for
anything else has it at once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PySide6.QtWidgets import QMenu, QWidget

from app.startup import build_window, make_application
from app.ui.first_paint import after_first_paint

ROOT = Path(__file__).resolve().parents[2]

FIRST_PAINT_THEN_EDIT = """
import json, os, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMenu
from app.main import main

synced = []
real_fsync = os.fsync
def fsync(fd):
    synced.append(fd)
    real_fsync(fd)
os.fsync = fsync
found = {}

class Watch(QObject):
    def eventFilter(self, window, event):
        if event.type() == QEvent.Type.Paint and "at_paint" not in found:
            found["at_paint"] = {"saves": window.files.autosave.save_count,
                                 "synced": len(synced),
                                 "poll_network": "poll_on_lan" in window.actions}
            QTimer.singleShot(0, lambda: edit(window))  # before the autosave's first write
        return False

def edit(window):
    found["edited_before_first_write"] = len(synced) == 0
    world = window.document.state.world
    found["world"] = "dialogue" if world != "dialogue" else "teaching"
    window.document.set_world(found["world"])
    wait(window)

def wait(window):
    saver = window.files.autosave
    if saver is not None and saver.path.exists() and not saver.pending:
        found["saved"] = json.loads(saver.path.read_text(encoding="utf-8"))["world"]
        found["poll_network"] = [action.objectName() for action in window.findChild(
            QMenu, "menu_view.poll_network").actions()]
        QApplication.quit()
    else:
        QTimer.singleShot(20, lambda: wait(window))

def on_window(window):
    window.installEventFilter(Watch(window))
    QTimer.singleShot(30_000, QApplication.quit)

main(["--lang", "en"], on_window=on_window)
print(json.dumps(found))
"""


def test_the_autosave_first_writes_after_the_first_paint_and_saves_an_edit_made_before(
        tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("ATTENTION_LAB_HOME", str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", FIRST_PAINT_THEN_EDIT], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout.splitlines()[-1])
    assert found["at_paint"] == {"saves": 0, "synced": 0, "poll_network": False}
    assert found["edited_before_first_write"] is True
    assert found["saved"] == found["world"]
    network = found["poll_network"]  # made after the paint, in its menu, in order
    assert network[0] == "action_poll_on_lan" and network[-1] == "action_poll_on_every"


def test_work_after_the_first_paint_runs_once_the_window_is_painted(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    runs: list[bool] = []
    after_first_paint(window, lambda: runs.append(window.isVisible()))
    qtbot.wait(10)
    assert runs == []
    window.show()
    qtbot.waitUntil(lambda: runs == [True])
    window.update()
    qtbot.wait(50)
    assert runs == [True]


def test_work_after_the_first_paint_still_runs_for_a_window_never_painted(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    runs: list[bool] = []
    after_first_paint(window, lambda: runs.append(window.isVisible()))
    qtbot.waitUntil(lambda: runs == [False], timeout=5000)


def test_a_window_built_outside_a_start_is_whole_at_once(qtbot) -> None:
    make_application()
    window = build_window("en")
    try:
        menu = window.findChild(QMenu, "menu_view.poll_network")
        names = [action.objectName() for action in menu.actions()]
        assert names[0] == "action_poll_on_lan" and names[-1] == "action_poll_on_every"
        assert menu.isEnabled()
        assert window.actions["poll_on_every"].shortcut().toString() == "Ctrl+Alt+Shift+9"
    finally:
        window.dispose()
