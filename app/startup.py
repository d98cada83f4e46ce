"""Start-up: the Qt application, fonts, data, document and window, then run or render once."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import (
    QEvent,
    QMessageLogContext,
    QtMsgType,
    qFormatLogMessage,
    qInstallMessageHandler,
)
from PySide6.QtGui import QPixmapCache
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from app import i18n
from app.i18n import tr
from app.model.capture import load_capture
from app.model.errors import AttentionLabError
from app.model.lesson.data import LessonData, load_lesson_data
from app.model.lesson.scenes import Lesson, check_texts, load_scenes
from app.model.scenario import read_scenario
from app.model.view import initial_state
from app.paths import name_application, user_folder_problem
from app.state.document import Document
from app.ui.app import Later, build_main_window
from app.ui.app_icon import DESKTOP_ENTRY, app_icon
from app.ui.errors import install as install_error_hook
from app.ui.first_paint import after_first_paint
from app.ui.fonts import apply_body_floor, apply_cjk_fallback, register_bundled_fonts
from app.ui.language import apply_language, stored_language
from app.ui.look import use_light_plots
from app.ui.main_window import MainWindow
from app.ui.panels.registry import scene_panels

USAGE_ERROR = 2
PIXMAP_CACHE_KB = 64 * 1024
"""Qt's pixmap cache. Its default, 10 MB, holds one plane's picture and contours at about
1200 × 1000 pixels; a large or high-density screen with the four landscapes and every axis
needs several times that."""
PLATFORM_NOISE = ("This plugin does not support propagateSizeHints()",)
"""Qt messages known to be harmless that would bury the app's one line on a terminal (the
offscreen platform prints this one for every dock a headless run lays out)."""

_previous_handler: object = None
_filter_installed = False


def _quiet_platform_noise(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Qt's message handler: drop PLATFORM_NOISE, pass everything else on unchanged."""
    if message in PLATFORM_NOISE:
        return
    if callable(_previous_handler):
        _previous_handler(kind, context, message)
        return
    try:
        if sys.stderr is not None:
            sys.stderr.write(qFormatLogMessage(kind, context, message) + "\n")
    except Exception:  # a closed terminal must not turn a warning into a crash
        pass


def install_message_filter() -> None:
    """Keep known platform noise off the terminal (once per process)."""
    global _previous_handler, _filter_installed
    if not _filter_installed:
        _previous_handler = qInstallMessageHandler(_quiet_platform_noise)
        _filter_installed = True


def make_application() -> QApplication:
    """One QApplication with its names, icon and desktop entry, the bundled CJK font as
    fallback, a body font of at least 11 pt and pyqtgraph's light look."""
    install_message_filter()
    # a QApplication: this one, or the one a test (or an embedding tool) made before
    app = cast(QApplication, QApplication.instance() or QApplication(sys.argv[:1]))
    name_application()
    app.setWindowIcon(app_icon())
    app.setDesktopFileName(DESKTOP_ENTRY)
    register_bundled_fonts()
    apply_cjk_fallback(app)
    apply_body_floor(app)
    use_light_plots()
    # room for the pixmaps graphics items are kept as (axes, landscapes: `keep_still`); Qt's
    # 10 MB would drop them again on a large screen, and each would be drawn twice instead
    QPixmapCache.setCacheLimit(PIXMAP_CACHE_KB)
    return app


def build_window(lang: str | None = None, data: LessonData | None = None,
                 lesson_scenes: Lesson | None = None, later: Later | None = None) -> MainWindow:
    """The document and its window, with the language chosen or taken from the system (and
    the `lesson_scenes` read from `data` already, if they were); the window's second stage
    built now or handed to `later` (`build_main_window`)."""
    apply_language(lang or stored_language())
    return build_main_window(Document(load_lesson_data() if data is None else data),
                             lesson_scenes=lesson_scenes, later=later)


def render(target: QWidget, path: Path) -> None:
    """Save a widget as PNG (or SVG by the file's suffix); raises OSError."""
    from app.ui.export import save_image  # only a --screenshot needs it

    path.parent.mkdir(parents=True, exist_ok=True)
    save_image(target, path)


SETTLE_ROUNDS = 6
"""Event-loop rounds a screenshot waits: the desk's fit runs in passes, each on the layout
the one before made (a picture taken after one round showed a column half empty)."""


def _screenshot(window: MainWindow, args: argparse.Namespace) -> int:
    window.resize(*args.size)
    window.show()
    window.document.flush()
    for _ in range(SETTLE_ROUNDS):
        QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # old tab bars
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


def check_inputs(args: argparse.Namespace) -> tuple[LessonData, Lesson]:
    """Read the lesson data, its scenes and the --scenario file before any window exists, so a
    bad file costs one line on the terminal, not a window built for nothing; the window takes
    the data and scenes read. Raises AttentionLabError."""
    data = load_lesson_data()
    scenes = load_scenes(data=data, panels=scene_panels())
    for code in i18n.languages():
        check_texts(scenes, i18n.strings(code), i18n.get(code).path,
                    complete=code == i18n.BASE_LANGUAGE)
    scene = getattr(args, "scene", None)
    if scene is not None and scene > len(scenes):
        raise AttentionLabError(f"--scene {scene}: this lesson has scenes 1 to {len(scenes)}")
    if args.scenario is not None:
        read_scenario(args.scenario, initial_state(data))
    if getattr(args, "import_file", None) is not None:  # read once; the window takes it
        args.capture = load_capture(args.import_file, args.head or 0)
    if getattr(args, "model", None) is not None:  # the forward pass, before any window
        from app.model.checkpoint import read_head

        args.checkpoint, args.layer_qk, args.capture = read_head(
            args.model, args.text, args.layer, args.head or 0)
    return data, scenes


def import_capture(window: MainWindow, args: argparse.Namespace) -> None:
    """The --import file or --model head, as the world on screen (one undo step, like File →
    Import); the window keeps the model, so its other layers and heads are a switch away."""
    capture = getattr(args, "capture", None)
    if getattr(args, "checkpoint", None) is not None:
        window.models.run.adopt(args.checkpoint, args.text, args.layer_qk, args.head or 0)
    elif capture is not None:
        window.document.import_capture(capture)


def show_no_folder_note(window: MainWindow, problem: str) -> QLabel:
    """Autosave is off for this session: say so where it stays visible, and on the terminal."""
    note = QLabel(tr("reliability.no_user_folder", problem=problem))
    note.setObjectName("no_user_folder")
    note.setWordWrap(False)
    note.setToolTip(problem)
    window.statusBar().addPermanentWidget(note)
    try:
        if sys.stderr is not None:
            sys.stderr.write(f"attention-lab: note: {problem}; autosave is off\n")
    except Exception:
        pass
    return note


def open_session(window: MainWindow, args: argparse.Namespace, folder_problem: str | None,
                 later: Callable[[Callable[[], object]], None] | None = None) -> None:
    """The scenario or the last session, then the autosave (none when there is no folder),
    its first write now or when `later` calls it (`FileActions.start_autosave`)."""
    window.files.begin_session(args.scenario, restore_last=folder_problem is None)
    if folder_problem is None:
        window.files.start_autosave(later)
    else:
        show_no_folder_note(window, folder_problem)


def run(args: argparse.Namespace,
        on_window: Callable[[MainWindow], None] | None = None) -> int:
    """Start the app as `args` ask; `on_window` sees the window just before it is shown
    (a benchmark watches for its first paint)."""
    folder_problem = user_folder_problem()
    try:
        data, scenes = check_inputs(args)
    except AttentionLabError as error:
        sys.stderr.write(f"attention-lab: error: {error}\n")
        return USAGE_ERROR
    app = make_application()
    install_error_hook()
    try:
        window = build_window(args.lang, data, scenes,
                              later=None if args.screenshot is not None else after_first_paint)
    except AttentionLabError as error:
        sys.stderr.write(f"attention-lab: error: {error}\n")
        return USAGE_ERROR
    if args.screenshot is not None:
        try:
            window.files.begin_session(args.scenario, restore_last=False)
            window.resize(*args.size)  # the stage fits its panels to a window that is shown
            window.show()
            QApplication.processEvents()
            if args.present:
                window.presentation.set_presenting(True)
            if args.scene is not None:
                window.arrangement.open_scene(args.scene - 1, set_up=args.scenario is None)
            import_capture(window, args)
            window.document.finish_import()
            return _screenshot(window, args)
        except AttentionLabError as error:  # the file changed since check_inputs read it
            sys.stderr.write(f"attention-lab: error: {error}\n")
            return USAGE_ERROR
        finally:
            window.dispose()
    try:
        open_session(window, args, folder_problem,
                     later=lambda work: after_first_paint(window, work))
    except AttentionLabError as error:
        window.dispose()
        sys.stderr.write(f"attention-lab: error: {error}\n")
        return USAGE_ERROR
    window.arrangement.restore(ask=args.scene is None)
    if args.scene is not None:
        window.arrangement.open_lesson(args.scene - 1, asked=True)
    import_capture(window, args)
    if args.present:
        window.presentation.set_presenting(True)
    if args.poll is not None:
        from app.poll.classpoll import PollError
        from app.poll.network import announce

        try:
            assert window.parts is not None  # installed by build_main_window
            announce(window.parts.polls.start_at(*args.poll))
        except PollError as error:
            window.dispose()
            sys.stderr.write(f"attention-lab: error: --poll: {error}\n")
            return USAGE_ERROR
    if on_window is not None:
        on_window(window)
    window.show()
    code = app.exec()
    window.dispose()
    return code
