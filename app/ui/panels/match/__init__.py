"""The match dock: every key of the selected query under every scorer, and why ranks swap.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.registry import RIGHT, PanelSpec

SPEC = PanelSpec("match", "MatchTablePanel", RIGHT, order=5, tab_with="expansion",
                 title="match.title")
