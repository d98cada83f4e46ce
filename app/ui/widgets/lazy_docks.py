"""Owns building each dock's panel when it is first needed, so a start builds only what the
first screen shows (the lesson's first scene shows two panels; it hides the other docks).

Every dock exists from the start (layouts, tabs, the View menu and saved window states need
them); until its panel is built it holds a `Placeholder`, which builds the panel when the dock
is first shown. `LazyPanels` maps names to panels and builds one when it is asked for, so code
and tests that look a panel up by name get it, built and up to date, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QWidget

from app.model.lazy_map import LazyMap
from app.ui.panels.base import Panel


class Placeholder(QWidget):
    """Stands in a dock until its panel is built; asks for it when the dock is first shown."""

    def __init__(self, name: str, build: Callable[[str], object]) -> None:
        super().__init__()
        self.setObjectName(f"placeholder_{name}")
        self._name = name
        self._build = build

    def showEvent(self, event: QShowEvent) -> None:
        """Shown, even behind a tab: build now, so the panel is there before anything paints
        or looks for its widgets (a dock the lesson keeps hidden is never shown)."""
        super().showEvent(event)
        self._build(self._name)


class LazyPanels(LazyMap[Panel]):
    """Panels by name, in the registry's order; looking one up builds it if need be."""

    def build(self, name: str) -> Panel:
        """The panel, built now if it was not yet."""
        return self[name]

    def built(self) -> dict[str, Panel]:
        """The panels built so far (restyling or retranslating the rest would build them)."""
        return self.computed()

    def is_built(self, name: str) -> bool:
        return self.is_computed(name)
