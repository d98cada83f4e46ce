"""Owns which world-bound docks are on screen: only the open world's editor takes a panel.

The 2-D plane cannot draw the 4-D world and the 4-D editor does not edit the 2-D sample, so a
dock of the other world would only say "not here"; on a 1024×768 projector that costs half
the screen. Its dock is put away instead (into the tab of the one that replaces it), comes
back when its world does, and asking for it from the View menu opens its world.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDockWidget, QMainWindow

from app.model.state import World

DOCKS_OF: dict[str, str] = {"imported": "teaching"}
"""A world that keeps another world's docks: a capture's q and k are edited, like the 4-D
world's, in the vector editor (which shows the selected pair's largest dimensions there)."""


class WorldDocks(QObject):
    """Hides the docks whose world is not open and brings them back with their world.

    A dock the user closed stays closed: only docks this object put away come back.
    """

    def __init__(self, window: QMainWindow, docks: Mapping[str, QDockWidget],
                 worlds: Mapping[str, World], open_world: Callable[[World], None]) -> None:
        super().__init__(window)
        self._window = window
        self._docks = {name: docks[name] for name in worlds}
        self._worlds = dict(worlds)
        self._put_away: set[str] = set()
        self._world = ""
        for name, dock in self._docks.items():
            dock.toggleViewAction().triggered.connect(
                lambda on, home=self._worlds[name]: open_world(home)
                if on and home != self._world else None)

    @property
    def put_away(self) -> frozenset[str]:
        """The docks hidden because their world is not open."""
        return frozenset(self._put_away)

    def show_world(self, world: str, force: bool = False) -> None:
        """Swap the world-bound docks for `world` (each time it changes, or when `force`d
        after the layout was rebuilt): the arriving dock takes the tab of the leaving one."""
        world = DOCKS_OF.get(world, world)
        if world == self._world and not force:
            return
        self._world = world
        leaving = [n for n, home in self._worlds.items() if home != world
                   and not self._docks[n].isHidden()]
        arriving = [n for n, home in self._worlds.items() if home == world
                    and (n in self._put_away or force)]
        for name in arriving:
            dock = self._docks[name]
            place = next((self._docks[n] for n in leaving
                          if not self._docks[n].isFloating()), None)
            if dock.isHidden() and place is not None and not dock.isFloating():
                self._window.tabifyDockWidget(place, dock)
            self._put_away.discard(name)
            dock.show()
            dock.raise_()
        for name in leaving:
            self._put_away.add(name)
            self._docks[name].hide()
