"""Owns the window's docks: one per panel declaration (`panels/registry.py`), each holding a
placeholder until its panel is first needed, titled for the state shown, in the window's
look; the world-bound docks that only the open world shows; and a toggle per dock in
View → Panels.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDockWidget, QMainWindow

from app.state.document import Document
from app.ui.actions.spec import ActionSpec
from app.ui.look import Look
from app.ui.panels.base import Panel, PanelParts
from app.ui.panels.registry import PanelSpec
from app.ui.widgets.lazy_docks import LazyPanels, Placeholder
from app.ui.widgets.world_docks import DOCKS_OF, WorldDocks

TOGGLE_KEYS = 10
"""Docks reachable by Alt+1 … Alt+9, then Alt+0."""


class DockHost(QObject):
    """The docks of one window by name, and their panels, built when first needed."""

    def __init__(self, window: QMainWindow, parts: PanelParts, specs: list[PanelSpec]) -> None:
        super().__init__(window)
        self.window = window
        self.parts = parts
        self.document: Document = parts.document
        self.specs = {spec.name: spec for spec in specs}
        self.look = Look()
        self.panels = LazyPanels(list(self.specs), self._build_panel)
        """Built when its dock first comes into view or it is first looked up by name."""
        self.docks: dict[str, QDockWidget] = {}
        self._build_docks()
        worlds = {name: spec.world for name, spec in self.specs.items() if spec.world}
        self.world_docks = WorldDocks(window, self.docks, worlds, self.document.set_world)
        self.document.changed.connect(self.title_docks)
        window.installEventFilter(self)  # a new language: new titles
        self.title_docks()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.LanguageChange:
            self.title_docks()
        return False

    def _build_docks(self) -> None:
        """Every dock, each holding a placeholder until its panel is needed; panels that must
        see every change even out of sight are built at once."""
        for spec in self.specs.values():
            dock = QDockWidget(self.window)
            dock.setObjectName(f"dock_{spec.name}")
            dock.setWidget(Placeholder(spec.name, self.panels.build))
            dock.setFeatures(
                QDockWidget.DockWidgetFeature.DockWidgetClosable
                | QDockWidget.DockWidgetFeature.DockWidgetMovable
                | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            )
            self.window.addDockWidget(spec.area, dock)
            # a tab brought to the front is shown without a show event of its panel, and an
            # opaque page over the whole panel spares it the paint: catch up here
            dock.visibilityChanged.connect(
                lambda on, name=spec.name: self._seen(name) if on else None)
            if spec.tab_with and spec.tab_with in self.docks:
                self.window.tabifyDockWidget(self.docks[spec.tab_with], dock)
            self.docks[spec.name] = dock
        for spec in self.specs.values():
            if spec.tab_with is None:
                self.docks[spec.name].raise_()
            if spec.observes_while_hidden:
                self.panels.build(spec.name)  # now: it must see every change

    def _seen(self, name: str) -> None:
        """A dock came into view: its panel, if built, shows what changed meanwhile."""
        panel = self.panels.built().get(name)
        if panel is not None:
            panel.catch_up()

    def _build_panel(self, name: str) -> Panel:
        """Build a panel into its dock, in the window's current look and language."""
        dock = self.docks[name]
        panel = self.specs[name].factory.build(self.parts)
        holder = dock.widget()
        dock.setWidget(panel)
        if isinstance(holder, Placeholder):
            holder.deleteLater()
        if panel.look != self.look:
            panel.set_look(self.look)
        if dock.isVisible():
            panel.show()
        return panel

    def set_look(self, look: Look, title_font: QFont) -> None:
        """Every built panel restyles (the rest are built in this look); dock titles take a
        font unlike the app's, else Qt titles docks in its small one."""
        self.look = look
        for dock in self.docks.values():
            dock.setFont(title_font)
        for panel in self.panels.built().values():
            panel.set_look(look)

    def title_docks(self) -> None:
        """Each dock's title for the current state (the editor names the world's width)."""
        state = self.document.state
        for name, spec in self.specs.items():
            title = spec.dock_title(state)
            if self.docks[name].windowTitle() != title:
                self.docks[name].setWindowTitle(title)

    def names_for_world(self, world: str) -> list[str]:
        """The docks whose panel edits `world` (the imported world is edited as the 4-D one)."""
        home = DOCKS_OF.get(world, world)
        return [name for name, spec in self.specs.items() if spec.world == home]

    def for_open_world(self, names: list[str]) -> list[str]:
        """A scene's panels for the world open now: a panel that edits another world gives
        its place to the open world's own (the plane to the 4-D editor, and back), rather
        than a page saying it cannot draw this world. The scene's own world changes nothing.
        The lesson's docks and the stage lay a scene out alike."""
        own = self.names_for_world(self.document.state.world)
        swapped = [own[0] if own and self.specs[name].world and name not in own else name
                   for name in names]
        return list(dict.fromkeys(swapped))

    def show_panel(self, name: str) -> Panel:
        """Bring a panel's dock to the front, up to date, and return the panel."""
        dock = self.docks[name]
        dock.show()
        dock.raise_()
        panel = self.panels[name]
        panel.catch_up()
        return panel

    def toggle_specs(self) -> list[ActionSpec]:
        """View → Panels: one toggle per dock (Qt's own), Alt+N for the first ten."""
        return [ActionSpec(f"show_{name}", None, menu="view.panels", section=0,
                           keys=(f"Alt+{number % 10}",) if number <= TOGGLE_KEYS else (),
                           existing=dock.toggleViewAction())
                for number, (name, dock) in enumerate(self.docks.items(), start=1)]
