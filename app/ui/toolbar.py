"""Owns the main toolbar: the actions declared for it (`ActionSpec.toolbar`, by section) and
the world and scorer lists between them, which follow the document and the language by
themselves. Presentation comes first, so a large zoom never folds it away."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSignalBlocker
from PySide6.QtWidgets import QComboBox, QLabel, QSizePolicy, QToolBar, QWidget

from app.i18n import tr
from app.model.scoring import SCORERS
from app.model.state import WORLDS
from app.state.document import Document
from app.ui.actions.registry import Actions
from app.ui.widgets.availability import mark_worlds
from app.ui.widgets.scorer_choice import mark_usable

CHOICES_SECTION = 1
"""The toolbar section the world and scorer lists stand in (actions declare theirs)."""


class MainToolbar(QToolBar):
    """Actions by section, a separator between sections, and the world and scorer lists."""

    def __init__(self, document: Document, actions: Actions,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("toolbar_main")
        self.setMovable(False)
        self.world_label, self.scorer_label = QLabel(), QLabel()
        self.world_combo = self._combo("world_combo",
                                       lambda i: document.set_world(WORLDS[i]))
        self.scorer_combo = self._combo("scorer_combo",
                                        lambda i: document.set_scorer(list(SCORERS)[i]))
        sections: dict[int, list[QWidget | str]] = {
            CHOICES_SECTION: [self.world_label, self.world_combo, self.scorer_label,
                              self.scorer_combo]}
        for spec in actions.specs():
            if spec.toolbar is not None:
                sections.setdefault(spec.toolbar, []).append(spec.id)
        for number, section in enumerate(sorted(sections)):
            if number:
                self.addSeparator()
            for item in sections[section]:
                if isinstance(item, str):
                    self.addAction(actions[item])
                else:
                    self.addWidget(item)
        document.changed.connect(self.sync)
        self.retranslate()

    @staticmethod
    def _combo(name: str, choose: object) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        combo.currentIndexChanged.connect(lambda index: index >= 0 and choose(index))
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        return combo

    def retranslate(self) -> None:
        self.setWindowTitle(tr("toolbar.main"))
        self.world_label.setText(tr("toolbar.world"))
        self.scorer_label.setText(tr("toolbar.scorer"))
        for combo, items in ((self.world_combo, [tr(f"world.{w}") for w in WORLDS]),
                             (self.scorer_combo, [tr(f"scorer.{n}") for n in SCORERS])):
            index = combo.currentIndex()
            with QSignalBlocker(combo):
                combo.clear()
                combo.addItems(items)
                combo.setCurrentIndex(max(index, 0))
        self.sync()

    def sync(self) -> None:
        """The lists show the document's world and scorer; the ones it cannot use are grey."""
        state = self.document.state
        for combo, index in ((self.world_combo, WORLDS.index(state.world)),
                             (self.scorer_combo, list(SCORERS).index(state.scorer))):
            if combo.currentIndex() != index:
                with QSignalBlocker(combo):
                    combo.setCurrentIndex(index)
        mark_usable(self.scorer_combo, self.document)  # a reshaped d: no learned weights
        mark_worlds(self.world_combo, state)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

