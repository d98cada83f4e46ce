"""A file dragged from the desktop and dropped on the main window: the student's road in."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication


def drop_file(qtbot, window, path: Path) -> bool:
    """Drag `path` over the window, drop it and wait for the drop to be handled; returns
    whether the window took the file."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(window.rect().center(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    with qtbot.waitSignal(window.drops.handled, timeout=5000) as handled:
        drop = QDropEvent(QPointF(window.rect().center()), Qt.DropAction.CopyAction, mime,
                          Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(window, drop)
    window.document.finish_import()
    window.document.flush()
    return handled.args[0]
