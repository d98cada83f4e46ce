"""Owns joining the poll to the lesson: each scene's question is asked when the lesson moves
to it, and frozen when the teacher reveals its answer (or at once, if it already was)."""

from __future__ import annotations

from PySide6.QtCore import QObject

from app.model.lesson.figures import figures_of
from app.poll.classpoll import ClassPoll
from app.poll.questions import Question, scene_question
from app.state.lesson import LessonRun
from app.ui.lesson_values import lesson_values

__all__ = ["LessonPoll"]


class LessonPoll(QObject):
    """Keeps `poll` on `run`'s current scene. Call `refresh` after a language switch, so the
    phones get the question in the teacher's new language (their answers stay counted)."""

    def __init__(self, poll: ClassPoll, run: LessonRun, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.poll, self.run = poll, run
        self.figures = figures_of(run.document.data)
        run.moved.connect(self._on_moved)
        run.revealed.connect(self._on_revealed)
        self.refresh()

    def question(self) -> Question | None:
        """The current scene's question, filled in the current language."""
        values = lesson_values(self.figures, self.run.document.data)
        return scene_question(self.run.scene, values, self.figures)

    def refresh(self) -> None:
        question = self.question()
        self.poll.set_question(question)
        if question is not None and self.run.is_revealed():
            self.poll.freeze()

    def _on_moved(self, _index: int) -> None:
        self.refresh()

    def _on_revealed(self, index: int) -> None:
        if index == self.run.index:
            self.poll.freeze()
