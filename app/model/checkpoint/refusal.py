"""Owns the one error a checkpoint folder raises when the app will not read it."""

from __future__ import annotations

from app.model.errors import AttentionLabError

__all__ = ["CheckpointError"]


class CheckpointError(AttentionLabError):
    """A checkpoint folder, file, text or layer the app refuses: its message is one sentence a
    student can act on (which file, which field, what is wrong), never a traceback."""
