"""Owns Help → Shortcuts and About: what the window says about itself."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QMessageBox

from app.i18n import tr
from app.ui.actions.registry import Actions
from app.ui.actions.spec import ActionSpec


def help_specs(window: QMainWindow, actions: Actions) -> list[ActionSpec]:
    def shortcuts() -> None:
        """F1: every shortcut, in a dialog that fits the screen and scrolls inside."""
        from app.ui.widgets.shortcuts_dialog import ShortcutsDialog  # when first asked for

        dialog = ShortcutsDialog(actions.shortcut_rows(), tr("action.shortcuts"), window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    return [
        ActionSpec("shortcuts", "action.shortcuts", shortcuts, ("F1",), menu="help"),
        ActionSpec("about", "action.about",
                   lambda: QMessageBox.about(window, tr("action.about"), tr("about.text")),
                   ("Shift+F1",), menu="help"),
    ]
