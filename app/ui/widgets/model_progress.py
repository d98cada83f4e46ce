"""Owns showing a model's forward pass while it runs: which layer it is on, and Cancel. It
stands in the status bar, so the window stays usable while the pass runs."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from app.i18n import tr
from app.state.model_run import ModelRun


class ModelProgress(QWidget):
    """"Layer 3 of 12 [####  ] Cancel", shown only while `run` is busy."""

    def __init__(self, run: ModelRun, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("model_progress")
        self.run = run
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.setMaximumWidth(self.fontMetrics().averageCharWidth() * 16)
        self.cancel = QPushButton()
        self.cancel.setObjectName("model_cancel")
        self.cancel.clicked.connect(run.cancel)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.label, self.bar, self.cancel):
            row.addWidget(widget)
        self._done, self._total = 0, 0
        run.busy_changed.connect(self._on_busy_changed)
        run.progressed.connect(self._on_progressed)
        self.retranslate()
        self.hide()

    def _on_busy_changed(self, busy: bool) -> None:
        self._done, self._total = 0, 0
        self.bar.setRange(0, 0)  # reading the folder: no layers to count yet
        self.retranslate()
        self.setVisible(busy)

    def _on_progressed(self, done: int, total: int) -> None:
        self._done, self._total = done, total
        self.bar.setRange(0, total)
        self.bar.setValue(done)
        self.retranslate()

    def retranslate(self) -> None:
        self.cancel.setText(tr("model_folder.cancel"))
        self.label.setText(tr("model_folder.progress", layer=min(self._done + 1, self._total),
                              layers=self._total) if self._total else tr("model_folder.reading"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
