"""Owns what the teacher does with the class's answers: clear this scene's, start a new class
(the answers so far go to the history) and open the history of earlier classes, with its CSV.

Clearing a scene asks nothing and is one Ctrl+Z: in front of sixty students a question box
would stand on the projector and stop the lesson, while a slip of the keys is undone at once
and the status bar says how. A new class asks nothing either: nothing is lost, the answers
are in the history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QMainWindow, QMessageBox, QWidget

from app.i18n import tr
from app.model.answers.class_history import history_csv
from app.model.answers.tally import SceneCounts
from app.poll.classpoll import ClassPoll
from app.state.class_history import ClassHistory
from app.state.document import Document
from app.state.lesson import LessonRun
from app.ui.actions.common import warn
from app.ui.actions.exports import ExportActions
from app.ui.actions.spec import ActionSpec
from app.ui.format import format_number

if TYPE_CHECKING:  # the dialog is imported when first opened, not by every start
    from app.ui.widgets.answer_history import AnswerHistory

STATUS_MS = 8000


class ClearAnswers(QUndoCommand):
    """One scene's answers cleared; undo puts them back (frozen: which phone gave which
    answer is not kept, so no one could change theirs without being counted twice)."""

    def __init__(self, poll: ClassPoll, scene: str, text: str) -> None:
        super().__init__(text)
        self.poll, self.scene = poll, scene
        self.counts: SceneCounts | None = None

    def redo(self) -> None:
        cleared = self.poll.clear_scene(self.scene)
        if cleared is not None:
            self.counts = cleared

    def undo(self) -> None:
        if self.counts is not None:
            self.poll.put_back(self.counts)


class AnswerActions(QObject):
    """The class's answers as the teacher manages them."""

    def __init__(self, window: QMainWindow, poll: ClassPoll, lesson: LessonRun,
                 history: ClassHistory, document: Document, exports: ExportActions,
                 console: QWidget | None = None) -> None:
        super().__init__(window)
        self.window, self.poll, self.lesson = window, poll, lesson
        self.history, self.document, self.exports = history, document, exports
        self.console = console
        """The presenter's window: the history opens there while it is shown (the projector
        shows the stage)."""
        self.dialog: AnswerHistory | None = None
        self.message: QMessageBox | None = None
        self._trouble: tuple[str, str] | None = None
        """A history problem heard before the window was shown: said when it is."""
        history.troubled.connect(self._on_troubled)
        window.installEventFilter(self)

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec("clear_answers", "answers.action.clear", self.clear_scene,
                       ("Ctrl+Shift+Del",), menu="view", section=3,
                       enabled=lambda: self.poll.answered(self.lesson.scene.id)),
            ActionSpec("new_class", "answers.action.new_class", self.new_class,
                       ("Ctrl+Shift+N",), menu="view", section=3),
            ActionSpec("answer_history", "answers.action.history", self.open_history,
                       ("Ctrl+H",), menu="view", section=3),
        ]

    # ---- clearing and starting again --------------------------------------------------------

    def clear_scene(self) -> bool:
        """Clear the current scene's answers as one undo step; says so, and how to undo."""
        scene = self.lesson.scene
        counts = self.poll.counts(scene.id)
        if counts is None or not counts.total:
            self._status(tr("answers.nothing_to_clear", number=self.lesson.index + 1))
            return False
        self.document.undo_stack.push(ClearAnswers(self.poll, scene.id,
                                                   tr("answers.undo.clear")))
        self._status(tr("answers.cleared", count=format_number(counts.total),
                        number=self.lesson.index + 1))
        return True

    def new_class(self) -> bool:
        """The class so far goes to the history; the next one starts with no answers and
        every answer held back until its Reveal."""
        self.lesson.forget_reveals()  # first: the question is asked again, not frozen
        kept = self.poll.new_class()
        if not kept:
            self._status(tr("answers.new_class_empty"))
            return True
        written = self.history.add(kept)
        self._status(tr("answers.new_class" if written else "answers.new_class_unwritten",
                        count=format_number(sum(s.total for s in kept))))
        return written

    # ---- the history ------------------------------------------------------------------------

    def open_history(self) -> AnswerHistory:
        """The dialog of earlier classes, on the teacher's screen (the console's when it is up)."""
        parent = self.console if self.console is not None and self.console.isVisible() \
            else self.window
        if self.dialog is None or self.dialog.parentWidget() is not parent:
            if self.dialog is not None:
                self.dialog.deleteLater()
            from app.ui.widgets.answer_history import AnswerHistory

            self.dialog = AnswerHistory(self.history, self.export_dialog, self._scene_name,
                                        parent)
        self.dialog.refresh()
        self.dialog.show()
        return self.dialog

    def _scene_name(self, scene: str) -> str:
        numbers = [i + 1 for i, s in enumerate(self.lesson.lesson.scenes) if s.id == scene]
        return tr("answers.history.scene_name", number=numbers[0], id=scene) if numbers \
            else scene

    def export_dialog(self) -> None:
        path = self.exports.ask_csv_path(tr("answers.history.export_dialog"),
                                         "class-history.csv")
        if path is not None:
            self.exports.export_csv(path, self.csv_text())

    def csv_text(self) -> str:
        """Every earlier class's counts, as the CSV export writes them."""
        return history_csv(self.history.records())

    # ---- what went wrong --------------------------------------------------------------------

    def _on_troubled(self, problem: str, kept_as: str) -> None:
        if not self.window.isVisible():
            self._trouble = (problem, kept_as)
            return
        self._say(problem, kept_as)

    def _say(self, problem: str, kept_as: str) -> None:
        detail = (tr("answers.history.kept_aside", problem=problem, path=kept_as) if kept_as
                  else tr("answers.history.not_written", problem=problem,
                          path=str(self.history.path)))
        self.message = warn(self.window, tr("answers.history.trouble"), detail)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.window and event.type() == QEvent.Type.Show
                and self._trouble is not None):
            trouble, self._trouble = self._trouble, None
            self._say(*trouble)
        return False

    def _status(self, text: str) -> None:
        self.window.statusBar().showMessage(text, STATUS_MS)
