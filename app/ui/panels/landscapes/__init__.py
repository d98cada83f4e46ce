"""The landscapes dock: four scorers' landscapes side by side on the same q.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.registry import RIGHT, PanelSpec

SPEC = PanelSpec("landscapes", "LandscapesPanel", RIGHT, order=9, tab_with="expansion",
                 title="landscapes.title")
