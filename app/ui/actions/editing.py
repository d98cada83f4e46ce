"""Owns Edit → Undo, Redo and Reset (the lesson's data; in the lesson, the scene's setup)
and the World menu (its worlds; F8 steps through the scorers): the actions that act
on the document itself, with keys that work on the stage too."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QKeySequence

from app.model.scoring import SCORERS
from app.model.state import WORLDS
from app.state.document import Document
from app.ui.actions.spec import ActionSpec
from app.ui.widgets.scorer_choice import unusable_tip
from app.ui.widgets.world_scorer import world_title


def redo_keys() -> tuple[QKeySequence | QKeySequence.StandardKey | str, ...]:
    """Redo answers to Ctrl+Y and Ctrl+Shift+Z on every system (Windows users reach for the
    first, Linux and macOS users for the second), plus whatever the platform calls Redo."""
    return ("Ctrl+Y", "Ctrl+Shift+Z", QKeySequence.StandardKey.Redo)


def editing_specs(document: Document, reset: Callable[[], None],
                  reset_title: Callable[[], str]) -> list[ActionSpec]:
    """`reset` is Ctrl+R: what "start again" means where the teacher is (`reset_title`)."""
    stack = document.undo_stack
    specs = [
        ActionSpec("undo", "action.undo", stack.undo, (QKeySequence.StandardKey.Undo,),
                   menu="edit", toolbar=2, enabled=stack.canUndo),
        ActionSpec("redo", "action.redo", stack.redo, redo_keys(), menu="edit", toolbar=2,
                   enabled=stack.canRedo),
        ActionSpec("reset_lesson", reset_title, lambda _=False: reset(), ("Ctrl+R",),
                   menu="edit", toolbar=2),
    ]
    specs += [
        ActionSpec("scorer_next", "action.scorer_next", lambda _=False: _step_scorer(document, 1),
                   ("F8",), menu="world", section=1),
        ActionSpec("scorer_previous", "action.scorer_previous",
                   lambda _=False: _step_scorer(document, -1), ("Shift+F8",), menu="world",
                   section=1),
    ]
    # (type: ignore[misc]: mypy cannot infer a lambda whose default binds the loop's value)
    specs += [ActionSpec(f"world_{world}",
                         lambda w=world: world_title(w, document.state),  # type: ignore[misc]
                         lambda _=False, w=world: document.set_world(w), (f"Ctrl+{number}",),
                         menu="world", checkable=True, group="world",
                         checked=lambda w=world: document.state.world == w,  # type: ignore[misc]
                         enabled=(lambda: document.state.imported is not None)
                         if world == "imported" else None)
              for number, world in enumerate(WORLDS, start=1)]
    return specs


def _step_scorer(document: Document, step: int) -> None:
    """The next (or previous) scorer the world can use, round the list: one key a teacher
    presses on the stage, where there is no toolbar."""
    names = list(SCORERS)
    at = names.index(document.state.scorer)
    for turn in range(1, len(names)):
        name = names[(at + step * turn) % len(names)]
        if unusable_tip(document, name) is None:
            document.set_scorer(name)
            return
