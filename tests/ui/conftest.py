"""Shared set-up of the UI tests: one panel on its own document, the real main window as a
user first sees it, and checks that several panels share."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt

from app.model.lesson.data import load_lesson_data
from app.model.lesson.scenes import load_scenes
from app.startup import build_window, make_application
from app.state.document import Document
from app.state.lesson import LessonRun
from app.ui.language import apply_language
from app.ui.look import Look
from app.ui.main_window import MainWindow
from app.ui.panels.base import Panel, PanelParts
from app.ui.panels.guide.measure import MeasureBox
from app.ui.presentation import restore_base_style, scale_app_font

CLASSROOM_SIZE = (1280, 720)
"""The projector size the layout is made for."""


@pytest.fixture
def open_panel(qtbot) -> Iterator[Callable[..., Panel]]:
    """Builds one panel, in English, on a document of its own (the lesson's data, or that of
    `data_dir`), shown at `size`; the language goes back to Chinese afterwards."""

    def open_(panel_class: type[Panel], size: tuple[int, int], data_dir: Path | None = None,
              document: Document | None = None) -> Panel:
        make_application()
        apply_language("en")
        document = document or Document(load_lesson_data(data_dir))
        lesson = LessonRun(document, load_scenes(data=document.data), document)
        panel = panel_class.build(PanelParts(document, lesson))
        qtbot.addWidget(panel)
        panel.setMinimumSize(1, 1)  # a top-level layout would resize the window: offscreen warns
        panel.resize(*size)
        panel.show()
        qtbot.waitExposed(panel)
        return panel

    yield open_
    apply_language("zh")


@pytest.fixture
def open_2d_panel(open_panel) -> Callable[[type[Panel], tuple[int, int]], Panel]:
    """Builds one panel like `open_panel`, on a document already in the 2-D world."""

    def open_(panel_class: type[Panel], size: tuple[int, int]) -> Panel:
        make_application()
        document = Document(load_lesson_data())
        document.set_world("dialogue")
        document.flush()
        return open_panel(panel_class, size, document=document)

    return open_


@pytest.fixture
def present() -> Iterator[Callable[[Panel, Look], None]]:
    """Gives one panel a look as presentation mode gives the window one: the application font
    at the look's scale first (widgets inherit it), then the panel's pens, colours and painted
    text. The application's own style comes back afterwards."""

    def present_(panel: Panel, look: Look) -> None:
        scale_app_font(look.scale)
        panel.set_look(look)

    yield present_
    restore_base_style()


@pytest.fixture
def box(qtbot) -> Iterator[MeasureBox]:
    """The guide's measure box on its own, in English, shown; stopped and Chinese after."""
    make_application()
    apply_language("en")
    box = MeasureBox()
    qtbot.addWidget(box)
    box.retranslate()
    box.show()
    qtbot.waitExposed(box)
    yield box
    box.shutdown()
    apply_language("zh")


@pytest.fixture
def on_stage() -> Iterator[Callable[[Panel, float], None]]:
    """Puts one panel in the projector stage's type at a zoom (1.0, 1.5, 2.0): the stage's
    application font, then the stage look. The application's own style comes back after."""

    def stage_(panel: Panel, scale: float) -> None:
        scale_app_font(scale, stage=True)
        panel.set_look(Look(scale=scale, stage=True))

    yield stage_
    restore_base_style()


@pytest.fixture
def every_move_counts() -> Iterator[None]:
    """pyqtgraph drops moves closer than 1/mouseRateLimit s apart; tests send them faster
    than any hand, and a drag must be seen passing through every point."""
    limit = pg.getConfigOption("mouseRateLimit")
    pg.setConfigOption("mouseRateLimit", -1)
    yield
    pg.setConfigOption("mouseRateLimit", limit)


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
