"""Owns the dock layouts the arrangement asks for: the projector's two columns of tabbed
docks, and a lesson scene's docks (data first, the guide beside it, an aside panel under the
guide). Functions on the window and its docks; which one applies when is the arrangement's
(`arrangement.py`)."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QDockWidget, QMainWindow

from app.model.lesson.scenes import SceneLayout
from app.ui.panels.guide.panel import GuidePanel

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea


def projector_columns(window: QMainWindow, docks: Mapping[str, QDockWidget]) -> None:
    """Two columns of tabbed docks: at 200 % a stack of five panels cannot fit 720 lines,
    but one panel per column, chosen by its tab, can."""
    shown = [d for d in docks.values() if not d.isHidden() and not d.isFloating()]
    on_top = [d for d in shown if d.isVisible()] or shown
    columns: tuple[list[QDockWidget], list[QDockWidget]] = ([], [])
    for dock in sorted(shown, key=lambda d: window.dockWidgetArea(d) != LEFT):
        # docks on the left stay there; the others fill the shorter column, ties right
        on_left = window.dockWidgetArea(dock) == LEFT or len(columns[0]) < len(columns[1])
        columns[0 if on_left else 1].append(dock)
    for area, column in zip((LEFT, RIGHT), columns, strict=True):
        for dock in column:
            window.addDockWidget(area, dock)
        for dock in column[1:]:
            window.tabifyDockWidget(column[0], dock)
        if column:
            next((d for d in on_top if d in column), column[0]).raise_()
    firsts = [column[0] for column in columns if column]
    if len(firsts) == 2:
        half = max(1, window.width() // 2)
        window.resizeDocks(firsts, [half, half], Qt.Orientation.Horizontal)


def scene_docks(window: QMainWindow, docks: Mapping[str, QDockWidget], names: list[str],
                layout: SceneLayout, guide_name: str) -> str | None:
    """Data panels left (the first large), the guide right, and the scene's `aside` panel,
    if it has one, under the guide; every other dock hidden. Returns the aside's name."""
    aside = layout.aside if layout.aside in names and len(names) > 1 else None
    left_names = [name for name in names if name != aside]
    for name, dock in docks.items():
        dock.setFloating(False)
        if name not in names and name != guide_name:
            dock.hide()
    first, guide = docks[left_names[0]], docks[guide_name]
    window.addDockWidget(LEFT, first)
    window.addDockWidget(RIGHT, guide)
    if aside is not None:
        window.splitDockWidget(guide, docks[aside], Qt.Orientation.Vertical)
    if len(left_names) > 1:
        window.splitDockWidget(first, docks[left_names[1]], Qt.Orientation.Vertical)
    if len(left_names) > 2:
        window.splitDockWidget(docks[left_names[1]], docks[left_names[2]],
                               Qt.Orientation.Horizontal)
    for name in (*names, guide_name):
        docks[name].show()
    width, height = window.width(), window.height()
    window.resizeDocks([first, guide], [int(width * (1 - layout.guide)),
                                        int(width * layout.guide)], Qt.Orientation.Horizontal)
    if len(left_names) > 1:
        window.resizeDocks([first, docks[left_names[1]]],
                           [int(height * layout.top), int(height * (1 - layout.top))],
                           Qt.Orientation.Vertical)
    return aside


def fit_aside(window: QMainWindow, guide: QDockWidget, aside: QDockWidget,
              width: int | None = None) -> None:
    """Under the guide, the aside panel gets the height the guide's notes leave."""
    panel = guide.widget()
    if aside.isHidden() or guide.isHidden() or not isinstance(panel, GuidePanel):
        return
    line = QFontMetrics(panel.font()).lineSpacing()
    chrome = guide.height() - panel.height() if guide.height() > panel.height() else 2 * line
    needed = panel.notes_height(width) + chrome
    column = (guide.height() + aside.height() if guide.isVisible()
              else window.height() - 4 * line)
    window.resizeDocks([guide, aside], [needed, max(1, column - needed)],
                       Qt.Orientation.Vertical)
