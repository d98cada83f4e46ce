"""The list of docked panels and where each sits in the default layout."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt

from app.state.document import Document
from app.ui.panels.base import Panel

Area = Qt.DockWidgetArea
LEFT, RIGHT = Area.LeftDockWidgetArea, Area.RightDockWidgetArea


@dataclass(frozen=True)
class PanelSpec:
    """A dock declaration: the main window only assembles these (as Spyder plugins do)."""

    name: str
    factory: Callable[[Document], Panel]
    area: Qt.DockWidgetArea
    tab_with: str | None = None


def panel_specs() -> list[PanelSpec]:
    """Every dock in menu order (Alt+1 …), laid out to fit a 1280×720 projector.

    Left, full height: the two editors and the panels one reads (they drive the views on the
    right, so a stage picked in the timeline shows its effect beside it). Right: the score
    matrix over the term-by-term expansion and the match table. Imported here so building the
    list is cheap until it is used.
    """
    from app.ui.panels.editor.panel import EditorPanel
    from app.ui.panels.expansion.panel import ExpansionPanel
    from app.ui.panels.guide.panel import GuidePanel
    from app.ui.panels.heatmap.panel import HeatmapPanel
    from app.ui.panels.landscapes.panel import LandscapesPanel
    from app.ui.panels.match.panel import MatchTablePanel
    from app.ui.panels.playground.panel import PlaygroundPanel
    from app.ui.panels.shapes.panel import ShapesPanel
    from app.ui.panels.timeline.panel import TimelinePanel

    return [
        PanelSpec("playground", PlaygroundPanel, LEFT),
        PanelSpec("editor", EditorPanel, LEFT, tab_with="playground"),
        PanelSpec("heatmap", HeatmapPanel, RIGHT),
        PanelSpec("expansion", ExpansionPanel, RIGHT),
        PanelSpec("match", MatchTablePanel, RIGHT, tab_with="expansion"),
        PanelSpec("shapes", ShapesPanel, LEFT, tab_with="playground"),
        PanelSpec("timeline", TimelinePanel, LEFT, tab_with="playground"),
        PanelSpec("guide", GuidePanel, LEFT, tab_with="playground"),
        PanelSpec("landscapes", LandscapesPanel, RIGHT, tab_with="expansion"),
    ]
