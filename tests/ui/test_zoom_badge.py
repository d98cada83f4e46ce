"""Zoom you can see: each zoom step flashes a badge with the zoom, and with the scale the
stage really drew when a build had to be fitted smaller; Ctrl+0 goes back to the mode's own
default (the projector's 150 %), and Esc leaves presentation mode."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.i18n import tr
from app.ui.presentation import PRESENTATION_SCALE, restore_base_style
from tests.ui.staging import project


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _said(presentation) -> str:
    """The zoom, and the scale the stage drew at when that is smaller."""
    zoom, shown = (round(look.scale * 100) for look in (presentation.look,
                                                         presentation.shown_look))
    return (tr("classroom.scale", percent=zoom) if shown >= zoom
            else tr("classroom.scale_fitted", percent=zoom, shown=shown))


def test_a_zoom_step_says_where_it_went_and_ctrl_0_is_the_projectors_default(
        qtbot, open_window) -> None:
    window = open_window("en")
    window.resize(1024, 768)
    presentation, badge = window.presentation, window.parts.presenting.badge
    try:
        window.arrangement.open_scene(6, set_up=True)
        project(window)
        _settle()
        assert not badge.isVisible()
        for _ in range(4):
            window.actions["zoom_in"].trigger()
            _settle()
        assert presentation.look.scale > PRESENTATION_SCALE
        assert badge.isVisible() and badge.geometry().intersects(window.rect())
        assert badge.text() == _said(presentation)
        window.actions["zoom_reset"].trigger()
        _settle()
        assert presentation.look.scale == PRESENTATION_SCALE
        assert badge.text() == _said(presentation)
        qtbot.waitUntil(lambda: not badge.isVisible(), timeout=5000)
        qtbot.keyClick(window, Qt.Key.Key_Escape)
        _settle()
        assert not presentation.presenting and not window.arrangement.on_stage
        qtbot.keyClick(window, Qt.Key.Key_Escape)  # at the desk, Esc changes nothing
        _settle()
        assert not presentation.presenting
    finally:
        presentation.set_presenting(False)
        restore_base_style()
