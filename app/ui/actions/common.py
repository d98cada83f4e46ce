"""What every set of actions shares: a message that does not block the class."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from app.i18n import tr


def warn(parent: QWidget, headline: str, detail: str) -> QMessageBox:
    """A non-blocking message box: what went wrong, then the technical line (file: field)."""
    box = QMessageBox(QMessageBox.Icon.Warning, tr("app.title"), headline,
                      QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("classroom_message")
    box.setInformativeText(detail)
    box.open()
    return box
