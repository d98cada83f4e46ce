"""Start-up: the Qt application, fonts, data, document and window, then run or render once."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QWidget

from app.model.data import load_lesson_data
from app.model.errors import AttentionLabError
from app.state.document import Document
from app.ui.errors import install as install_error_hook
from app.ui.export import save_image
from app.ui.fonts import apply_body_floor, apply_cjk_fallback, register_bundled_fonts
from app.ui.language import apply_language, stored_language
from app.ui.main_window import MainWindow

USAGE_ERROR = 2


def make_application() -> QApplication:
    """One QApplication with the bundled CJK font as fallback, a body font of at least 11 pt
    and pyqtgraph's light look."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Attention Lab")
    app.setOrganizationName("AttentionLab")
    register_bundled_fonts()
    apply_cjk_fallback(app)
    apply_body_floor(app)
    pg.setConfigOptions(antialias=True, background="w", foreground="k")
    return app


def build_window(lang: str | None = None) -> MainWindow:
    """The document and its window, with the language chosen or taken from the system."""
    apply_language(lang or stored_language())
    document = Document(load_lesson_data())
    return MainWindow(document)


def render(target: QWidget, path: Path) -> None:
    """Save a widget as PNG (or SVG by the file's suffix); raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    save_image(target, path)


def _screenshot(window: MainWindow, args: argparse.Namespace) -> int:
    window.resize(*args.size)
    window.show()
    QApplication.processEvents()
    window.document.flush()
    QApplication.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # tab bars of old layouts
    if (window.width(), window.height()) != tuple(args.size):
        sys.stderr.write(f"attention-lab: note: the window needs {window.width()}x"
                         f"{window.height()} at least; rendered at that size\n")
    target: QWidget = window
    if args.panel:
        if args.panel not in window.panels:
            names = ", ".join(window.panels)
            sys.stderr.write(f"attention-lab: error: no panel {args.panel!r}; choose {names}\n")
            return USAGE_ERROR
        dock = window.docks[args.panel]
        dock.show()
        dock.raise_()
        QApplication.processEvents()
        target = window.panels[args.panel]
    try:
        render(target, args.screenshot)
    except OSError as error:
        sys.stderr.write(f"attention-lab: error: cannot write {args.screenshot}: "
                         f"{error.strerror or error}\n")
        return USAGE_ERROR
    return 0


def run(args: argparse.Namespace) -> int:
    app = make_application()
    install_error_hook()
    try:
        window = build_window(args.lang)
    except AttentionLabError as error:
        sys.stderr.write(f"attention-lab: error: {error}\n")
        return USAGE_ERROR
    try:
        window.classroom.begin_session(args.scenario, restore_last=args.screenshot is None)
    except AttentionLabError as error:
        window.dispose()
        sys.stderr.write(f"attention-lab: error: {error}\n")
        return USAGE_ERROR
    if args.screenshot is not None:
        if args.present:
            window.classroom.presentation.set_presenting(True)
        try:
            return _screenshot(window, args)
        finally:
            window.dispose()
    window.classroom.start_autosave()
    window.restore_layout()
    if args.present:
        window.classroom.presentation.set_presenting(True)
    if os.environ.get("ATTENTION_LAB_EXIT_AFTER_FIRST_PAINT"):
        from app.bench.startup_time import exit_after_first_paint

        exit_after_first_paint(window)
    window.show()
    code = app.exec()
    window.dispose()
    return code
