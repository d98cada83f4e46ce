"""Shared set-up of the UI tests: the real main window, as a user first sees it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt

from app.startup import build_window, make_application
from app.ui.main_window import MainWindow
from app.ui.panels.base import Panel
from app.ui.presentation import restore_base_style

CLASSROOM_SIZE = (1280, 720)
"""The projector size the layout is made for."""


@pytest.fixture
def open_window(qtbot) -> Callable[..., MainWindow]:
    """Builds the main window in a language, shown at the classroom size and exposed."""

    def open_(language: str = "en") -> MainWindow:
        make_application()
        window = build_window(language)
        qtbot.addWidget(window)
        window.resize(*CLASSROOM_SIZE)
        window.show()
        qtbot.waitExposed(window)
        return window

    return open_


@pytest.fixture
def window(open_window):
    """The English main window with its first view computed; the presentation's app-wide
    style is put back afterwards."""
    win = open_window()
    win.document.flush()
    yield win
    restore_base_style()


@pytest.fixture
def world_hint_round_trip(qtbot) -> Callable[[Panel, str, str], None]:
    """Checks a panel that edits one world: switching to the other world shows its hint page,
    and the hint's button brings its own world back."""

    def check(panel: Panel, away: str, home: str) -> None:
        document = panel.document
        with qtbot.waitSignal(document.changed, timeout=2000):
            document.set_world(away)
        assert panel.stack.currentWidget() is panel._hint_page
        with qtbot.waitSignal(document.changed, timeout=2000):
            qtbot.mouseClick(panel.switch_button, Qt.MouseButton.LeftButton)
        assert document.state.world == home
        assert panel.stack.currentWidget() is panel._content

    return check
