"""On a 1024×768 or 1280×720 screen, in the lesson's docks (presentation mode puts a scene on
the stage instead, whose own contract `test_stage_legibility.py` checks), Chinese and English,
the lesson's scenes show what they are about without scrolling sideways or down: every score
column of the "three kinds of match" table once its answer is revealed, the selected pair's
rows in the 4-D editor, and in every scene every label, readout row and column of the
playground, the timeline (each stage chip) and the shapes panel; no scene spends a panel on
"this is the other world"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QApplication, QLabel, QWidget

from app.startup import build_window, make_application
from app.ui.panels.match.model import ADDITIVE_COLUMNS, COLUMNS
from app.ui.presentation import restore_base_style

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints",
                                      "This plugin does not support raise")
LANGUAGES = ["zh", "en"]


@pytest.fixture
def scene(qtbot):
    """The main window at 1024×768 in the lesson's docks, opened at a scene (1-based)."""

    def open_(language: str, number: int, reveal: bool = False):
        make_application()
        window = build_window(language)
        qtbot.addWidget(window)
        window.resize(1024, 768)
        window.arrangement.open_scene(number - 1, set_up=True)
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
    window = scene(language, 8, reveal=True)
    panel = window.panels["match"]
    assert not window.docks["match"].isHidden()
    if additive:
        with qtbot.waitSignal(window.document.changed, timeout=2000):
            window.document.set_options(show_additive=True)
        settle(window)
        assert not any(panel.table.isColumnHidden(c) for c in ADDITIVE_COLUMNS)
    assert panel.table.horizontalScrollBar().maximum() == 0
    assert columns_in_view(panel)


def test_a_wide_dock_keeps_the_full_headers(qtbot, scene) -> None:
    window = scene("en", 8, reveal=True)
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
    window = scene(language, 7)
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


# ---- every scene, both projector sizes, both languages: nothing of its panels cut off ------

SIZES = [(1024, 768), (1280, 720)]
CHECKED = ("playground", "timeline", "shapes")
"""The panels whose every label, readout and column this file checks in every scene (the
heatmap, the match table and the editor have their own tests above and in
test_projector_fit.py)."""


def viewports(widget: QWidget) -> list[QWidget]:
    """The viewports of every scroll area `widget` sits in, innermost first."""
    found, parent = [], widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and parent.viewport().isAncestorOf(widget):
            found.append(parent.viewport())
        parent = parent.parentWidget()
    return found


def seen(widget: QWidget, through: QWidget) -> QRect:
    return QRect(widget.mapTo(through, QPoint(0, 0)), widget.size())


def cut_sideways(widget: QWidget) -> bool:
    """Part of `widget` lies left or right of a scroll area it is in, or of the window."""
    for port in [*viewports(widget), widget.window()]:
        where = seen(widget, port)
        if where.left() < 0 or where.right() > port.rect().right():
            return True
    return False


def cut_at_all(widget: QWidget) -> bool:
    """Part of `widget` lies outside a scroll area it is in (as scrolled now) or the window."""
    return any(not port.rect().contains(seen(widget, port))
               for port in [*viewports(widget), widget.window()])


def text_cut(label: QLabel) -> bool:
    """The label is narrower (one line) or shorter (wrapped) than its text needs."""
    if label.wordWrap():
        return label.height() < label.heightForWidth(label.width())
    return label.width() < label.sizeHint().width() - 1


def words(panel: QWidget) -> list[QWidget]:
    """The texts and buttons a student reads in a panel (shown ones)."""
    return [w for w in panel.findChildren(QWidget)
            if isinstance(w, QLabel | QAbstractButton) and w.isVisible()
            and (not isinstance(w, QLabel) or w.text())]


def problems(window, name: str) -> list[str]:
    """Everything of a checked panel that a projector would cut off."""
    panel, found = window.panels[name], []
    for widget in words(panel):
        if cut_sideways(widget) or (isinstance(widget, QLabel) and text_cut(widget)):
            found.append(f"{widget.objectName() or type(widget).__name__}: "
                         f"{getattr(widget, 'text', lambda: '')()!r}")
    if name == "playground":  # the readout table: every row and column in view, unscrolled
        table = panel.readouts
        for row in table.cells:
            for column, label in row.items():
                if label.isVisible() and cut_at_all(label):
                    found.append(f"readout {column} {label.text()!r}")
    if name == "timeline":  # every stage chip, without scrolling the panel
        found += [f"chip {sid}" for sid, chip in panel.strip.chips.items() if cut_at_all(chip)]
    return found


@pytest.mark.parametrize(("language", "size", "scale"), [
    (language, size, 1.0) for language in LANGUAGES for size in SIZES])
def test_no_scene_cuts_off_a_label_readout_or_column(qtbot, scene, language, size,
                                                     scale) -> None:
    """At the desk's own zoom; larger type is the stage's, where a scene's panels come one
    build at a time rather than sharing a small screen's docks."""
    window = scene(language, 1)
    window.presentation.set_scale(scale)
    window.resize(*size)
    report = []
    for index, lesson_scene in enumerate(window.scenes.run.lesson.scenes):
        window.arrangement.open_scene(index, set_up=True)
        if lesson_scene.hides_answer:
            window.scenes.run.reveal()
        settle(window)
        for name in window.arrangement.shown_panels():
            assert not window.docks[name].isHidden()
            if name in CHECKED:
                report += [f"scene {index + 1} {name}: {p}" for p in problems(window, name)]
        for name in ("playground", "editor"):  # never a panel spent on "the other world"
            panel = window.panels[name]
            assert not (panel.isVisible() and panel.stack.currentWidget() is panel._hint_page)
    assert not report, "\n".join(report)
