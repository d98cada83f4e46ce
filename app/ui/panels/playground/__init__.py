"""The playground dock: the 2-D plane where q and the keys are dragged, and its readouts.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.registry import LEFT, PanelSpec

SPEC = PanelSpec("playground", "PlaygroundPanel", LEFT, order=1, title="playground.title",
                 world="dialogue")
