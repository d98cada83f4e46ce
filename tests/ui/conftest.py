"""Shared set-up of the UI tests: the real main window, as a user first sees it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.startup import build_window, make_application
from app.ui.main_window import MainWindow
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
