"""Owns View → Presentation mode, zoom, theme, full screen and spotlight: the switches of
`Presentation`, declared with their check marks, and the projector look remembered for the
next class."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QMainWindow

from app.i18n import tr
from app.ui import settings as keys
from app.ui.actions.spec import ActionSpec
from app.ui.look import Look
from app.ui.presentation import THEME_CHOICES, Presentation
from app.ui.settings import settings
from app.ui.widgets.zoom_badge import ZoomBadge

THEME_KEYS = "LPD"
"""Ctrl+Alt+L, P, D: light, projector, dark."""


class PresentationActions(QObject):
    """The presentation switches; the look the teacher projects with is kept for next time."""

    def __init__(self, window: QMainWindow, presentation: Presentation) -> None:
        super().__init__(window)
        self.window = window
        self.presentation = presentation
        self.badge = ZoomBadge(window)
        presentation.look_changed.connect(self._on_look_changed)
        # the stage fits a build after the zoom step: the badge then says what it drew
        presentation.fitted.connect(
            lambda: self._show_zoom() if self.badge.isVisible() else None)
        window.installEventFilter(self)

    def action_specs(self) -> list[ActionSpec]:
        p, look = self.presentation, lambda: self.presentation.look
        specs = [
            ActionSpec("presentation", "classroom.action.presentation", p.set_presenting,
                       ("F5",), menu="view", section=2, toolbar=0, checkable=True,
                       checked=lambda: p.presenting),
            ActionSpec("leave_presentation", "classroom.action.leave_presentation",
                       lambda _=False: p.set_presenting(False), ("Esc",),
                       enabled=lambda: p.presenting),
            ActionSpec("zoom_in", "classroom.action.zoom_in", lambda _=False: self.zoom(p.zoom_in),
                       ("Ctrl+=", "Ctrl++"), menu="view", section=2),
            ActionSpec("zoom_out", "classroom.action.zoom_out",
                       lambda _=False: self.zoom(p.zoom_out), ("Ctrl+-",), menu="view", section=2),
            ActionSpec("zoom_reset", "classroom.action.zoom_reset",
                       lambda _=False: self.zoom(p.zoom_reset), ("Ctrl+0",), menu="view",
                       section=2),
            ActionSpec("full_screen", "classroom.action.full_screen", p.set_full_screen,
                       ("F11",), menu="view", section=2, checkable=True,
                       checked=self.window.isFullScreen),
            ActionSpec("spotlight", "classroom.action.spotlight", p.set_spotlight, ("F6",),
                       menu="view", section=2, checkable=True,
                       checked=lambda: look().spotlight),
        ]
        theme_titles = {"light": "classroom.theme.light",
                        "projector": "classroom.theme.projector", "dark": "classroom.theme.dark"}
        for letter, name in zip(THEME_KEYS, THEME_CHOICES, strict=True):
            # (type: ignore[misc]: mypy cannot infer a lambda whose default binds the loop's value)
            specs.append(ActionSpec(
                f"theme_{name}", theme_titles[name], lambda _=False, n=name: p.set_theme(n),
                (f"Ctrl+Alt+{letter}",), menu="view.theme", checkable=True, group="theme",
                checked=lambda n=name: p.theme_name == n))  # type: ignore[misc]
        return specs

    def zoom(self, step: Callable[[], None]) -> None:
        """A zoom step, and a badge that says where it went (again once the stage has fitted
        its build to it, on the next turn of the event loop)."""
        step()
        self._show_zoom()

    def _show_zoom(self) -> None:
        zoom = round(self.presentation.look.scale * 100)
        shown = round(self.presentation.shown_look.scale * 100)
        self.badge.flash(tr("classroom.scale", percent=zoom) if shown >= zoom
                         else tr("classroom.scale_fitted", percent=zoom, shown=shown))

    def _on_look_changed(self, look: Look) -> None:
        if self.presentation.presenting:
            store = settings()
            store.setValue(keys.PRESENTATION_SCALE, look.scale)
            store.setValue(keys.PRESENTATION_THEME, self.presentation.theme_name)
        self.window.statusBar().showMessage(
            tr("classroom.scale", percent=round(look.scale * 100)), 3000)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.presentation.set_presenting(False)  # the window saves the desk layout
        return False
