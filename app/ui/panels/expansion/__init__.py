"""The expansion dock: the selected pair's score taken apart, term by term.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.registry import RIGHT, PanelSpec

SPEC = PanelSpec("expansion", "ExpansionPanel", RIGHT, order=4, share=0.45, title="expansion.title")
