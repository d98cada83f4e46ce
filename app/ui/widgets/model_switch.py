"""Owns switching the shown model head in place: "Layer [n] Head [h]" on the toolbar while
the imported world is a model's head. Another head of a computed layer opens at once; another
layer runs the opened model again, off the UI thread."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSignalBlocker
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSpinBox, QWidget

from app.i18n import tr
from app.state.document import Document
from app.state.model_run import ModelRun


class ModelSwitch(QWidget):
    """Two spin boxes following the shown head; empty (and taking no room) otherwise."""

    def __init__(self, document: Document, run: ModelRun, parent: QWidget | None = None
                 ) -> None:
        super().__init__(parent)
        self.setObjectName("model_switch")
        self.document, self.run = document, run
        self.layer_label, self.head_label = QLabel(), QLabel()
        self.layer, self.head = QSpinBox(), QSpinBox()
        self.layer.setObjectName("model_switch_layer")
        self.head.setObjectName("model_switch_head")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.parts = (self.layer_label, self.layer, self.head_label, self.head)
        for widget in self.parts:
            row.addWidget(widget)
        for box in (self.layer, self.head):
            box.setKeyboardTracking(False)  # a typed number counts once, on Enter
            box.valueChanged.connect(self._on_picked)
        document.changed.connect(self.sync)
        run.shown.connect(self.sync)
        run.busy_changed.connect(lambda busy: None if busy else self.sync())
        self.retranslate()
        self.sync()

    def sync(self) -> None:
        """Show the head on screen (or nothing when the import is not a model's)."""
        origin = self.run.origin(self.document.state.imported)
        shown = origin is not None and self.document.state.world == "imported"
        for widget in self.parts:
            widget.setVisible(shown)
        if origin is None or self.run.busy:
            return
        with QSignalBlocker(self.layer), QSignalBlocker(self.head):
            self.layer.setRange(0, origin.layers - 1)
            self.head.setRange(0, origin.heads - 1)
            self.layer.setValue(origin.layer)
            self.head.setValue(origin.head)

    def _on_picked(self, _value: int) -> None:
        origin = self.run.origin(self.document.state.imported)
        if origin is not None:
            self.run.show(origin.text, self.layer.value(), self.head.value())

    def retranslate(self) -> None:
        self.layer_label.setText(tr("model_folder.bar.layer"))
        self.head_label.setText(tr("model_folder.bar.head"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
