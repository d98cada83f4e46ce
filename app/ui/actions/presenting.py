"""Owns View → Presentation mode, zoom, theme, full screen and spotlight: the switches of
`Presentation`, their check marks, and the projector look remembered for the next class."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMainWindow, QMenu

from app.i18n import tr
from app.ui import settings as keys
from app.ui.actions.common import make_action
from app.ui.look import Look
from app.ui.presentation import THEME_CHOICES, Presentation
from app.ui.settings import settings

SWITCHES = ("presentation", "zoom_in", "zoom_out", "zoom_reset", "full_screen", "spotlight")


class PresentationActions(QObject):
    """The presentation switches, kept in step with the controller and the window's state."""

    def __init__(self, window: QMainWindow, presentation: Presentation) -> None:
        super().__init__(window)
        self.window = window
        self.presentation = p = presentation
        self.actions: dict[str, QAction] = {}
        make_action(window, self.actions, "presentation", ["F5"], p.set_presenting,
                    checkable=True)
        make_action(window, self.actions, "zoom_in", ["Ctrl+=", "Ctrl++"], p.zoom_in)
        make_action(window, self.actions, "zoom_out", ["Ctrl+-"], p.zoom_out)
        make_action(window, self.actions, "zoom_reset", ["Ctrl+0"], p.zoom_reset)
        make_action(window, self.actions, "full_screen", ["F11"], p.set_full_screen,
                    checkable=True)
        make_action(window, self.actions, "spotlight", ["F6"], p.set_spotlight, checkable=True)
        self._theme_group = QActionGroup(self)
        self._theme_group.setExclusionPolicy(QActionGroup.ExclusionPolicy.Exclusive)
        for number, name in enumerate(THEME_CHOICES, start=1):
            action = make_action(window, self.actions, f"theme_{name}",
                                 [f"Ctrl+Alt+{'LPD'[number - 1]}"],
                                 lambda _=False, n=name: p.set_theme(n), checkable=True)
            self._theme_group.addAction(action)
        self.theme_menu = QMenu(window)
        self.theme_menu.addActions(self._theme_group.actions())
        p.look_changed.connect(self._on_look_changed)
        p.presenting_changed.connect(lambda _on: self._sync_checks())
        window.installEventFilter(self)
        self._sync_checks()

    def retranslate(self) -> None:
        for name in SWITCHES:
            self.actions[name].setText(tr(f"classroom.action.{name}"))
        for name in THEME_CHOICES:
            self.actions[f"theme_{name}"].setText(tr(f"classroom.theme.{name}"))
        self.theme_menu.setTitle(tr("classroom.menu.theme"))

    def _on_look_changed(self, look: Look) -> None:
        if self.presentation.presenting:
            store = settings()
            store.setValue(keys.PRESENTATION_SCALE, look.scale)
            store.setValue(keys.PRESENTATION_THEME, self.presentation.theme_name)
        self._sync_checks()
        self.window.statusBar().showMessage(
            tr("classroom.scale", percent=round(look.scale * 100)), 3000)

    def _sync_checks(self) -> None:
        """Mirror the controller. Every theme item is set, not only the new one: with signals
        blocked the exclusive group never hears of a check, so it cannot clear the old one."""
        look, theme = self.presentation.look, self.presentation.theme_name
        for name, checked in (("presentation", self.presentation.presenting),
                              ("spotlight", look.spotlight),
                              ("full_screen", self.window.isFullScreen()),
                              *((f"theme_{n}", n == theme) for n in THEME_CHOICES)):
            action = self.actions[name]
            action.blockSignals(True)
            action.setChecked(checked)
            action.blockSignals(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.WindowStateChange:
            self._sync_checks()
        elif watched is self.window and event.type() == QEvent.Type.Close:
            self.presentation.set_presenting(False)  # the window saves the desk layout
        return False
