"""The base of every docked panel: observe the document, repaint from its view, retranslate."""

from __future__ import annotations

from typing import ClassVar

from PySide6.QtWidgets import QWidget

from app.state.document import Document
from app.ui.look import Look


class Panel(QWidget):
    """A panel reads `document.view` in `refresh` and edits only through document methods.

    Panels never call each other: anything two panels share lives in the document.
    """

    name: ClassVar[str] = ""
    title_key: ClassVar[str] = ""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.look = Look()
        self.setObjectName(f"panel_{self.name}")
        document.changed.connect(self.refresh)

    def set_look(self, look: Look) -> None:
        """Presentation scale or theme changed: restyle, then repaint."""
        self.look = look
        self.apply_look()
        self.refresh()

    def apply_look(self) -> None:
        """Apply `self.look` to fonts, pens and backgrounds (override in panels)."""

    def refresh(self) -> None:
        """Repaint from `self.document.view`; called once per recompute."""

    def retranslate(self) -> None:
        """Re-read every visible string from the current language's table."""
