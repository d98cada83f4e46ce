"""Shared set-up of the reliability tests.

Building the whole window takes seconds, so one window per module is shared and reset to the
lesson before each test. Tests that start the app through `app.main.main` install the global
error hook; whatever hooks were there before are put back so no test leaks one into the next.
"""

from __future__ import annotations

import sys
import threading

import pytest

from app import i18n
from app.model.view import initial_state
from app.ui.language import apply_language


@pytest.fixture(autouse=True)
def _restore_exception_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)


@pytest.fixture(scope="module")
def shared_window(qapp):
    """One English main window, on screen, with every dock shown."""
    from app.startup import build_window, make_application

    make_application()
    language = i18n.language()
    window = build_window("en")
    window.resize(1400, 900)
    window.show()
    for dock in window.docks.values():
        dock.show()
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
