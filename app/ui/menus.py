"""Owns the menu bar: which menus there are and where each sits (`MENUS`), and menus built
from the actions' own declarations, each of which retitles itself when the language changes.
What an action does and which menu lists it is declared beside the code it runs."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QMenu, QMenuBar, QWidget

from app.i18n import tr
from app.ui.actions.registry import Actions
from app.ui.actions.spec import MenuSpec

MENUS: tuple[MenuSpec, ...] = (
    MenuSpec("file", "menu.file"),
    MenuSpec("file.recent", "classroom.menu.recent", parent="file", section=0),
    MenuSpec("file.export", "classroom.menu.export", parent="file", section=1),
    MenuSpec("edit", "menu.edit"),
    MenuSpec("view", "menu.view"),
    MenuSpec("view.panels", "menu.panels", parent="view", section=0),
    MenuSpec("view.language", "menu.language", parent="view", section=1),
    MenuSpec("view.theme", "classroom.menu.theme", parent="view", section=2),
    MenuSpec("view.poll_network", "poll.menu.network", parent="view", section=3),
    MenuSpec("world", "menu.world"),
    MenuSpec("help", "menu.help"),
)
"""Every menu, in menu-bar order; a submenu stands after its section's actions."""
SUBMENU_AFTER = {"view.theme": "zoom_reset"}
"""A submenu listed inside its section rather than at its end: after this action."""


class Menu(QMenu):
    """A menu titled by a string key, retitled on Qt's LanguageChange."""

    def __init__(self, spec: MenuSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.setObjectName(f"menu_{spec.id}")
        self.setTitle(tr(spec.title))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.setTitle(tr(self.spec.title))
        super().changeEvent(event)


def build_menu_bar(bar: QMenuBar, menus: tuple[MenuSpec, ...] = MENUS) -> dict[str, Menu]:
    """Put `menus` in `bar`, titled and still empty (`fill_menus` adds their entries)."""
    built: dict[str, Menu] = {}
    for spec in menus:
        built[spec.id] = Menu(spec, bar)
        if spec.parent is None:
            bar.addMenu(built[spec.id])
    return built


def fill_menus(built: dict[str, Menu], actions: Actions) -> None:
    """Fill each menu with the actions declared for it: sections in order with a separator
    between them, each submenu after its section's actions."""
    menus = tuple(menu.spec for menu in built.values())
    for spec in menus:
        menu = built[spec.id]
        entries = [(a.section, "action", a.id) for a in actions.specs(spec.id)]
        entries += [(m.section, "menu", m.id) for m in menus if m.parent == spec.id]
        sections = sorted({section for section, _, _ in entries})
        for number, section in enumerate(sections):
            if number:
                menu.addSeparator()
            items = [(kind, name) for s, kind, name in entries if s == section]
            ordered = [i for i in items if i[0] == "action"]
            for kind, name in (i for i in items if i[0] == "menu"):
                after = SUBMENU_AFTER.get(name)
                at = next((n + 1 for n, i in enumerate(ordered) if i[1] == after), len(ordered))
                ordered.insert(at, (kind, name))
            for kind, name in ordered:
                if kind == "action":
                    menu.addAction(actions[name])
                else:
                    menu.addMenu(built[name])
    actions.updated.connect(lambda: _enable(built.values()))
    _enable(built.values())


def _enable(menus: Iterable[Menu]) -> None:
    """A submenu with nothing to show (no recent files yet) is greyed out, not empty."""
    for menu in menus:
        if menu.spec.parent is not None:
            shown = any(action.isVisible() for action in menu.actions())
            if menu.isEnabled() != shown:
                menu.setEnabled(shown)
