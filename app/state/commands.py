"""Undo commands: each holds the state before and after, so undo is exact by construction
(the selected pair excepted: it is where the class looks, not an edit, see `apply_history`;
a step that only selects, a scene's Reveal, gives its selection back exactly)."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from PySide6.QtGui import QUndoCommand

from app.model.state import LabState


class History(Protocol):
    """What a command installs states into (the document)."""

    def apply_state(self, state: LabState) -> None: ...

    def apply_history(self, state: LabState) -> None: ...


class StateCommand(QUndoCommand):
    """Swap the whole state; commands with the same merge id fold into one undo step."""

    DRAG_BASE = 1000

    def __init__(self, document: History, before: LabState, after: LabState, text: str,
                 merge: int = -1) -> None:
        super().__init__(text)
        self._document = document
        self.before = before
        self.after = after
        self._merge = merge
        self._done = False
        self._selects = ((before.query, before.key) != (after.query, after.key)
                         and replace(before, query=after.query, key=after.key) == after)
        """The step is a selection alone: undo and redo move the selection itself (an edit
        that keeps the pair is none, and needs no state built to say so)."""

    def id(self) -> int:
        return self._merge

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, StateCommand) or other.id() != self._merge:
            return False
        self.after = other.after
        # Qt deletes `other` now, but PySide, which makes the undo stack own a command once
        # its push returns, keeps it referenced from the stack's Python side for good: it
        # must not keep its states (each step of a drag on a 4,096-token import has its own
        # 2 MiB of vectors: a minute of dragging kept gigabytes)
        del other.before, other.after
        return True

    def redo(self) -> None:
        if self._done and not self._selects:  # Redo: the edit comes back, the selection stays
            self._document.apply_history(self.after)
        else:  # the push itself: the new state exactly as asked (an opened file's pair too)
            self._done = True
            self._document.apply_state(self.after)

    def undo(self) -> None:
        if self._selects:
            self._document.apply_state(self.before)
        else:
            self._document.apply_history(self.before)
