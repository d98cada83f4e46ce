"""User folders by Qt's rules (QStandardPaths), with ATTENTION_LAB_HOME still in charge when set,
and a user of an earlier version losing nothing: the first start finds the folder that
version used and carries its autosave, settings, checklist, question log and logs over."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app import paths
from app.main import build_parser
from app.model.lesson.data import load_lesson_data
from app.model.questions import LOG_NAME
from app.model.scenario import write_scenario
from app.model.view import initial_state
from app.state.autosave import AUTOSAVE_NAME, BACKUP_NAME
from app.ui import errors
from app.ui import settings as keys
from app.ui.language import stored_language
from app.ui.panels.guide.checklist import stored_progress

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="the XDG folders are Linux's"),
    pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints"),
]


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """No ATTENTION_LAB_HOME; a private home and XDG folders, as a student's machine has."""
    folders = {name: tmp_path / name for name in ("home", "data", "state", "config")}
    monkeypatch.delenv(paths.HOME_VARIABLE, raising=False)
    monkeypatch.setenv("HOME", str(folders["home"]))
    monkeypatch.setenv("XDG_DATA_HOME", str(folders["data"]))
    monkeypatch.setenv("XDG_STATE_HOME", str(folders["state"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folders["config"]))
    return folders


def _new(xdg: dict[str, Path]) -> Path:
    return xdg["data"] / "AttentionLab" / "Attention Lab"


def _logs(xdg: dict[str, Path]) -> Path:
    return xdg["state"] / "AttentionLab" / "Attention Lab"


@pytest.fixture
def earlier(xdg: dict[str, Path]) -> Path:
    """The folder an earlier version filled: a session, settings with the checklist and the
    language, a question log, a log, the lock of a copy that is not running."""
    folder = xdg["data"] / "attention-lab"
    folder.mkdir(parents=True)
    state = replace(initial_state(load_lesson_data()), scorer="cosine")
    write_scenario(state, folder / AUTOSAVE_NAME)
    write_scenario(initial_state(load_lesson_data()), folder / BACKUP_NAME)
    store = QSettings(str(folder / keys.SETTINGS_NAME), QSettings.Format.IniFormat)
    store.setValue(keys.LANGUAGE, "zh")
    store.setValue(keys.CHECKLIST_DONE, "0,2")
    store.sync()
    (folder / LOG_NAME).write_text("# C3-L2\n\n- why √d?\n", encoding="utf-8")
    (folder / "autosave.lock").write_text("12345\n", encoding="utf-8")
    (folder / paths.LOG_FOLDER).mkdir()
    (folder / paths.LOG_FOLDER / errors.LOG_NAME).write_text("an old error\n", encoding="utf-8")
    return folder


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_folders_are_qts_app_data_and_state_locations(qapp, xdg) -> None:
    assert paths.user_folder_problem() is None
    assert paths.user_data_dir() == _new(xdg) and _new(xdg).is_dir()
    assert errors.log_path() == _logs(xdg) / errors.LOG_NAME
    assert not (xdg["home"] / ".local").exists(), "nothing is written beside the XDG folders"


def test_attention_lab_home_still_decides_everything(qapp, tmp_path, xdg, earlier,
                                                      monkeypatch) -> None:
    home = tmp_path / "usb-stick"
    monkeypatch.setenv(paths.HOME_VARIABLE, str(home))
    assert paths.user_data_dir() == home
    assert errors.log_path() == home / "logs" / errors.LOG_NAME
    assert sorted(p.name for p in home.iterdir()) == ["logs"], "nothing carried into it"
    assert not _new(xdg).exists()


def test_the_first_start_carries_the_earlier_folder_over(qtbot, xdg, earlier) -> None:
    from app.startup import build_window, make_application, open_session

    before = _contents(earlier)
    make_application()
    assert paths.user_folder_problem() is None
    new = _new(xdg)
    carried = _contents(new)
    assert carried == {name: data for name, data in before.items()
                       if name != "autosave.lock" and not name.startswith("logs/")}
    assert _contents(_logs(xdg)) == {errors.LOG_NAME: b"an old error\n"}
    assert _contents(earlier) == before, "the earlier folder is left as it was"
    assert [p.name for p in new.parent.iterdir()] == ["Attention Lab"], "no half-made copy"
    assert stored_language() == "zh" and stored_progress() == [True, False, True]
    window = build_window("en")
    try:
        open_session(window, build_parser().parse_args([]), None)
        assert window.document.state.scorer == "cosine", "the session came back"
        assert window.files.autosave.path == new / AUTOSAVE_NAME
        assert window.panels["guide"].ask.log == new / LOG_NAME
    finally:
        window.session.end()
        window.dispose()


def test_a_later_start_does_not_copy_again(qapp, xdg, earlier) -> None:
    assert paths.user_data_dir() == _new(xdg)
    (_new(xdg) / LOG_NAME).write_text("# C3-L2\n\n- a newer question\n", encoding="utf-8")
    (earlier / "autosave.copy-2.attnlab.json").write_text("{}", encoding="utf-8")
    assert paths.user_data_dir() == _new(xdg)
    assert "newer" in (_new(xdg) / LOG_NAME).read_text(encoding="utf-8")
    assert not (_new(xdg) / "autosave.copy-2.attnlab.json").exists()


def test_when_the_new_folder_cannot_be_made_the_earlier_one_is_used(qapp, xdg,
                                                                    earlier) -> None:
    (xdg["data"] / "AttentionLab").write_text("a file in the way", encoding="utf-8")
    assert paths.user_folder_problem() is None
    assert paths.user_data_dir() == earlier
    assert sorted(p.name for p in xdg["data"].iterdir()) == ["AttentionLab", "attention-lab"]
