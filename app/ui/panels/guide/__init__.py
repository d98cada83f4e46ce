"""The guide dock: the lesson's stepper and the blocks of the lesson page a scene needs.

The package declares its dock (`SPEC`); the registry finds it, so a new dock is a new package.
"""

from app.ui.panels.registry import LEFT, PanelSpec

SPEC = PanelSpec("guide", "GuidePanel", LEFT, order=8, tab_with="playground",
                 in_scenes=False, title="guide.title",
                 observes_while_hidden=True)
