"""Owns the main toolbar: the actions declared for it (`ActionSpec.toolbar`, by section) and
the world and scorer lists between them. Presentation comes first, so a large zoom never
folds it away."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QToolBar, QWidget

from app.i18n import tr
from app.state.document import Document
from app.ui.actions.registry import Actions
from app.ui.widgets.world_scorer import WorldScorerChoice

CHOICES_SECTION = 1
"""The toolbar section the world and scorer lists stand in (actions declare theirs)."""


class MainToolbar(QToolBar):
    """Actions by section, a separator between sections, and the world and scorer lists."""

    def __init__(self, document: Document, actions: Actions, parent: QWidget | None = None,
                 beside_choices: tuple[QWidget, ...] = ()) -> None:
        """`beside_choices`: widgets that follow the world and scorer lists (the model's
        layer and head)."""
        super().__init__(parent)
        self.setObjectName("toolbar_main")
        self.setMovable(False)
        self.choices = WorldScorerChoice(document)
        sections: dict[int, list[QWidget | str]] = {
            CHOICES_SECTION: [self.choices, *beside_choices]}
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
        self.setWindowTitle(tr("toolbar.main"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.setWindowTitle(tr("toolbar.main"))
        super().changeEvent(event)
