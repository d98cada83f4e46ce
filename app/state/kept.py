"""Owns the shape of what a session keeps beside the document's state: the class's poll
counts. The poll lives above this layer, so the window hands in an object of this shape; the
session and the autosave ask it at every write and give it what a file held at every open."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import SignalInstance

from app.model.answers.tally import SceneCounts

__all__ = ["Kept"]


class Kept(Protocol):
    """The counts a scenario and the autosave keep (`app.poll.classpoll.ClassPoll`)."""

    kept_changed: SignalInstance
    """What `kept` returns changed: the autosave writes it within a second."""

    def kept(self) -> tuple[SceneCounts, ...]:
        """The counts to write now (none: nothing to keep, and no field is written)."""

    def bring_back(self, scenes: tuple[SceneCounts, ...]) -> None:
        """Counts a file held, now the session's."""
