"""Owns setting a widget's tooltip on the drag path: `QWidget.setToolTip` sends a
ToolTipChange event through the application's event filters even for the text it already
has, and a drag step in stage scene 1 set eleven of them."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def set_tip(widget: QWidget, tip: str) -> None:
    """Give `widget` the tooltip `tip`, doing nothing if it has it already."""
    if widget.toolTip() != tip:
        widget.setToolTip(tip)
