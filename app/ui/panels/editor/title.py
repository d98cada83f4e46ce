"""Owns the editor dock's title, which names the width of the world it edits. Apart from the
panel, so the window titles the dock before the panel's module is ever imported."""

from __future__ import annotations

from app.i18n import tr
from app.model.state import LabState

LESSON_D = 4
"""The lesson's teaching world is 4-D: the title names any other width."""


def editor_title(state: LabState) -> str:
    """"4-D editor" for the lesson's world; the width when it was reshaped or imported."""
    if state.world == "imported" and state.imported is not None:
        return tr("editor.title_imported", d=state.imported.queries.shape[1])
    d = state.teaching_q.shape[1]
    return tr("editor.title") if d == LESSON_D else tr("editor.title_width", d=d)
