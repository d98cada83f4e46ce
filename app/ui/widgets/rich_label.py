"""A wrapping rich-text label, as the timeline cards and the guide's pages use."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel


def rich_label(name: str, selectable: bool = False) -> QLabel:
    """A wrapping rich-text label aligned top-left, as the cards and the guide's page use;
    `selectable` lets students copy the guide's prose (not the live readouts)."""
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label
