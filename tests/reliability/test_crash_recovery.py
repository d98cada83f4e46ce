"""Crash recovery through the real start-up path: edits survive kill -9, and a half-written
autosave is detected and the previous good one is used instead.

Each run is a subprocess that starts the app exactly as a user does (`app.main.main`), with a
small driver queued on the event loop that makes edits and reports on stdout once the autosave
holds them. The test then kills it with SIGKILL and starts it again.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.i18n import TABLES
from app.model.data import load_lesson_data
from app.model.scenario import loads
from app.model.view import initial_state
from app.state.autosave import autosave_paths

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL"),
]

REPO = Path(__file__).resolve().parents[2]
EN = TABLES["en"]
STARTUP_LIMIT_S = 90
"""Only a guard against a hung child; nothing is asserted about how long anything takes."""

DRIVER = r'''
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app.main import main
from app.model.scenario import dumps
from app.startup import make_application

STAGES = json.loads(sys.argv[1])


def say(*parts):
    print(*parts, flush=True)


def window():
    return next(w for w in QApplication.topLevelWidgets() if hasattr(w, "classroom"))


def drive():
    w = window()
    document = w.document
    say("STARTED", json.dumps({"status": w.statusBar().currentMessage(),
                               "state": dumps(document.state)}))
    pending = list(STAGES)

    def next_stage():
        if not pending:
            say("READY")
            return
        stage = pending.pop(0)
        for method, args in stage["edits"]:
            getattr(document, method)(*args)
        document.flush()
        wanted = dumps(document.state)

        def on_saved(path):
            with open(path, encoding="utf-8") as stream:
                if stream.read() != wanted:
                    return
            w.autosave.saved.disconnect(on_saved)
            say("SAVED", stage["name"], json.dumps(wanted))
            QTimer.singleShot(0, next_stage)

        w.autosave.saved.connect(on_saved)

    if STAGES:
        next_stage()
    else:
        QTimer.singleShot(0, QApplication.instance().quit)


make_application()
QTimer.singleShot(0, drive)
sys.exit(main(["--lang", "en"]))
'''

STAGE_A = {"name": "A", "edits": [["set_world", ["dialogue"]],
                                  ["set_vector", ["q", 0, [1.25, -3.5]]],
                                  ["set_scorer", ["cosine"]]]}
STAGE_B = {"name": "B", "edits": [["set_vector", ["k", 1, [-7.0, 0.5]]],
                                  ["set_scorer", ["neg_euclidean"]],
                                  ["select", [None, 2]]]}


class App:
    """One app process driven by DRIVER; lines it prints are read with a guard deadline."""

    def __init__(self, home: Path, tmp: Path, stages: list[dict]) -> None:
        script = tmp / "driver.py"
        script.write_text(DRIVER, encoding="utf-8")
        env = dict(os.environ, ATTENTION_LAB_HOME=str(home), QT_QPA_PLATFORM="offscreen",
                   PYTHONPATH=str(REPO))
        self.process = subprocess.Popen(
            [sys.executable, str(script), json.dumps(stages)], cwd=REPO, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)

    def read_until(self, word: str) -> str:
        """The rest of the first stdout line starting with `word`; fails if the app died."""
        deadline = time.monotonic() + STARTUP_LIMIT_S
        while time.monotonic() < deadline:
            if not self.selector.select(timeout=1.0):
                continue
            line = self.process.stdout.readline()
            if not line:
                break
            if line.startswith(word):
                return line.rstrip("\n")[len(word) + 1:]
        self.process.kill()
        raise AssertionError(f"app never printed {word}: {self.process.stderr.read()[-3000:]}")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        assert self.process.wait(timeout=STARTUP_LIMIT_S) == -signal.SIGKILL

    def finish(self) -> str:
        """Wait for a driver that quits by itself; its stderr, which must hold no traceback."""
        _, stderr = self.process.communicate(timeout=STARTUP_LIMIT_S)
        assert self.process.returncode == 0, stderr[-3000:]
        assert "Traceback" not in stderr
        return stderr


def _start(home: Path, tmp: Path, stages: list[dict]) -> App:
    return App(home, tmp, stages)


def _restart(home: Path, tmp: Path) -> dict:
    """Start again with no edits: what the window shows right after start-up."""
    app = _start(home, tmp, [])
    started = json.loads(app.read_until("STARTED"))
    app.finish()
    return started


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def _saved_states(app: App, names: list[str]) -> dict[str, str]:
    states = {}
    for name in names:
        saved_name, text = app.read_until("SAVED").split(" ", 1)
        assert saved_name == name
        states[name] = json.loads(text)
    return states


def test_edits_survive_kill_9(home: Path, tmp_path: Path) -> None:
    app = _start(home, tmp_path, [STAGE_A, STAGE_B])
    app.read_until("STARTED")
    states = _saved_states(app, ["A", "B"])
    app.read_until("READY")
    app.kill()
    started = _restart(home, tmp_path)
    assert started["state"] == states["B"]
    assert started["status"] == EN["classroom.restored"]
    lesson = initial_state(load_lesson_data())
    restored = loads(started["state"], lesson)
    assert restored.world == "dialogue" and restored.scorer == "neg_euclidean"
    assert list(restored.dialogue_q) == [1.25, -3.5]
    assert list(restored.dialogue_keys[1]) == [-7.0, 0.5]
    assert restored != lesson


def test_half_written_autosave_falls_back_to_the_previous_good_one(home: Path,
                                                                   tmp_path: Path) -> None:
    app = _start(home, tmp_path, [STAGE_A, STAGE_B])
    app.read_until("STARTED")
    states = _saved_states(app, ["A", "B"])
    app.read_until("READY")
    app.kill()
    autosave, backup = autosave_paths(home)
    text = autosave.read_bytes()
    assert json.loads(text.decode("utf-8")) == json.loads(states["B"])
    assert backup.read_text(encoding="utf-8") == states["A"]
    autosave.write_bytes(text[: len(text) // 2])  # the disk died half-way through a write
    started = _restart(home, tmp_path)
    assert started["state"] == states["A"], "the previous good autosave must be used"
    assert started["status"] == EN["classroom.restored_backup"]


def test_both_autosaves_damaged_starts_from_the_lesson_with_a_message(home: Path,
                                                                      tmp_path: Path) -> None:
    autosave, backup = autosave_paths(home)
    autosave.write_bytes(b'{"format": "attention-lab-scenario", "schema_ver')
    backup.write_bytes(b"\xff\xfe not even text")
    started = _restart(home, tmp_path)
    lesson = initial_state(load_lesson_data())
    assert loads(started["state"], lesson) == lesson
    prefix = EN["classroom.autosave_unreadable"].split("{")[0]
    assert started["status"].startswith(prefix), started["status"]
    assert autosave.name in started["status"], "the message must name the damaged file"
