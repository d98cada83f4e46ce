"""Switching language goes through Qt's LanguageChange: panels behind a tab catch up when shown,
Qt's own dialogs follow, and the choice survives a restart."""

from __future__ import annotations

import os
import stat

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from app import i18n
from app.i18n import tr
from app.startup import build_window, make_application
from app.ui import settings as keys
from app.ui.language import apply_language, choose_language, stored_language
from app.ui.settings import MAX_SETTINGS_BYTES, settings, settings_path, settings_problem


def _cancel_text() -> str:
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    return box.button(QDialogButtonBox.StandardButton.Cancel).text()


def test_the_chosen_language_survives_a_restart(qtbot):
    make_application()
    window = build_window()
    qtbot.addWidget(window)
    start = i18n.language()
    other = "en" if start == "zh" else "zh"
    window.actions[f"lang_{other}"].trigger()
    assert settings().value(keys.LANGUAGE) == other
    window.close()
    apply_language(start)
    again = build_window()
    qtbot.addWidget(again)
    assert i18n.language() == other == stored_language()
    assert again.actions[f"lang_{other}"].isChecked()
    apply_language("zh")


def test_qt_own_buttons_speak_the_chosen_language(qtbot):
    make_application()
    apply_language("zh")
    assert _cancel_text() == "取消"
    apply_language("en")
    assert _cancel_text() == "Cancel"
    apply_language("zh")


def test_a_panel_behind_a_tab_retranslates_when_it_is_next_shown(qtbot, open_window):
    window = open_window("en")
    hidden = window.panels["timeline"]
    assert not hidden._on_screen()
    calls: list[str] = []
    hidden.retranslate = lambda: calls.append(i18n.language())  # type: ignore[method-assign]
    apply_language("zh")
    assert window.docks["heatmap"].windowTitle() == tr("heatmap.title")
    assert calls == []  # nobody can see it: nothing to do yet
    window.show_panel("timeline")
    assert calls == ["zh"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_settings_file_that_is_a_fifo_or_huge_is_left_alone(qtbot, tmp_path):
    """Qt would block reading a FIFO at start; a huge file would be read whole. Either is left
    exactly as it is, the settings of this run go elsewhere, and the window says so."""
    make_application()
    path = settings_path()
    os.mkfifo(path)
    window = build_window("en")
    qtbot.addWidget(window)
    window.arrangement.restore()
    assert "settings" in window.statusBar().currentMessage().lower()
    window.actions["lang_zh"].trigger()  # writes a setting: not into the FIFO
    window.close()
    assert stat.S_ISFIFO(os.stat(path).st_mode)
    path.unlink()
    path.write_bytes(b"[x]\n" + b"a" * (MAX_SETTINGS_BYTES + 1))
    before = path.read_bytes()
    assert settings_problem() is not None
    choose_language("en")
    assert path.read_bytes() == before
    path.unlink()
    assert settings_problem() is None
    apply_language("zh")
