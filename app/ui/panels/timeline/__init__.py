"""The timeline dock: how attention evolved, stage by stage, on the class's vectors.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.registry import LEFT, PanelSpec

SPEC = PanelSpec("timeline", "TimelinePanel", LEFT, order=7, tab_with="playground",
                 title="timeline.title")
