"""The list of docked panels and where each sits in the default layout."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt

from app.state.document import Document
from app.ui.panels.base import Panel

Area = Qt.DockWidgetArea
LEFT, RIGHT, BOTTOM = Area.LeftDockWidgetArea, Area.RightDockWidgetArea, Area.BottomDockWidgetArea


@dataclass(frozen=True)
class PanelSpec:
    """A dock declaration: the main window only assembles these (as Spyder plugins do)."""

    name: str
    factory: Callable[[Document], Panel]
    area: Qt.DockWidgetArea
    tab_with: str | None = None


def panel_specs() -> list[PanelSpec]:
    """Every dock in menu order; imported here, lazily, so the model layer stays Qt-free."""
    specs: list[PanelSpec] = []
    # one line per panel: specs.append(PanelSpec("name", PanelClass, AREA, tab_with=...))
    from app.ui.panels.editor import EditorPanel
    from app.ui.panels.playground import PlaygroundPanel

    specs.append(PanelSpec("playground", PlaygroundPanel, LEFT))
    specs.append(PanelSpec("editor", EditorPanel, LEFT, tab_with="playground"))
    from app.ui.panels.heatmap import HeatmapPanel

    specs.append(PanelSpec("heatmap", HeatmapPanel, RIGHT))
    from app.ui.panels.expansion import ExpansionPanel

    specs.append(PanelSpec("expansion", ExpansionPanel, RIGHT))  # below the heatmap
    from app.ui.panels.match_table import MatchTablePanel
    from app.ui.panels.shapes import ShapesPanel

    specs.append(PanelSpec("match", MatchTablePanel, BOTTOM))
    specs.append(PanelSpec("shapes", ShapesPanel, BOTTOM, tab_with="match"))
    from app.ui.panels.timeline import TimelinePanel

    specs.append(PanelSpec("timeline", TimelinePanel, BOTTOM, tab_with="match"))
    from app.ui.panels.guide import GuidePanel

    specs.append(PanelSpec("guide", GuidePanel, RIGHT, tab_with="heatmap"))
    return specs
