"""The heatmap dock: the score matrix, queries by keys.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.registry import RIGHT, PanelSpec

SPEC = PanelSpec("heatmap", "HeatmapPanel", RIGHT, order=3, share=0.55, title="heatmap.title")
