"""Owns the world and scorer lists: each shows the document's choice, greys what the world
cannot use, and sets what is picked through the document. The toolbar holds one pair; the
presenter console another, so the teacher changes them without leaving the stage."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QSignalBlocker
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from app.i18n import tr
from app.model.scoring import SCORERS
from app.model.state import WORLDS, LabState
from app.state.document import Document
from app.ui.widgets.availability import mark_worlds
from app.ui.widgets.scorer_choice import mark_usable


class WorldScorerChoice(QWidget):
    """"World: [list]  Scorer: [list]", following the document and the language."""

    def __init__(self, document: Document, prefix: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.world_label, self.scorer_label = QLabel(), QLabel()
        self.world_combo = _combo(f"{prefix}world_combo",
                                  lambda i: document.set_world(WORLDS[i]))
        self.scorer_combo = _combo(f"{prefix}scorer_combo",
                                   lambda i: document.set_scorer(list(SCORERS)[i]))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.world_label, self.world_combo, self.scorer_label,
                       self.scorer_combo):
            row.addWidget(widget)
        row.addStretch(1)
        self._synced: tuple[object, ...] | None = None
        """`_shown()` after the last sync: a drag step changes none of it."""
        document.changed.connect(self.sync)
        self.retranslate()

    def retranslate(self) -> None:
        self.world_label.setText(tr("toolbar.world"))
        self.scorer_label.setText(tr("toolbar.scorer"))
        state = self.document.state
        for combo, items in ((self.world_combo, [world_title(w, state) for w in WORLDS]),
                             (self.scorer_combo, [tr(f"scorer.{n}") for n in SCORERS])):
            index = combo.currentIndex()
            with QSignalBlocker(combo):
                combo.clear()
                combo.addItems(items)
                combo.setCurrentIndex(max(index, 0))
        self._synced = None
        self.sync()

    def sync(self) -> None:
        """The lists show the document's world and scorer; the ones it cannot use are grey."""
        synced, shown = self._synced, self._shown()
        if synced is not None and shown[:6] == synced[:6] and all(
                a is b for a, b in zip(shown[6:], synced[6:], strict=True)):
            return
        state = self.document.state
        for combo, index in ((self.world_combo, WORLDS.index(state.world)),
                             (self.scorer_combo, list(SCORERS).index(state.scorer))):
            if combo.currentIndex() != index:
                with QSignalBlocker(combo):
                    combo.setCurrentIndex(index)
        for index, world in enumerate(WORLDS):  # a reshape renames the 4-D world
            title = world_title(world, state)
            if self.world_combo.itemText(index) != title:
                self.world_combo.setItemText(index, title)
        mark_usable(self.scorer_combo, self.document)  # a reshaped d: no learned weights
        mark_worlds(self.world_combo, state)
        self._synced = self._shown()

    def _shown(self) -> tuple[object, ...]:
        """What the lists depend on, and the rows they show (last the import and the data,
        compared by identity)."""
        document, state = self.document, self.document.state
        return (state.world, state.scorer, state.teaching_q.shape, tuple(document.view.scores),
                self.world_combo.currentIndex(), self.scorer_combo.currentIndex(),
                state.imported, document.data)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def world_title(world: str, state: LabState) -> str:
    """A world's name as lists and menus show it; the teaching world is named by its width
    now, so after the editor reshapes it to 6-D it is no longer called 4-D."""
    return tr(f"world.{world}", d=state.teaching_q.shape[1])


def _combo(name: str, choose: Callable[[int], object]) -> QComboBox:
    combo = QComboBox()
    combo.setObjectName(name)
    combo.currentIndexChanged.connect(lambda index: index >= 0 and choose(index))
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    return combo
