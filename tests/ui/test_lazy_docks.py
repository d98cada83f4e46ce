"""Docks build their panels when first needed: a start builds only what the first
screen shows; a dock shown later, or a panel looked up by name, is built then, in the
window's current look and language."""

from __future__ import annotations

import pytest

from app.i18n import tr
from app.startup import build_window, make_application
from app.ui.panels.base import Panel
from app.ui.presentation import restore_base_style
from app.ui.widgets.lazy_docks import Placeholder

CLASSROOM_SIZE = (1280, 720)


@pytest.fixture
def lesson_window(qtbot):
    """The window as a first start shows it: the lesson's first scene."""
    make_application()
    window = build_window("en")
    qtbot.addWidget(window)
    window.resize(*CLASSROOM_SIZE)
    window.arrangement.open_lesson(0)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_lesson_start_builds_only_the_panels_of_its_first_scene(lesson_window):
    window = lesson_window
    first_screen = {*window.arrangement.shown_panels(), "guide"}
    assert set(window.panels.built()) == first_screen
    assert len(window.panels.built()) < len(window.panels)
    for name, dock in window.docks.items():
        built = window.panels.is_built(name)
        assert isinstance(dock.widget(), Panel if built else Placeholder), name


def test_a_dock_shown_from_the_view_menu_builds_its_panel(qtbot, lesson_window):
    window = lesson_window
    assert not window.panels.is_built("match"), "the first scene keeps it hidden"
    window.actions["show_match"].trigger()
    assert window.panels.is_built("match")
    match = window.panels["match"]
    assert window.docks["match"].widget() is match
    qtbot.waitUntil(match.isVisible)
    assert match.reasons_title.text() == tr("match.reasons_title")  # English, as the window
    assert match.model.rowCount() == len(window.document.view.key_names)
    assert window.docks["match"].windowTitle() == tr("match.title")


def test_a_panel_looked_up_by_name_is_built_in_the_current_look(qtbot, lesson_window):
    window = lesson_window
    window.presentation.set_presenting(True)
    try:
        names = [name for name in window.panels if not window.panels.is_built(name)]
        assert names, "some dock is still out of sight"
        panel = window.panels[names[0]]
        assert window.panels.is_built(names[0])
        assert window.docks[names[0]].widget() is panel
        assert panel.look == window.presentation.shown_look  # on the stage: as fitted
        assert list(window.panels) == list(window.docks)
        assert all(isinstance(p, Panel) for p in window.panels.values())  # every one, built
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()
