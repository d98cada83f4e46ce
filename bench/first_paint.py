"""The start-up timing's child process: the app started as its command line starts it, told
to print when its window has first been painted and then quit (`startup_time`).

The benchmark's own hook is imported only when the window exists, after the app's imports,
as the bare window imports it after its libraries: imported first, it would load Qt before
the app's NumPy (PySide6 then reads the source of every NumPy module), a cost a user's start
never pays."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from app.main import main

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget


def report_first_paint(window: QWidget) -> None:
    """Start-up hook: `startup_time.exit_after_first_paint`, imported now."""
    from bench.startup_time import exit_after_first_paint

    exit_after_first_paint(window)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], on_window=report_first_paint))
