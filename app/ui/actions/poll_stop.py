"""Owns asking before the class poll stops: one stray P must not end it for every phone.

Keep running is the default, so Enter, Space and Esc (the keys a hand on the keyboard or a
clicker reaches for next) leave the poll alone; P again, or the stop button, stops it. A key
that steps the lesson (a clicker's PageDown, PageUp, B …) keeps the poll running and still
does what the presenter pressed it for: the question never swallows the clicker.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from app.i18n import tr

__all__ = ["StopQuestion"]

STOP_KEY = Qt.Key.Key_P


class StopQuestion(QMessageBox):
    """"Stop the poll?" for `phones` connected phones; once it is answered, `stops` says
    what the teacher chose. `actions` are the window's, those a key may pass on to."""

    def __init__(self, parent: QWidget, phones: int, actions: list[QAction]) -> None:
        super().__init__(QMessageBox.Icon.Question, tr("app.title"), tr("poll.stop.question"),
                         QMessageBox.StandardButton.NoButton, parent)
        self.setObjectName("poll_stop_question")
        self.setInformativeText(tr("poll.stop.detail", phones=phones))
        self.stop_button = QPushButton(tr("poll.stop.stop"), objectName="poll_stop")  # type: ignore[call-overload]
        self.keep_button = QPushButton(tr("poll.stop.keep"), objectName="poll_keep")  # type: ignore[call-overload]
        self.addButton(self.stop_button, QMessageBox.ButtonRole.DestructiveRole)
        self.addButton(self.keep_button, QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.keep_button)
        self.setEscapeButton(self.keep_button)
        self._actions = actions

    @property
    def stops(self) -> bool:
        """The teacher chose to stop the poll (False: kept it, or not answered yet)."""
        return self.clickedButton() is self.stop_button

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """P stops; a key one of the window's actions owns closes the question (the poll
        stays on) and then does its own work; every other key is the dialog's."""
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if event.key() == STOP_KEY and modifiers == Qt.KeyboardModifier.NoModifier:
            self.stop_button.click()
            return
        action = self._owner(QKeySequence(event.keyCombination()))
        if action is None:
            super().keyPressEvent(event)
            return
        self.keep_button.click()
        action.trigger()

    def _owner(self, pressed: QKeySequence) -> QAction | None:
        for action in self._actions:
            if action.isEnabled() and pressed in action.shortcuts():
                return action
        return None
