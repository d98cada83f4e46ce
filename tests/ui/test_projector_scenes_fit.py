"""On a 1024×768 projector (presentation mode, Chinese and English) the lesson's scenes show
what they are about without scrolling sideways or down: every score column of the "three kinds
of match" table once scene 7's answer is revealed, and the selected pair's rows in the 4-D
editor of scene 6."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication

from app.startup import build_window, make_application
from app.ui.panels.match.model import ADDITIVE_COLUMNS, COLUMNS
from app.ui.presentation import restore_base_style

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints",
                                      "This plugin does not support raise")
LANGUAGES = ["zh", "en"]


@pytest.fixture
def scene(qtbot):
    """The main window at 1024×768 in presentation mode, opened at a scene (1-based)."""

    def open_(language: str, number: int, reveal: bool = False):
        make_application()
        window = build_window(language)
        qtbot.addWidget(window)
        window.presentation.set_presenting(True)
        window.resize(1024, 768)
        window.scenes.open_scene(number - 1, set_up=True)
        window.show()
        qtbot.waitExposed(window)
        if reveal:
            window.scenes.run.reveal()
        settle(window)
        return window

    yield open_
    restore_base_style()


def settle(window) -> None:
    for _ in range(4):
        QApplication.sendPostedEvents()
        QApplication.processEvents()
        window.document.flush()


def visible_columns(table) -> list[int]:
    return [c for c in range(len(COLUMNS)) if not table.isColumnHidden(c)]


def columns_in_view(panel) -> bool:
    """Every shown column lies inside the table's viewport and the panel's scrolled view."""
    table = panel.table
    viewport = table.viewport().rect()
    page = panel.scroll.viewport()
    for column in visible_columns(table):
        x = table.columnViewportPosition(column)
        cell = QRect(x, 0, table.columnWidth(column), 1)
        if not viewport.contains(cell):
            return False
        where = QRect(table.viewport().mapTo(page, QPoint(x, 0)), cell.size())
        if not (page.rect().left() <= where.left() and where.right() <= page.rect().right()):
            return False
    return True


@pytest.mark.parametrize("additive", [False, True])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_score_column_of_the_match_table_is_in_view(qtbot, scene, language,
                                                          additive) -> None:
    window = scene(language, 7, reveal=True)
    panel = window.panels["match"]
    assert not window.docks["match"].isHidden()
    if additive:
        with qtbot.waitSignal(window.document.changed, timeout=2000):
            window.document.set_options(show_additive=True)
        settle(window)
        assert not any(panel.table.isColumnHidden(c) for c in ADDITIVE_COLUMNS)
    assert panel.model.compact  # the dock is narrower than the full texts
    assert panel.table.horizontalScrollBar().maximum() == 0
    assert columns_in_view(panel)


def test_a_wide_dock_keeps_the_full_headers(qtbot, scene) -> None:
    window = scene("en", 7, reveal=True)
    panel = window.panels["match"]
    window.docks["match"].setFloating(True)
    window.docks["match"].resize(1600, 500)
    settle(window)
    assert not panel.model.compact
    header = panel.model.headerData(COLUMNS.index("dot"), Qt.Orientation.Horizontal)
    assert "\n" not in header
    assert columns_in_view(panel)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_editor_shows_the_selected_pair_without_scrolling(qtbot, scene, language) -> None:
    window = scene(language, 6)
    panel = window.panels["editor"]
    state = window.document.state
    assert {state.query, state.key} != {0, 1}  # the lesson's pair is not the first two
    view = panel._scroll.viewport().rect().translated(
        0, panel._scroll.verticalScrollBar().value())
    assert view.contains(panel.pair_rect())
    # picking another key brings it into view too
    other = 0 if state.query != 0 else 1
    with qtbot.waitSignal(window.document.changed, timeout=2000):
        window.document.select(key=other)
    settle(window)
    view = panel._scroll.viewport().rect().translated(
        0, panel._scroll.verticalScrollBar().value())
    picked = panel.pair_rect(other)
    assert view.contains(picked) or (picked.height() > view.height() and view.intersects(picked))
