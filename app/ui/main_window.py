"""The main window: the frame that hosts the docks, the menu bar, the toolbar and the status
bar. Its parts are built once, by the composition root (`app.ui.app`), and handed in."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QWidget

from app.i18n import tr
from app.state.document import Document
from app.state.lesson import LessonRun
from app.state.session import Session
from app.ui.actions.answers import AnswerActions
from app.ui.actions.drops import FileDrops
from app.ui.actions.exports import ExportActions
from app.ui.actions.files import FileActions
from app.ui.actions.models import ModelActions
from app.ui.actions.polling import PollActions
from app.ui.actions.presenting import PresentationActions
from app.ui.actions.registry import Actions
from app.ui.actions.scenes import SceneActions
from app.ui.layout.arrangement import Arrangement
from app.ui.layout.docks import DockHost
from app.ui.panels.base import Panel
from app.ui.presentation import Presentation
from app.ui.showing import Showing
from app.ui.status_line import StatusLine
from app.ui.toolbar import MainToolbar


@dataclass(frozen=True)
class WindowParts:
    """Everything that lives as long as one window, built once by the composition root."""

    session: Session
    lesson: LessonRun
    docks: DockHost
    arrangement: Arrangement
    presentation: Presentation
    actions: Actions
    files: FileActions
    drops: FileDrops
    exports: ExportActions
    presenting: PresentationActions
    polls: PollActions
    answers: AnswerActions
    scenes: SceneActions
    toolbar: MainToolbar
    status: StatusLine
    models: ModelActions
    showing: Showing


class MainWindow(QMainWindow):
    """Hosts every panel as a dock; owns no state of its own."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("main_window")
        self.setDockOptions(  # not animated: each drag step's relayout built 11 animations
            QMainWindow.DockOption.AllowTabbedDocks | QMainWindow.DockOption.AllowNestedDocks)
        self.parts: WindowParts | None = None
        document.undo_stack.cleanChanged.connect(self._update_title)
        self._update_title()

    def install(self, parts: WindowParts) -> None:
        """Take the parts the composition root built for this window."""
        self.parts = parts
        self.session, self.lesson, self.arrangement = (parts.session, parts.lesson,
                                                       parts.arrangement)
        self.presentation = parts.presentation
        # the attribute hides QWidget.actions() (the window's own QActions, which it never asks)
        self.actions = parts.actions  # type: ignore[method-assign, assignment]
        self.files, self.exports, self.scenes = parts.files, parts.exports, parts.scenes
        self.drops, self.slides = parts.drops, parts.scenes.slides
        self.models = parts.models
        self.panels, self.docks = parts.docks.panels, parts.docks.docks
        parts.session.path_changed.connect(lambda _path: self._update_title())
        parts.showing.changed.connect(self._update_title)
        self._update_title()

    def show_panel(self, name: str) -> Panel:
        """Bring a panel's dock to the front, up to date, and return the panel."""
        return self.parts.docks.show_panel(name)  # type: ignore[union-attr]

    def _update_title(self, clean: bool | None = None) -> None:
        """The open file's name, the imported head on screen, then the app's; `[*]` is where
        Qt marks unsaved changes. `clean` comes with the signal (the stack may be dying)."""
        clean = self.document.undo_stack.isClean() if clean is None else clean
        path = self.parts.session.current_path if self.parts is not None else None
        showing = self.parts.showing.text() if self.parts is not None else ""
        names = [f"{path.name}[*]" if path else "", showing,
                 tr("app.title") if path else f"{tr('app.title')}[*]"]
        self.setWindowTitle(" — ".join(name for name in names if name))
        self.setWindowModified(not clean)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Keys no widget took reach the window: Space steps the lesson, as a clicker's does."""
        if self.parts is None or not self.parts.scenes.step_key(event):
            super().keyPressEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._update_title()
        super().changeEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.parts is not None:
            self.parts.arrangement.save()
        super().closeEvent(event)

    def dispose(self) -> None:
        """Delete now, while Qt is whole: left to interpreter exit, plot items can crash it."""
        self.document.shutdown()
        self.deleteLater()
        QApplication.sendPostedEvents(self, QEvent.Type.DeferredDelete)
