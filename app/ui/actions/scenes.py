"""Owns stepping through the lesson's scenes with a presentation clicker's keys (PageDown /
PageUp, Space / Shift+Space, Home / End), and keeping those keys for the clicker when a
scene changes. Where the docks go for each scene is the arrangement's (`app.ui.layout`)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QMainWindow

from app.i18n import tr
from app.ui.actions.spec import ActionSpec
from app.ui.layout.arrangement import Arrangement
from app.ui.layout.slides import Slides


class SceneActions(QObject):
    """Window-wide stepping over one lesson's scenes and their builds, live while the lesson
    is on."""

    def __init__(self, window: QMainWindow, slides: Slides, arrangement: Arrangement) -> None:
        super().__init__(window)
        self.window = window
        self.slides = slides
        self.run = run = slides.lesson
        self.arrangement = arrangement
        run.moved.connect(lambda _index: self._keep_keys_for_the_clicker())

    def action_specs(self) -> list[ActionSpec]:
        run, on = self.run, self._in_lesson
        return [
            ActionSpec("scene_next", "lesson.action.next", self.slides.next, ("PgDown",),
                       enabled=on),
            ActionSpec("scene_previous", "lesson.action.previous", self.slides.previous, ("PgUp",),
                       enabled=on),
            ActionSpec("scene_first", "lesson.action.first", run.first, ("Home",), enabled=on),
            ActionSpec("scene_last", "lesson.action.last", run.last, ("End",), enabled=on),
        ]

    def reset(self) -> None:
        """Ctrl+R: in the lesson, the scene's own setup again (scene 5 asks about T = 4,096:
        the lesson's five tokens would not answer it); at the desk, the lesson's data."""
        if self.arrangement.in_lesson:
            self.run.set_up_again()
        else:
            self.run.document.reset_to_lesson()

    def reset_title(self) -> str:
        return tr("lesson.action.set_up" if self.arrangement.in_lesson
                  else "action.reset_lesson")

    def _in_lesson(self) -> bool:
        return self.arrangement.in_lesson

    def step_key(self, event: QKeyEvent) -> bool:
        """Space / Shift+Space that no focused widget used (a text field types it, a button
        presses, a list opens) steps the lesson. They are not shortcuts, which would take the
        key from those widgets first: the window sees only the keys nobody else accepted."""
        if not self.arrangement.in_lesson or event.key() != Qt.Key.Key_Space:
            return False
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if modifiers == Qt.KeyboardModifier.NoModifier:
            self.slides.next()
        elif modifiers == Qt.KeyboardModifier.ShiftModifier:
            self.slides.previous()
        else:
            return False
        return True

    def _keep_keys_for_the_clicker(self) -> None:
        """A new scene hides the panel that had the focus and Qt hands it on, often to the
        toolbar's world list, where the next Space would open it. Focus stays only inside a
        panel the scene shows; otherwise the window takes it, so Space steps the lesson."""
        focus = QApplication.focusWidget()
        if focus is not None and any(dock.isVisible() and dock.isAncestorOf(focus)
                                     for dock in self.arrangement.docks.values()):
            return
        self.window.setFocus(Qt.FocusReason.OtherFocusReason)
