"""Switching language goes through Qt's LanguageChange: panels behind a tab catch up when shown,
Qt's own dialogs follow, and the choice survives a restart."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox

from app import i18n
from app.i18n import tr
from app.startup import build_window, make_application
from app.ui import settings as keys
from app.ui.language import apply_language, stored_language
from app.ui.settings import settings


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
    shown, hidden = window.panels["heatmap"], window.panels["timeline"]
    assert not hidden._on_screen()
    calls: list[str] = []
    hidden.retranslate = lambda: calls.append(i18n.language())  # type: ignore[method-assign]
    apply_language("zh")
    assert window.docks["heatmap"].windowTitle() == tr(shown.title_key)
    assert calls == []  # nobody can see it: nothing to do yet
    window.show_panel("timeline")
    assert calls == ["zh"]
