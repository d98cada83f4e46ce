"""Owns how an action and a menu are declared: what it is called, its keys, where it sits and
when it is enabled or checked. The objects that own what an action does declare it beside
that code; `registry.Actions` makes the QActions, menus and the toolbar show them.

Anchored on napari's app-model (`Action(id, title, keybindings, menus, enablement)`): the
window holds no attribute per action, and nothing retranslates a menu by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence

Keys = tuple[QKeySequence | QKeySequence.StandardKey | str, ...]


@dataclass(frozen=True)
class ActionSpec:
    """One window-wide action. `title` is a string key, or a function giving the text (a
    language's own name, a recent file's), or None for an `existing` action its owner
    titles. `checked`, `enabled`, `visible` and `tip` are read
    again whenever the window's state may have changed (`Actions.update`)."""

    id: str
    title: str | Callable[[], str] | None
    triggered: Callable[..., object] | None = None
    keys: Keys = ()
    menu: str | None = None
    """The menu's id (`MenuSpec.id`) this action is listed in; None: keys only."""
    section: int = 0
    """Actions of one menu are grouped by section, a separator between groups."""
    toolbar: int | None = None
    """Position on the main toolbar (smaller first); None: not on it."""
    checkable: bool = False
    checked: Callable[[], bool] | None = None
    enabled: Callable[[], bool] | None = None
    visible: Callable[[], bool] | None = None
    tip: Callable[[], str] | None = None
    group: str | None = None
    """Checkable actions of one group exclude each other (the language, the world)."""
    existing: QAction | None = None
    """An action Qt already made (a dock's toggle): adopted as it is, titled by its owner."""


@dataclass(frozen=True)
class MenuSpec:
    """One menu: its title key, and the menu it sits in (None: the menu bar) and where."""

    id: str
    title: str
    parent: str | None = None
    section: int = 0
