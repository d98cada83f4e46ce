"""For the scripts that `screens.run_on_screens` runs in a child: the window as a teacher
opens it on the laptop, then presenting, so the stage goes to the projector."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtWidgets import QApplication

from app.startup import build_window, make_application
from app.ui.main_window import MainWindow


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def wait(ready: Callable[[], object], seconds: float = 20) -> bool:
    """Let events run until `ready()` holds, within a bound (no timing is asserted)."""
    deadline = time.monotonic() + seconds
    while not ready() and time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.02)
    return bool(ready())


def present(language: str, scene: str | None = None) -> MainWindow:
    """A window in `language`, on the laptop, presenting `scene` (an id; the first when
    None) with the scene's own setup."""
    make_application()
    window = build_window(language)
    window.resize(1200, 700)
    window.move(40, 30)
    window.show()
    settle()
    ids = [s.id for s in window.lesson.lesson.scenes]
    window.arrangement.open_scene(ids.index(scene) if scene else 0, set_up=True)
    window.presentation.set_presenting(True)
    settle()
    return window
