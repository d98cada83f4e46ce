"""Owns File → Export and Copy: the whole window or the panel in use, as PNG/SVG, the score
matrix as CSV, or a picture to the clipboard. The exporter (`app.ui.export`) is imported by
the first export, not by every start."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QWidget

from app.i18n import tr
from app.model.scores_csv import scores_csv
from app.state.document import Document
from app.ui.actions.common import warn
from app.ui.actions.spec import ActionSpec
from app.ui.panels.base import Panel
from app.ui.qt_known import gui_app


class ExportActions(QObject):
    """Exports of what is on screen; "this panel" is the one last focused."""

    def __init__(self, window: QMainWindow, document: Document, panels: Mapping[str, Panel],
                 folder: Callable[[str], str]) -> None:
        super().__init__(window)
        self.window = window
        self.document = document
        self.panels = panels
        self.folder = folder
        """Where a file dialog starts, for a file name (beside the current scenario)."""
        self.message: QMessageBox | None = None
        self._panel_name: str | None = None
        gui_app().focusChanged.connect(self._on_focus_changed)

    def action_specs(self) -> list[ActionSpec]:
        """File → Export: pictures and the scores as files, then pictures to the clipboard."""
        return [
            ActionSpec("export_window", "classroom.action.export_window",
                       lambda: self.export_image_dialog(whole=True), ("Ctrl+E",),
                       menu="file.export"),
            ActionSpec("export_panel", "classroom.action.export_panel",
                       lambda: self.export_image_dialog(whole=False), ("Ctrl+Alt+E",),
                       menu="file.export"),
            ActionSpec("export_scores", "classroom.action.export_scores",
                       self.export_scores_dialog, ("Ctrl+Alt+X",), menu="file.export"),
            ActionSpec("copy_window", "classroom.action.copy_window",
                       lambda: self.copy(whole=True), ("Ctrl+Alt+Shift+C",),
                       menu="file.export", section=1),
            ActionSpec("copy_panel", "classroom.action.copy_panel",
                       lambda: self.copy(whole=False), ("Ctrl+Alt+C",), menu="file.export",
                       section=1),
        ]

    def current_panel(self) -> Panel:
        """The panel last focused, else the first one on screen (what 'this panel' means)."""
        panels = self.panels
        name = self._panel_name
        if name is not None and name in panels and panels[name].isVisible():
            return panels[name]
        visible = [p for p in panels.values() if p.isVisible()]
        return (visible or list(panels.values()))[0]

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        while new is not None and not isinstance(new, Panel):
            new = new.parentWidget()
        if new is not None and new.window() is self.window:
            self._panel_name = new.name

    def _target(self, whole: bool) -> QWidget:
        return self.window if whole or not self.panels else self.current_panel()

    def export_image_dialog(self, whole: bool) -> None:
        png, svg = tr("classroom.filter.png"), tr("classroom.filter.svg")
        path, chosen = QFileDialog.getSaveFileName(
            self.window, tr("classroom.dialog.export_image"), self.folder("attention-lab.png"),
            f"{png};;{svg}")
        if path:
            suffix = ".svg" if chosen == svg else ".png"
            target = Path(path + ("" if Path(path).suffix else suffix))
            self.export_image(self._target(whole), target)

    def export_scores_dialog(self) -> None:
        path = self.ask_csv_path(tr("classroom.dialog.export_scores"), "scores.csv")
        if path is not None:
            self.export_scores(path)

    def ask_csv_path(self, title: str, suggested: str) -> Path | None:
        """A CSV file name from the save dialog (".csv" added when none was typed); None:
        cancelled."""
        path, _ = QFileDialog.getSaveFileName(self.window, title, self.folder(suggested),
                                              tr("classroom.filter.csv"))
        return Path(path + ("" if Path(path).suffix else ".csv")) if path else None

    def export_image(self, widget: QWidget, path: Path) -> bool:
        from app.ui.export import save_image  # (each export imports it when first used)

        return self._export(path, lambda: save_image(widget, path))

    def export_scores(self, path: Path) -> bool:
        return self.export_csv(path, scores_csv(self.document.view))

    def export_csv(self, path: Path, text: str) -> bool:
        """Write a CSV export; a bad destination becomes a message naming the file."""
        from app.ui.export import save_csv

        return self._export(path, lambda: save_csv(path, text))

    def _export(self, path: Path, write: Callable[[], None]) -> bool:
        """Write one export; a bad destination becomes a message naming the file."""
        try:
            write()
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            self.message = warn(self.window, tr("classroom.export_failed"),
                                f"{path.name}: {reason}")
            return False
        self.window.statusBar().showMessage(tr("classroom.exported", file=path.name), 6000)
        return True

    def copy(self, whole: bool) -> None:
        from app.ui.export import copy_image

        copy_image(self._target(whole))
        self.window.statusBar().showMessage(tr("classroom.copied"), 4000)
