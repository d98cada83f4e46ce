"""Owns marking the scorers a world cannot use in a scorer picker: greyed out, with a tooltip
saying why: learned weights that do not fit a reshaped 4-D world's width, or that an
imported file does not carry."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox

from app.i18n import tr
from app.model.scoring import SCORERS
from app.state.document import Document
from app.ui.widgets.availability import import_tip


def unusable_tip(document: Document, name: str) -> str | None:
    """Why `name` cannot score the world on screen, or None when it can. The view leaves out
    the matrix of every scorer it cannot compute, so that is the one test."""
    state = document.state
    if state.world == "imported":  # only the active scorer's matrix is in a large view
        return import_tip(state, name)
    if name in document.view.scores:
        return None
    if state.world == "teaching":
        return tr("scorer.unavailable_reshaped", d=document.data.teaching.W_Q.shape[1],
                  now=state.teaching_q.shape[1])
    return ""


def mark_usable(combo: QComboBox, document: Document) -> None:
    """Enable the combo's entries (in registry order) the world can use; the others say why."""
    model = combo.model()
    if not isinstance(model, QStandardItemModel):
        return
    for index, name in enumerate(SCORERS):
        item = model.item(index)
        if item is None:
            continue
        tip = unusable_tip(document, name)
        if item.isEnabled() != (tip is None):
            item.setEnabled(tip is None)
        if combo.itemData(index, Qt.ItemDataRole.ToolTipRole) != (tip or None):
            combo.setItemData(index, tip or None, Qt.ItemDataRole.ToolTipRole)  # relays out
