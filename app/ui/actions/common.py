"""What every set of actions shares: making a named action with its shortcuts, and a message."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMessageBox, QWidget

from app.i18n import tr


def make_action(owner: QWidget, actions: dict[str, QAction], name: str,
                shortcuts: list[QKeySequence | str], slot: Callable[..., object],
                checkable: bool = False) -> QAction:
    """A window-wide action `action_<name>`, registered in `actions` (Help lists its keys)."""
    action = QAction(owner)
    action.setObjectName(f"action_{name}")
    action.setShortcuts([QKeySequence(s) for s in shortcuts])
    action.setCheckable(checkable)
    action.triggered.connect(slot)
    owner.addAction(action)
    actions[name] = action
    return action


def warn(parent: QWidget, headline: str, detail: str) -> QMessageBox:
    """A non-blocking message box: what went wrong, then the technical line (file: field)."""
    box = QMessageBox(QMessageBox.Icon.Warning, tr("app.title"), headline,
                      QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("classroom_message")
    box.setInformativeText(detail)
    box.open()
    return box
