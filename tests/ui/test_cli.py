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
from PySide6.QtWidgets import QApplication, QLabel

from app.main import main
from app.model.lesson.data import load_lesson_data
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


@pytest.mark.parametrize("scene", [1, 6])
def test_screenshot_of_a_scene_on_the_stage(capsys, tmp_path, scene: int) -> None:
    """The stage fits its panels to the window: a screenshot shows the window before the
    scene opens (a hidden one offered its panels no room, and the playground divided by it)."""
    out = tmp_path / "stage.png"
    code = main(["--lang", "zh", "--scene", str(scene), "--present", "--size", "1024x768",
                 "--screenshot", str(out)])
    assert code == 0, capsys.readouterr().err
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1024, 768)


def test_screenshot_subprocess_renders_chinese_headless(tmp_path) -> None:
    out = tmp_path / "zh.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ATTENTION_LAB_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--lang", "zh", "--screenshot", str(out),
         "--size", "1800x1000"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "propagateSizeHints" not in done.stderr, "known platform noise reached the terminal"
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1800, 1000)
    assert not (tmp_path / "autosave.attnlab.json").exists(), "a screenshot is not a session"


# ---- user folder, checks before any window, platform noise, xcb ----


@pytest.fixture
def home_is_a_file(tmp_path, monkeypatch) -> Path:
    """ATTENTION_LAB_HOME names a file: the user folder cannot exist."""
    blocker = tmp_path / "home-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("ATTENTION_LAB_HOME", str(blocker))
    return blocker


def test_home_that_is_a_file_stops_a_screenshot_with_one_line(capsys, tmp_path,
                                                              home_is_a_file) -> None:
    out = tmp_path / "shot.png"
    assert main(["--screenshot", str(out)]) == 2
    line = one_error_line(capsys)
    assert str(home_is_a_file) in line and "is not a folder" in line
    assert not out.exists()


def test_home_that_is_a_file_starts_the_window_with_autosave_off_and_a_note(
        qtbot, capsys, home_is_a_file) -> None:
    from app.paths import user_folder_problem
    from app.startup import build_window, make_application, open_session

    make_application()
    problem = user_folder_problem()
    assert problem is not None and str(home_is_a_file) in problem
    window = build_window("en")
    try:
        open_session(window, build_parser_args([]), problem)
        window.show()
        qtbot.waitExposed(window)
        note = window.statusBar().findChild(QLabel, "no_user_folder")
        assert note is not None and note.isVisible()
        assert "Autosave is off" in note.text() and str(home_is_a_file) in note.text()
        assert window.files.autosave is None
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "autosave is off" in err
        with qtbot.waitSignal(window.document.changed, timeout=3000):
            window.document.set_world("dialogue" if window.document.state.world != "dialogue"
                                      else "teaching")
        assert home_is_a_file.read_text(encoding="utf-8") == "not a folder"
    finally:
        window.dispose()


def build_parser_args(argv: list[str]):
    from app.main import build_parser

    return build_parser().parse_args(argv)


def test_a_bad_scenario_is_refused_before_any_window_is_built(capsys, tmp_path,
                                                              monkeypatch) -> None:
    import app.startup as startup

    def never(*_args, **_kwargs):
        raise AssertionError("a window was built for a scenario that was never going to open")

    monkeypatch.setattr(startup, "MainWindow", never)
    bad = tmp_path / "bad.attnlab.json"
    bad.write_text("{}", encoding="utf-8")
    assert main(["--scenario", str(bad)]) == 2
    assert "bad.attnlab.json" in one_error_line(capsys)


def test_a_bad_scenario_gives_exactly_one_line_in_a_real_process(tmp_path) -> None:
    bad = tmp_path / "bad.attnlab.json"
    bad.write_text('{"format": "attention-lab-scenario"}', encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ATTENTION_LAB_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--scenario", str(bad), "--screenshot",
         str(tmp_path / "never.png")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("attention-lab: error: bad.attnlab.json")


def test_known_platform_noise_is_dropped_and_everything_else_passed_on(monkeypatch) -> None:
    from PySide6.QtCore import QMessageLogContext, QtMsgType

    import app.startup as startup

    seen: list[str] = []
    monkeypatch.setattr(startup, "_previous_handler",
                        lambda _kind, _context, message: seen.append(message))
    context = QMessageLogContext()
    startup._quiet_platform_noise(QtMsgType.QtWarningMsg, context,
                                  "This plugin does not support propagateSizeHints()")
    startup._quiet_platform_noise(QtMsgType.QtWarningMsg, context, "QPainter::end: oops")
    assert seen == ["QPainter::end: oops"]


def test_help_offers_a_user_no_benchmark_options(capsys) -> None:
    """The benchmark is a developer's (`python3 dev.py bench`), not in the installed app."""
    with pytest.raises(SystemExit) as leaving:
        main(["--help"])
    assert leaving.value.code == 0
    shown = capsys.readouterr().out
    assert "--scenario" in shown and "--import" in shown
    assert not any(flag in shown for flag in ("--bench", "--repeat", "--json"))
    with pytest.raises(SystemExit) as leaving:
        main(["--bench"])
    assert leaving.value.code == 2


@pytest.mark.parametrize("kind", ["folder", "fifo", "under-a-file"])
def test_screenshot_to_a_folder_fifo_or_impossible_path_exits_2_at_once(
        capsys, tmp_path, monkeypatch, kind: str) -> None:
    import app.startup as startup

    monkeypatch.setattr(startup, "run", lambda _args: pytest.fail("nothing may be built"))
    target = tmp_path / "shot.png"
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this system")
        os.mkfifo(target)
    else:
        (tmp_path / "file").write_text("")
        target = tmp_path / "file" / "shot.png"
    assert main(["--screenshot", str(target)]) == 2
    assert "cannot write" in one_error_line(capsys)


def test_missing_xcb_libraries_are_named_with_the_install_line() -> None:
    from app.main import XCB_LIBRARIES, window_system_problem

    absent = {"libxcb-icccm.so.4", "libxcb-keysyms.so.1"}

    def loader(name: str) -> None:
        if name in absent:
            raise OSError(f"{name}: cannot open shared object file")

    line = window_system_problem({"DISPLAY": ":0"}, "linux", loader)
    assert line is not None
    assert "libxcb-icccm.so.4" in line and "libxcb-keysyms.so.1" in line
    assert line.endswith("sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1")
    assert "libxcb-cursor" not in line
    assert window_system_problem({"DISPLAY": ":0"}, "linux", lambda _name: None) is None
    assert window_system_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux", loader) is None
    assert window_system_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", loader) is None
    assert window_system_problem({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":1"}, "linux",
                                 loader) is not None
    assert window_system_problem({}, "win32", loader) is None
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = next(line for line in readme.splitlines() if "sudo apt-get install -y" in line)
    assert set(install.split("install -y", 1)[1].split()) == set(XCB_LIBRARIES.values())


def test_start_up_stops_with_one_line_when_xcb_cannot_load(capsys, monkeypatch) -> None:
    import app.main as cli

    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(cli.sys, "platform", "linux")

    def loader(name: str) -> None:
        if name == "libxcb-icccm.so.4":
            raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(cli, "_load_library", loader)
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "libxcb-icccm.so.4" in line and "apt-get install -y libxcb-icccm4" in line


@pytest.mark.parametrize("environ", [{}, {"QT_QPA_PLATFORM": "xcb", "DISPLAY": " "}])
def test_start_up_without_a_display_stops_with_one_line(capsys, monkeypatch, environ) -> None:
    """Over SSH or in a container nothing can show a window: Qt's xcb plugin would abort the
    process with a core dump. The line says so, and names the runs that need no display."""
    import app.main as cli

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(cli.sys, "platform", "linux")
    monkeypatch.setattr(cli, "_load_library", lambda _name: None)
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "DISPLAY is not set" in line and "--screenshot" in line and "--export-csv" in line
    assert cli.window_system_problem({"DISPLAY": ":0"}, "linux", lambda _name: None) is None


def test_version_prints_the_packages_version_and_exits_0(capsys) -> None:
    from importlib.metadata import version

    import app

    with pytest.raises(SystemExit) as leaving:
        main(["--version"])
    assert leaving.value.code == 0
    out = capsys.readouterr()
    assert out.out == f"attention-lab {version('attention-lab')}\n" and out.err == ""
    assert version("attention-lab") == app.__version__
