"""The command line: bad arguments and bad scenario files are one clear line and exit code 2,
--screenshot renders headless (in-process, and once as a real subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.main import main
from app.model.data import load_lesson_data
from app.model.scenario import dumps, write_scenario
from app.model.view import initial_state
from app.ui import errors as error_hook
from app.ui.main_window import MainWindow
from app.ui.presentation import Presentation, restore_base_style

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _clean_up_windows(qapp):
    """main() leaves no window behind; put the excepthook back."""
    before = {id(w) for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)}
    yield
    after = {id(w) for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)}
    assert after <= before, "main() left a window alive"
    hook = error_hook.installed()
    if hook is not None:
        hook.uninstall()
    restore_base_style()


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("attention-lab: error: ")
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--lang", "fr"], "invalid choice"),
        (["--size", "wide", "--screenshot", "x.png"], "1280x720"),
        (["--size", "10x10", "--screenshot", "x.png"], "outside"),
        (["--panel", "heatmap"], "only works with --screenshot"),
        (["--screenshot", "x.jpg"], ".png or .svg"),
        (["--nonsense"], "unrecognized"),
        (["--scenario"], "expected one argument"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(argv)
    assert leaving.value.code == 2
    assert words in one_error_line(capsys)


def test_invalid_scenario_names_field_and_exits_2(capsys, tmp_path) -> None:
    doc = json.loads(dumps(initial_state(load_lesson_data())))
    doc["selection"]["key"] = 99
    bad = tmp_path / "bad.attnlab.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "never.png"
    assert main(["--scenario", str(bad), "--screenshot", str(out)]) == 2
    line = one_error_line(capsys)
    assert "bad.attnlab.json: selection.key: must be from 0 to 4, found 99" in line
    assert not out.exists()


@pytest.mark.parametrize("name", ["missing.attnlab.json", "folder"])
def test_missing_or_folder_scenario_exits_2(capsys, tmp_path, name: str) -> None:
    (tmp_path / "folder").mkdir()
    assert main(["--scenario", str(tmp_path / name), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert name in one_error_line(capsys)


def test_unknown_panel_and_unwritable_screenshot_exit_2(capsys, tmp_path) -> None:
    assert main(["--screenshot", str(tmp_path / "x.png"), "--panel", "nope"]) == 2
    assert "no panel 'nope'" in one_error_line(capsys)
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["--screenshot", str(blocker / "x.png")]) == 2
    assert "cannot write" in one_error_line(capsys)


def test_screenshot_of_a_scenario_in_presentation_mode(capsys, tmp_path, monkeypatch) -> None:
    presented: list[bool] = []
    real = Presentation.set_presenting
    monkeypatch.setattr(Presentation, "set_presenting",
                        lambda self, on: (presented.append(on), real(self, on)))
    state = initial_state(load_lesson_data())
    scenario = tmp_path / "s.attnlab.json"
    write_scenario(state, scenario)
    out = tmp_path / "shot.png"
    code = main(["--lang", "en", "--present", "--scenario", str(scenario),
                 "--screenshot", str(out), "--size", "1024x600"])
    assert code == 0, capsys.readouterr().err
    image = QImage(str(out))
    assert image.width() == 1024 and image.height() >= 600
    assert presented == [True]


def test_screenshot_subprocess_renders_chinese_headless(tmp_path) -> None:
    out = tmp_path / "zh.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ATTENTION_LAB_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--lang", "zh", "--screenshot", str(out),
         "--size", "1800x1000"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1800, 1000)
    assert not (tmp_path / "autosave.attnlab.json").exists(), "a screenshot is not a session"
