"""The window's own chrome: one checked theme at a time, and whole tab titles in every
layout the window builds, including the one it restores after a restart."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar

from app.startup import build_window
from app.ui.layout.arrangement import LAYOUT_VERSION
from app.ui.presentation import THEME_CHOICES, restore_base_style

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def window(open_window):
    win = open_window()
    yield win
    restore_base_style()


def checked_themes(window) -> list[str]:
    return [name for name in THEME_CHOICES if window.actions[f"theme_{name}"].isChecked()]


def test_the_theme_menu_checks_exactly_the_theme_in_use(window) -> None:
    presentation = window.presentation
    assert checked_themes(window) == [presentation.theme_name]
    window.actions["presentation"].trigger()  # the projector theme comes with the mode
    assert checked_themes(window) == [presentation.theme_name] == ["projector"]
    window.actions["theme_dark"].trigger()
    assert checked_themes(window) == ["dark"]
    window.actions["presentation"].trigger()  # back to the desk and its own theme
    assert checked_themes(window) == [presentation.theme_name]
    window.actions["presentation"].trigger()
    assert checked_themes(window) == ["dark"]  # the projector remembered its dark theme


def tab_bars(window) -> list[QTabBar]:
    return [bar for bar in window.findChildren(QTabBar) if bar.isVisible() and bar.count()]


def test_tab_titles_stay_whole_after_a_restart(qtbot, window) -> None:
    window.tabifyDockWidget(window.docks["heatmap"], window.docks["expansion"])
    saved = window.saveState(LAYOUT_VERSION)  # what closing the window keeps in settings
    again = build_window("en")
    qtbot.addWidget(again)
    again.resize(1024, 768)
    assert again.restoreState(saved, LAYOUT_VERSION)  # what the next start does with it
    again.show()
    qtbot.waitExposed(again)
    bars = tab_bars(again)
    assert bars, "the restored layout has tabs"
    assert {bar.elideMode() for bar in bars} == {Qt.TextElideMode.ElideNone}
    assert all(bar.usesScrollButtons() for bar in bars)


def test_tabs_made_later_keep_whole_titles(qtbot, window) -> None:
    window.tabifyDockWidget(window.docks["heatmap"], window.docks["guide"])  # a new tab group
    QApplication.processEvents()
    assert {bar.elideMode() for bar in tab_bars(window)} == {Qt.TextElideMode.ElideNone}
