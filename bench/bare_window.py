"""The start-up reference's child process: what any window of this app's libraries costs to show.

It imports what the app's first screen cannot do without (NumPy, PySide6's widgets and
pyqtgraph, the latter as `app.ui` imports it) the way `app.main` imports them, with the cyclic
garbage collector paused and their objects frozen afterwards, shows an empty main window with
one line of text and reports its first paint as the app's own child does (`first_paint`).
Nothing of the app is built or loaded, so the app's start-up minus this is the app's own share,
on whatever machine the benchmark runs.
"""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtWidgets import QMainWindow

BARE_SIZE = (1024, 768)


def main(fill: Callable[[QMainWindow], object] | None = None) -> int:
    """Import the libraries, show the window (given more to show by `fill`, called once the
    application exists) and report its first paint."""
    gc.disable()
    import numpy  # noqa: F401  (imported for its cost: the app's model needs it first)
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    import app.ui  # noqa: F401  (pyqtgraph, imported the way the app imports it)
    from bench.startup_time import exit_after_first_paint

    gc.freeze()
    gc.enable()
    application = QApplication(sys.argv[:1])
    window = QMainWindow()
    window.setCentralWidget(QLabel("Attention Lab"))
    if fill is not None:
        fill(window)
    window.resize(*BARE_SIZE)
    exit_after_first_paint(window)
    window.show()
    return application.exec()


if __name__ == "__main__":
    sys.exit(main())
