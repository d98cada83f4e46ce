"""Owns finding the docked panels: every package under `app/ui/panels/` that declares a
`SPEC` in its `__init__.py` is a dock, placed where its spec says in the default layout.
Adding a dock is adding such a package; nothing else lists the docks."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

from PySide6.QtCore import Qt

from app.ui.panels.base import Panel

Area = Qt.DockWidgetArea
LEFT, RIGHT = Area.LeftDockWidgetArea, Area.RightDockWidgetArea
PANELS_PACKAGE = "app.ui.panels"


@dataclass(frozen=True)
class PanelSpec:
    """A dock declaration: the main window only assembles these (as Spyder plugins do)."""

    name: str
    factory: type[Panel]
    area: Qt.DockWidgetArea
    order: int = 100
    """Place in the View menu (Alt+1 …) and in building the docks (a tab joins an earlier one)."""
    tab_with: str | None = None
    share: float | None = None
    """Its column's height it takes in the default layout (the rest shares what is left)."""
    in_scenes: bool = True
    """A lesson scene may show it as its data (the guide, which steps the lesson, may not)."""


def panel_specs() -> list[PanelSpec]:
    """Every dock in menu order, laid out to fit a 1280×720 projector.

    Left, full height: the two editors and the panels one reads (they drive the views on the
    right, so a stage picked in the timeline shows its effect beside it). Right: the score
    matrix over the term-by-term expansion and the match table.
    """
    package = importlib.import_module(PANELS_PACKAGE)
    specs = []
    for found in pkgutil.iter_modules(package.__path__):
        if found.ispkg:
            module = importlib.import_module(f"{PANELS_PACKAGE}.{found.name}")
            spec = getattr(module, "SPEC", None)
            if isinstance(spec, PanelSpec):
                specs.append(spec)
    return sorted(specs, key=lambda spec: (spec.order, spec.name))


def scene_panels() -> tuple[str, ...]:
    """The docks a lesson scene may show as its data (the guide steps the lesson itself)."""
    return tuple(spec.name for spec in panel_specs() if spec.in_scenes)
