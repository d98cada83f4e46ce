"""Owns File → Open model folder… and a model folder dropped on the window: read the folder
off the UI thread, ask for the sentence, layer and head, then let the run open that head. A
refused folder or sentence is a message in the window and changes nothing. View → Every head
opens the overview of the model's heads for that sentence."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from app.i18n import tr
from app.state.model_run import ModelRun
from app.ui.actions.common import warn
from app.ui.actions.spec import ActionSpec

if TYPE_CHECKING:  # the dialogs are imported when first opened, not by every start
    from app.ui.head_overview import HeadOverview
    from app.ui.widgets.model_dialog import ModelDialog


class ModelActions(QObject):
    """Opening a model folder, as the user sees it; the passes are the run's."""

    def __init__(self, window: QMainWindow, run: ModelRun) -> None:
        super().__init__(window)
        self.window = window
        self.run = run
        self.dialog: ModelDialog | None = None
        """The sentence, layer and head asked for (while it is on screen)."""
        self.message: QMessageBox | None = None
        """The last refusal shown."""
        self.overview: HeadOverview | None = None
        """Every head at a glance (built when first asked for)."""
        self._asking = False
        run.opened.connect(self._on_opened)
        run.failed.connect(self._on_failed)
        run.shown.connect(lambda: self.window.statusBar().clearMessage())

    def action_specs(self) -> list[ActionSpec]:
        return [ActionSpec("open_model", "model_folder.action.open", self.open_dialog,
                           ("Ctrl+Shift+O",), menu="file")]

    def view_specs(self) -> list[ActionSpec]:
        """View → Every head of the model, once a sentence has been run."""
        return [ActionSpec("model_overview", "model_folder.action.overview",
                           self.show_overview, ("Ctrl+Shift+M",), menu="view",
                           enabled=lambda: self.run.checkpoint is not None
                           and bool(self.run.text))]

    def show_overview(self) -> HeadOverview:
        """Every head's map for the run's sentence, computed afresh, in a window of its own."""
        if self.overview is None:
            from app.ui.head_overview import HeadOverview

            self.overview = HeadOverview(self.run, self.window)
            self.overview.resize(self.window.width() * 2 // 3, self.window.height() * 2 // 3)
        self.overview.compute()
        self.overview.show()
        self.overview.activateWindow()
        return self.overview

    def open_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.window, tr("model_folder.dialog.folder"),
                                                  str(Path.home()))
        if folder:
            self.open_folder(Path(folder))

    def open_folder(self, folder: Path) -> None:
        """Read `folder` (off the UI thread), then ask what to run it on."""
        self._asking = True
        self.run.open_folder(folder)

    def _on_opened(self) -> None:
        if not self._asking or self.run.checkpoint is None:
            return
        self._asking = False
        checkpoint = self.run.checkpoint
        from app.ui.widgets.model_dialog import ModelDialog

        dialog = ModelDialog(checkpoint.name, checkpoint.config.model_type, self.run.layers,
                             self.run.heads, self.run.text, self.window)
        dialog.accepted.connect(lambda: self.run.show(*dialog.choice()))
        dialog.finished.connect(lambda _result: self._closed(dialog))
        self.dialog = dialog
        dialog.open()

    def _closed(self, dialog: ModelDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()

    def _on_failed(self, problem: str) -> None:
        self._asking = False
        self.message = warn(self.window, tr("model_folder.failed"), problem)
