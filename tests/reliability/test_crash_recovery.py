"""Crash recovery through the real start-up path: edits survive kill -9, and a half-written
autosave is detected and the previous good one is used instead.

Each run is a subprocess that starts the app exactly as a user does (`app.main.main`), with a
small driver queued on the event loop that makes edits and reports on stdout once the autosave
holds them. The test then kills it with SIGKILL and starts it again.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from app.i18n import strings
from app.model.lesson.data import load_lesson_data
from app.model.lesson.scenes import load_scenes, scene_state
from app.model.scenario import loads
from app.model.view import initial_state
from app.state.autosave import autosave_paths

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL"),
]

REPO = Path(__file__).resolve().parents[2]
EN = strings("en")
STARTUP_LIMIT_S = 90
"""Only a guard against a hung child; nothing is asserted about how long anything takes."""
RUNNING: list[subprocess.Popen] = []
"""App processes started by the current test, killed at its end whatever happened."""

DRIVER = r'''
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app.main import main
from app.model.scenario import dumps
from app.startup import make_application
from app.ui import errors

STAGES = json.loads(sys.argv[1])


def say(*parts):
    print(*parts, flush=True)


def window():
    return next(w for w in QApplication.topLevelWidgets() if hasattr(w, "files"))


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
        if stage.get("crash_in_slot"):
            crash(w, stage, wanted)
            return

        def on_saved(path):
            with open(path, encoding="utf-8") as stream:
                if stream.read() != wanted:
                    return
            w.files.autosave.saved.disconnect(on_saved)
            say("SAVED", stage["name"], json.dumps(wanted))
            QTimer.singleShot(0, next_stage)

        w.files.autosave.saved.connect(on_saved)

    def crash(w, stage, wanted):
        """A bug in a slot, before the autosave's own timer: the error hook must save first."""
        def on_reported(message):
            with open(w.files.autosave.path, encoding="utf-8") as stream:
                on_disk = stream.read()
            say("REPORTED", stage["name"], json.dumps({
                "message": message, "autosave": on_disk, "wanted": wanted,
                "dialog": errors.installed().dialog.isVisible()}))
            QTimer.singleShot(0, next_stage)

        errors.installed().reported.connect(on_reported)

        def boom():
            raise RuntimeError("a bug in a slot")

        QTimer.singleShot(0, boom)

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
                   PYTHONPATH=os.pathsep.join(filter(None, [str(REPO),
                                                            os.environ.get("PYTHONPATH")])))
        self.stderr_path = tmp / f"stderr-{len(RUNNING)}.txt"
        with self.stderr_path.open("w") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, str(script), json.dumps(stages)], cwd=REPO, env=env,
                stdout=subprocess.PIPE, stderr=stderr, text=True)
        RUNNING.append(self.process)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")  # the app closed its output: it has exited

    def read_until(self, word: str) -> str:
        """The rest of the first stdout line starting with `word`; fails if the app died."""
        try:
            while line := self.lines.get(timeout=STARTUP_LIMIT_S):
                if line.startswith(word):
                    return line.rstrip("\n")[len(word) + 1:]
        except queue.Empty:
            pass
        self.process.kill()
        raise AssertionError(f"app never printed {word}: {self.stderr()[-3000:]}")

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        assert self.process.wait(timeout=STARTUP_LIMIT_S) == -signal.SIGKILL

    def finish(self) -> str:
        """Wait for a driver that quits by itself; its stderr, which must hold no traceback."""
        self.process.wait(timeout=STARTUP_LIMIT_S)
        stderr = self.stderr()
        assert self.process.returncode == 0, stderr[-3000:]
        assert "Traceback" not in stderr and "attention-lab: error" not in stderr, stderr
        return stderr


def _restart(home: Path, tmp: Path) -> dict:
    """Start again with no edits: what the window shows right after start-up."""
    app = App(home, tmp, [])
    started = json.loads(app.read_until("STARTED"))
    app.finish()
    return started


@pytest.fixture
def home(tmp_path: Path):
    """A fresh user-data folder; any app process a failed test left behind is killed."""
    folder = tmp_path / "home"
    folder.mkdir()
    yield folder
    while RUNNING:
        process = RUNNING.pop()
        if process.poll() is None:
            process.kill()
            process.wait()


def _saved_states(app: App, names: list[str]) -> dict[str, str]:
    states = {}
    for name in names:
        saved_name, text = app.read_until("SAVED").split(" ", 1)
        assert saved_name == name
        states[name] = json.loads(text)
    return states


def test_edits_survive_kill_9(home: Path, tmp_path: Path) -> None:
    app = App(home, tmp_path, [STAGE_A, STAGE_B])
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
    app = App(home, tmp_path, [STAGE_A, STAGE_B])
    app.read_until("STARTED")
    states = _saved_states(app, ["A", "B"])
    app.read_until("READY")
    app.kill()
    autosave, backup = autosave_paths(home)
    text = autosave.read_bytes()
    assert json.loads(text.decode("utf-8")) == json.loads(states["B"])
    assert backup.read_text(encoding="utf-8") == states["A"]
    damaged = text[: len(text) // 2]
    autosave.write_bytes(damaged)  # the disk died half-way through a write
    started = _restart(home, tmp_path)
    assert started["state"] == states["A"], "the previous good autosave must be used"
    assert started["status"].startswith(EN["classroom.restored_backup"])
    kept = list(home.glob("autosave.unreadable-*.attnlab.json"))
    assert [path.read_bytes() for path in kept] == [damaged], "the damaged file is kept aside"
    assert EN["classroom.kept_aside_status"].format(count=1) in started["status"]


def test_both_autosaves_damaged_starts_from_the_lesson_with_a_message(home: Path,
                                                                      tmp_path: Path) -> None:
    autosave, backup = autosave_paths(home)
    autosave.write_bytes(b'{"format": "attention-lab-scenario", "schema_ver')
    backup.write_bytes(b"\xff\xfe not even text")
    started = _restart(home, tmp_path)
    data = load_lesson_data()
    first_scene = scene_state(load_scenes(data=data).scenes[0], data)  # where a start begins
    assert loads(started["state"], initial_state(data)) == first_scene
    prefix = EN["classroom.autosave_unreadable"].split("{")[0]
    assert started["status"].startswith(prefix), started["status"]
    assert autosave.name in started["status"], "the message must name the damaged file"
    for path, damaged in ((autosave, b'{"format": "attention-lab-scenario", "schema_ver'),
                          (backup, b"\xff\xfe not even text")):
        stem = path.name[: -len(".attnlab.json")]
        kept = list(home.glob(f"{stem}.unreadable-*.attnlab.json"))
        assert [k.read_bytes() for k in kept] == [damaged], "kept aside, byte for byte"


def test_a_bug_in_a_slot_is_logged_and_the_autosave_written_first(home: Path,
                                                                   tmp_path: Path) -> None:
    stage = {"name": "C", "crash_in_slot": True,
             "edits": [["set_vector", ["k", 0, [9.5, -9.5, 0.25, 1.0]]],
                       ["set_scorer", ["additive"]]]}
    app = App(home, tmp_path, [stage])
    app.read_until("STARTED")
    name, text = app.read_until("REPORTED").split(" ", 1)
    report = json.loads(text)
    assert name == "C" and report["dialog"] is True
    assert report["autosave"] == report["wanted"], "the autosave must be flushed before the dialog"
    assert EN["reliability.saved"] in report["message"]
    assert "Traceback" not in report["message"] and "a bug in a slot" in report["message"]
    log = home / "logs" / "attention-lab.log"
    assert log.name in report["message"]
    assert "RuntimeError: a bug in a slot" in log.read_text(encoding="utf-8")
    app.read_until("READY")  # the app survived its own bug and kept running
    stderr = app.stderr()
    assert "Traceback" not in stderr and stderr.count("attention-lab: error:") == 1
    app.kill()
    started = _restart(home, tmp_path)
    assert started["state"] == report["wanted"]


def test_a_second_copy_on_the_same_folder_saves_to_its_own_file(home: Path,
                                                                tmp_path: Path) -> None:
    first = App(home, tmp_path, [STAGE_A])
    first.read_until("STARTED")
    states = _saved_states(first, ["A"])
    first.read_until("READY")  # still running: it holds the folder
    second = App(home, tmp_path, [STAGE_B])
    started = json.loads(second.read_until("STARTED"))
    copy_file = home / "autosave.copy-2.attnlab.json"
    assert EN["classroom.second_copy_status"].format(file=copy_file.name) in started["status"]
    data = load_lesson_data()
    first_scene = scene_state(load_scenes(data=data).scenes[0], data)  # where a start begins
    assert loads(started["state"], initial_state(data)) == first_scene, (
        "it must not take over the first's work")
    b_state = _saved_states(second, ["B"])["B"]
    second.read_until("READY")
    autosave = autosave_paths(home)[0]
    assert autosave.read_text(encoding="utf-8") == states["A"], "the first copy's file is safe"
    assert copy_file.read_text(encoding="utf-8") == b_state
    second.kill()
    first.kill()
    assert _restart(home, tmp_path)["state"] == states["A"], "after both, copy 1 comes back"
