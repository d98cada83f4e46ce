"""Owns stepping through the lesson's scenes: which scene is on, what is revealed, and setting
a scene up through the document (one undo step each, so the class's edits stay undoable).

Returning to a scene the class changed brings their own state back and offers to set the
scene up again, instead of wiping what they did.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from app.model.lesson.scene_setup import with_pair
from app.model.lesson.scenes import Lesson, Scene, scene_state
from app.model.state import LabState
from app.state.document import Document


class LessonRun(QObject):
    """The current scene of one window's lesson and the teacher's reveals."""

    moved = Signal(int)
    """The current scene changed (0-based index)."""
    revealed = Signal(int)
    """The hidden answer of this scene was revealed."""
    offer_changed = Signal(bool)
    """Whether the stepper should offer to set the scene up again."""

    def __init__(self, document: Document, lesson: Lesson, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.lesson = lesson
        self.index = 0
        self._revealed: set[int] = set()
        self._left: dict[int, LabState] = {}  # the class's own state when it left a scene
        self._offer = False
        document.changed.connect(self._on_document_changed)

    @property
    def scene(self) -> Scene:
        return self.lesson.scenes[self.index]

    @property
    def count(self) -> int:
        return len(self.lesson.scenes)

    def setup(self, index: int | None = None) -> LabState:
        """The state scene `index` (default: the current one) starts from."""
        scene = self.lesson.scenes[self.index if index is None else index]
        return scene_state(scene, self.document.data)

    def is_revealed(self, index: int | None = None) -> bool:
        index = self.index if index is None else index
        return not self.lesson.scenes[index].hides_answer or index in self._revealed

    def holds_back(self, panel: str) -> bool:
        """Whether `panel` keeps its answering figures back now: the scene marks it withheld
        and has not been revealed (the stage and the lesson's docks ask alike)."""
        return not self.is_revealed() and panel in self.scene.withheld

    @property
    def offer(self) -> bool:
        return self._offer

    def go(self, index: int, set_up: bool = True) -> None:
        """Make scene `index` current. With `set_up`, the document gets the scene's setup, or
        the class's own state from their last visit (then the offer to set it up appears)."""
        index = min(max(int(index), 0), self.count - 1)
        state = self.document.state
        if state != self.setup():
            self._left[self.index] = state
        elif self.index in self._left:
            del self._left[self.index]
        self.index = index
        if set_up:
            own = self._left.get(index)
            if own is not None:
                self.document.load_state(own, "scene")
            else:
                self.document.apply_scene(self.scene)
        self.moved.emit(index)
        self._set_offer(self._left.get(index) is not None and set_up)

    def start(self, index: int, set_up: bool) -> None:
        """Open the lesson at `index` with no undo step: a first start or `--scene N` sets the
        scene up as the session's beginning; a restored session keeps its state."""
        self.index = min(max(int(index), 0), self.count - 1)
        if set_up:
            self.document.restore(self.setup())
        self.moved.emit(self.index)
        self._set_offer(False)

    def next(self) -> None:
        """Forward: the scene's hidden answer, then the next scene."""
        if not self.is_revealed():
            self.reveal()
        elif self.index < self.count - 1:
            self.go(self.index + 1)

    def previous(self) -> None:
        """Back: the previous scene."""
        if self.index > 0:
            self.go(self.index - 1)

    def first(self) -> None:
        """Start the lesson over: the first scene, every answer held back again until its
        Reveal. A teacher who rehearsed the lesson and then starts the class from its
        beginning would otherwise show every answer the rehearsal revealed; going back a
        scene at a time (a recap) keeps them."""
        self._revealed.clear()
        self.go(0)

    def last(self) -> None:
        self.go(self.count - 1)

    def reveal(self) -> None:
        """Show the scene's answer; a scene whose answer speaks of another pair selects that
        pair first, as one undo step, so the panels show the answer's own case."""
        if not self.is_revealed():
            self._revealed.add(self.index)
            pair = self.scene.reveal_select
            if pair is not None:
                state = with_pair(self.document.state, pair, self.scene.world,
                                  self.document.data)
                if state is not None:
                    self.document.select_step(state)
            self.revealed.emit(self.index)

    def forget_reveals(self) -> None:
        """A new class: every answer is held back again until its Reveal; the scene stays."""
        if self._revealed:
            self._revealed.clear()
            self.moved.emit(self.index)

    def set_up_again(self) -> None:
        """Back to the scene's own setup, as one undo step."""
        self._left.pop(self.index, None)
        self.document.apply_scene(self.scene)
        self._set_offer(False)

    def _set_offer(self, offer: bool) -> None:
        if offer != self._offer:
            self._offer = offer
            self.offer_changed.emit(offer)

    def _on_document_changed(self) -> None:
        """Once the document holds the scene's setup again (an undo, a reset) the offer goes."""
        if self._offer and self.document.state == self.setup():
            self._left.pop(self.index, None)
            self._set_offer(False)
