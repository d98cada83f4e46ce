"""Owns the builds of the scene on the stage: which of them is on, and stepping through them
before the lesson steps on, as a slide builds before the next slide. The lesson itself (which
scene, what is revealed) knows nothing of them; off the stage a scene is one build."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject, Signal

from app.state.lesson import LessonRun


class Slides(QObject):
    """The clicker's forward and back: the scene's next build, else the lesson's next step."""

    built = Signal(int)
    """Another build of the scene is on (0-based)."""

    def __init__(self, lesson: LessonRun, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.lesson = lesson
        self.build = 0
        """Which of the scene's builds is on (0: the first)."""
        self.builds = 1
        """How many builds the stage needs for what the scene shows now (1 off the stage)."""
        # a new scene, or its answer, starts from its first build; connected before anything
        # that draws the stage, so those read the build already reset
        lesson.moved.connect(self._restart)
        lesson.revealed.connect(self._restart)

    def _restart(self, _index: int) -> None:
        self.build = 0

    def set_builds(self, count: int) -> None:
        """How many builds what the scene shows now needs (the stage decides, from the room
        each panel needs to be read); the build on stays inside them."""
        self.builds = max(1, int(count))
        if self.build >= self.builds:
            self.build = self.builds - 1
            self.built.emit(self.build)

    @contextmanager
    def ahead(self) -> Iterator[None]:
        """The scene's next build counts as on, and nothing is told: the stage lays it out
        once, for the console's picture of what the next click brings."""
        self.build += 1
        try:
            yield
        finally:
            self.build -= 1

    def next(self) -> None:
        """Forward, as a clicker means it: the scene's next build, then the lesson's next step
        (its hidden answer, then the next scene)."""
        if self.build + 1 < self.builds:
            self.build += 1
            self.built.emit(self.build)
        else:
            self.lesson.next()

    def previous(self) -> None:
        """Back: the scene's previous build, then the previous scene."""
        if self.build > 0:
            self.build -= 1
            self.built.emit(self.build)
        else:
            self.lesson.previous()
