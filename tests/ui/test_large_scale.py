"""Panels at 200–250 % in the docks a 1280×720 projector leaves them: nothing is pushed past
the dock's edge, and what cannot fit gives way in a planned order."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from app.model.lesson.data import load_lesson_data
from app.startup import build_window, make_application
from app.state.document import Document
from app.ui.language import apply_language
from app.ui.look import Look
from app.ui.panels.editor.panel import EditorPanel
from app.ui.panels.playground.panel import PlaygroundPanel
from app.ui.presentation import restore_base_style, scale_app_font

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def zoom(panel, look: Look) -> None:
    """As presentation mode does: the application font (widgets inherit it), then the look."""
    scale_app_font(look.scale)
    panel.set_look(look)


def shown(qtbot, panel, width: int, height: int, look: Look):
    qtbot.addWidget(panel)
    panel.setMinimumSize(1, 1)  # a top-level layout would resize the window: offscreen warns
    zoom(panel, look)
    panel.resize(width, height)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


@pytest.fixture
def document():
    make_application()
    apply_language("en")
    yield Document(load_lesson_data())
    apply_language("zh")
    restore_base_style()


def test_editor_puts_k_under_q_when_both_do_not_fit_across(qtbot, document) -> None:
    panel = shown(qtbot, EditorPanel(document), 760, 440, Look(scale=1.0))
    q, k = panel.charts[("q", 0)].widget, panel.charts[("k", 0)].widget
    assert k.geometry().left() > q.geometry().right()  # side by side at 100 %
    zoom(panel, Look(scale=2.0))
    qtbot.waitUntil(lambda: k.geometry().top() > q.geometry().bottom())
    assert panel.role_marks[("k", 0)].isVisible() and not panel.role_headers["k"].isVisible()
    page = panel._scroll.widget()
    qtbot.waitUntil(lambda: page.width() <= panel._scroll.viewport().width())
    zoom(panel, Look(scale=1.0))
    qtbot.waitUntil(lambda: k.geometry().left() > q.geometry().right())


@pytest.mark.parametrize("language", ["zh", "en"])
def test_world_hint_shrinks_to_fit_a_small_dock(qtbot, document, language) -> None:
    apply_language(language)
    panel = shown(qtbot, PlaygroundPanel(document), 540, 400, Look(scale=2.5))
    assert document.state.world == "teaching"  # the playground shows its hint page
    page = panel._hint_page
    qtbot.waitUntil(lambda: page.isVisible())
    assert panel.switch_button.width() <= page.width()
    assert panel.switch_button.sizeHint().width() <= page.width()
    text = panel.hint.heightForWidth(panel.hint.width())
    assert text + panel.switch_button.height() <= page.height()
    assert panel.hint.font().pointSizeF() < 2.5 * 14, "it had to shrink"
    zoom(panel, Look(scale=1.0))
    assert panel.hint.font().pointSizeF() == 14, "with room it keeps the look's size"


def test_cramped_plane_drops_axis_titles_and_names_the_colour_bar(qtbot, document) -> None:
    document.set_world("dialogue")
    document.flush()
    panel = shown(qtbot, PlaygroundPanel(document), 640, 760, Look(scale=1.0))
    axis, bar = panel.plot.getAxis("bottom"), panel.landscape.colorbar.axis
    assert axis.label.isVisible() and panel.caption.isVisible() and not bar.label.isVisible()
    zoom(panel, Look(scale=2.0))
    panel.resize(640, 440)
    qtbot.waitUntil(lambda: not axis.label.isVisible())
    assert not panel.caption.isVisible() and bar.label.isVisible()
    assert "q·k" in bar.labelText


def test_starting_in_presentation_mode_lays_panels_out_as_switching_later(qtbot) -> None:
    """Fonts set before the first show used to leave the readouts' grid and the products'
    plot at their hidden-time sizes (rows overlapping, a page taller than its content)."""
    make_application()
    sizes = []
    for early in (True, False):
        window = build_window("en")
        qtbot.addWidget(window)
        window.files.begin_session(None, restore_last=False)
        window.document.set_world("dialogue")
        presentation = window.presentation
        if early:
            presentation.set_presenting(True)
            presentation.set_scale(2.0)
        window.resize(1280, 720)
        window.show()
        qtbot.waitExposed(window)
        if not early:
            presentation.set_presenting(True)
            presentation.set_scale(2.0)
        window.docks["expansion"].raise_()
        window.document.flush()
        readouts = window.panels["playground"].readouts
        key = readouts.cells[0]["key"]
        qtbot.waitUntil(lambda k=key: k.height() >= k.minimumSizeHint().height())
        QApplication.processEvents()
        bars = window.panels["expansion"].bars_plot
        sizes.append((key.size().toTuple(), bars.height()))
        window.close()
        restore_base_style()
    assert sizes[0] == sizes[1]
