"""Owns what the toolbar says about the imported world: offered only once a file was imported,
and in it only the scorers whose learned weights the file carries (`import_tip` says why the
others are greyed out; `scorer_choice` greys them)."""

from __future__ import annotations

from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox

from app.i18n import tr
from app.model.scoring import SCORERS
from app.model.state import WORLDS, LabState

WEIGHTS_NEEDED = {
    "additive": "additive.W1, additive.W2, additive.v",
    "qk_norm": "q_norm.weight, k_norm.weight",
}
"""The capture's array names each learned scorer reads (README, "Bring your own model")."""


def _mark(combo: QComboBox, row: int, enabled: bool, tip: str) -> None:
    model = combo.model()
    if isinstance(model, QStandardItemModel) and (item := model.item(row)) is not None:
        if item.isEnabled() != enabled:
            item.setEnabled(enabled)
        if item.toolTip() != tip:
            item.setToolTip(tip)


def mark_worlds(combo: QComboBox, state: LabState) -> None:
    """Grey out the imported world until there is an import."""
    if combo.count() != len(WORLDS):
        return
    row = WORLDS.index("imported")
    has = state.imported is not None
    _mark(combo, row, has, "" if has else tr("world.no_import_tip"))


def import_tip(state: LabState, name: str) -> str | None:
    """Why `name` cannot score the imported world (the file lacks its weights), or None."""
    capture = state.imported
    if capture is None or capture.available(name):
        return None
    return tr("scorer.unavailable_import",
              names=WEIGHTS_NEEDED.get(SCORERS[name].needs or "", ""))
