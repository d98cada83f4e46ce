"""Shared set-up of the reliability tests.

Building the whole window takes seconds, so one window per module is shared and reset to the
lesson before each test. Tests that start the app through `app.main.main` install the global
error hook; whatever hooks were there before are put back so no test leaks one into the next.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from app import i18n
from app.model.lesson.data import load_lesson_data
from app.model.view import initial_state
from app.startup import build_window, make_application
from app.state.document import Document
from app.ui.app import build_main_window
from app.ui.language import apply_language
from app.ui.main_window import MainWindow


@pytest.fixture(autouse=True)
def _restore_exception_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)


@pytest.fixture(scope="module")
def shared_window(qapp):
    """One English main window, on screen, with every dock shown."""
    make_application()
    language = i18n.language()
    window = _show_every_dock(build_window("en"))
    yield window
    window.close()
    window.deleteLater()
    apply_language(language)


@pytest.fixture
def window(qtbot, shared_window):
    """The shared window back at the lesson's start: state, undo history, messages."""
    apply_language("en")
    document = shared_window.document
    document.restore(initial_state(document.data))
    document.flush()
    for panel in shared_window.panels.values():
        panel.retranslate()  # panels drop transient notes (e.g. a refused entry)
    shared_window.statusBar().clearMessage()
    for message in (shared_window.files.message, shared_window.exports.message):
        if message is not None:
            message.done(0)
    qtbot.waitExposed(shared_window)
    return shared_window



def _show_every_dock(window: MainWindow) -> MainWindow:
    window.resize(1400, 900)
    window.show()
    for dock in window.docks.values():
        dock.show()
    return window


@pytest.fixture
def every_dock_window(qtbot) -> Callable[[Path], MainWindow]:
    """Builds a main window on the data in a folder, with every dock shown at once."""

    def build(data_dir: Path) -> MainWindow:
        make_application()
        window = build_main_window(Document(load_lesson_data(data_dir)))
        qtbot.addWidget(window)
        _show_every_dock(window)
        qtbot.waitExposed(window)
        return window

    return build
