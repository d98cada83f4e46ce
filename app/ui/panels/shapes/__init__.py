"""The shapes dock: the sizes each scorer lays down, the square beside the cube.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.registry import LEFT, PanelSpec

SPEC = PanelSpec("shapes", "ShapesPanel", LEFT, order=6, tab_with="playground",
                 title="shapes.title")
