"""Owns files dropped on the window: a scenario opens, a capture is imported, through the same
`FileActions.open_path` / `import_path` as File → Open and File → Import (so the same checks
and messages), and a model folder (one holding config.json) goes to File → Open model
folder's own road; anything else is refused with a message and changes nothing.

A dropped scenario replaces the work on screen, so while that work is in no file (the title's
`[*]`) the window asks first. A drop is handled after the drop event has returned, so the
program it came from is not kept waiting while a question or the head chooser is open.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from PySide6.QtCore import QEvent, QObject, QTimer, QUrl, Signal
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMainWindow, QMessageBox

from app.i18n import tr
from app.model.scenario import SUFFIX
from app.ui.actions.common import warn
from app.ui.actions.files import FileActions
from app.ui.actions.models import ModelActions

CAPTURE_SUFFIXES = (".npz", ".safetensors")
"""What File → Import reads (app.model.capture)."""
MODEL_CONFIG = "config.json"
"""What makes a dropped folder a model folder (app.model.checkpoint reads it)."""


class FileDrops(QObject):
    """Accepts file drops on `window` and hands each to the file actions."""

    handled = Signal(bool)
    """After each drop: True when it opened or imported a file or began reading a model
    folder, False when it changed nothing."""

    def __init__(self, window: QMainWindow, files: FileActions, models: ModelActions) -> None:
        super().__init__(window)
        self.window = window
        self.files = files
        self.models = models
        self.message: QMessageBox | None = None
        """The last refusal shown."""
        self.question: QMessageBox | None = None
        """Open over unsaved work? (while it is on screen)"""
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.window:
            return False
        kind = event.type()
        dropped = cast(QDropEvent, event)  # what a drag's and a drop's events are
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if dropped.mimeData().hasUrls() and self.question is None:
                dropped.acceptProposedAction()  # refused on drop, with a message saying why
            else:
                event.ignore()
            return True
        if kind == QEvent.Type.Drop and dropped.mimeData().hasUrls():
            urls = list(dropped.mimeData().urls())
            dropped.acceptProposedAction()
            QTimer.singleShot(0, self, lambda: self.drop(urls))
            return True
        return False

    def drop(self, urls: list[QUrl]) -> None:
        """Open, import or refuse what was dropped; `handled` says which."""
        path, problem = _one_local_file(urls)
        if path is None:
            self._refuse(problem)
        elif path.is_dir():
            self.models.open_folder(path)
            self.handled.emit(True)
        elif path.name.lower().endswith(SUFFIX):
            self._open(path)
        elif path.suffix.lower() in CAPTURE_SUFFIXES:
            self.handled.emit(self.files.import_path(path))
        else:
            self._refuse(tr("drop.unknown", name=path.name))

    def _refuse(self, problem: str) -> None:
        self.message = warn(self.window, tr("drop.refused"), problem)
        self.handled.emit(False)

    def _open(self, path: Path) -> None:
        if self.files.document.undo_stack.isClean():
            self.handled.emit(self.files.open_path(path))
            return
        box = QMessageBox(QMessageBox.Icon.Question, tr("app.title"),
                          tr("drop.unsaved", file=path.name),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Open
                          | QMessageBox.StandardButton.Cancel, self.window)
        box.setObjectName("drop_unsaved")
        box.setInformativeText(tr("drop.unsaved_detail"))
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda _result: self._on_answer(box, path))
        self.question = box
        box.open()

    def _on_answer(self, box: QMessageBox, path: Path) -> None:
        clicked = box.clickedButton()
        answer = box.standardButton(clicked) if clicked else QMessageBox.StandardButton.Cancel
        self.question = None
        go = (answer == QMessageBox.StandardButton.Open
              or (answer == QMessageBox.StandardButton.Save and self.files.save()))
        self.handled.emit(go and self.files.open_path(path))


def _one_local_file(urls: list[QUrl]) -> tuple[Path | None, str]:
    """The one local file dropped, or None and why the drop is refused."""
    if len(urls) != 1:
        return None, tr("drop.several", count=len(urls))
    url = urls[0]
    if not url.isLocalFile():
        return None, tr("drop.not_local", url=url.toDisplayString())
    path = Path(url.toLocalFile())
    if path.is_dir() and not (path / MODEL_CONFIG).is_file():
        return None, tr("drop.folder", name=path.name or str(path))
    return path, ""
