"""Owns finding the docked panels: every package under `app/ui/panels/` that declares a
`SPEC` in its `__init__.py` is a dock, placed where its spec says in the default layout.
Adding a dock is adding such a package; nothing else lists the docks.

A spec says all the window needs before the panel exists (its title, its world, where it
sits), so a package's `__init__.py` imports nothing of its panel: the panel's module is
imported when its dock is first built, and a dock off the first screen costs no start-up."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt

from app.i18n import tr
from app.model.state import LabState, World
from app.ui.panels.base import Panel

Area = Qt.DockWidgetArea
LEFT, RIGHT = Area.LeftDockWidgetArea, Area.RightDockWidgetArea
PANELS_PACKAGE = "app.ui.panels"


@dataclass(frozen=True)
class PanelSpec:
    """A dock declaration: the main window only assembles these (as Spyder plugins do)."""

    name: str
    panel: type[Panel] | str
    """The panel's class, or the name of its class in the package's `panel` module (imported
    only when the dock is first built)."""
    area: Qt.DockWidgetArea
    order: int = 100
    """Place in the View menu (Alt+1 …) and in building the docks (a tab joins an earlier one)."""
    tab_with: str | None = None
    share: float | None = None
    """Its column's height it takes in the default layout (the rest shares what is left)."""
    in_scenes: bool = True
    """A lesson scene may show it as its data (the guide, which steps the lesson, may not)."""
    title: str | Callable[[LabState], str] = ""
    """The dock's title: a catalogue key, or the title for a state (the editor names the
    world's width)."""
    world: World | None = None
    """The one world the panel edits (its dock is put away while the other is open)."""
    observes_while_hidden: bool = False
    """The panel must see every change, not only the latest state: it is built with the
    window, and its class reads this (`Panel.observes_while_hidden`)."""

    @property
    def factory(self) -> type[Panel]:
        """The panel's class, its module imported on first use."""
        if not isinstance(self.panel, str):
            return self.panel
        module = importlib.import_module(f"{PANELS_PACKAGE}.{self.name}.panel")
        return getattr(module, self.panel)

    def dock_title(self, state: LabState) -> str:
        """The dock's title for this state, in the current language."""
        return tr(self.title) if isinstance(self.title, str) else self.title(state)


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
