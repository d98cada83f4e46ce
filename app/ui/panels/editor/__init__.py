"""The editor dock: the 4-D world's (or an import's) q and k as bars, typed or dragged.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.editor.title import editor_title
from app.ui.panels.registry import LEFT, PanelSpec

SPEC = PanelSpec("editor", "EditorPanel", LEFT, order=2, tab_with="playground",
                 title=editor_title, world="teaching")
