"""Nothing on the stage keeps the keyboard from the clicker: whichever of a scene's widgets
has the focus (an entry box, a table, a plot, a button), PageDown still steps the lesson.
Each kind of widget is tried once, in the first scene that shows it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from app.ui.presentation import restore_base_style
from tests.ui.staging import project

pytestmark = pytest.mark.slow


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def test_page_down_steps_from_every_focusable_widget_on_the_stage(qtbot, open_window) -> None:
    window = open_window("zh")
    window.resize(1024, 768)
    run, slides, stage = window.lesson, window.slides, window.arrangement.stage
    kept, tried = [], set()
    try:
        window.arrangement.open_scene(0, set_up=True)
        project(window)
        for index in range(run.count):
            run.go(index)
            window.document.flush()
            _settle()
            focusable = [w for w in stage.findChildren(QWidget) if w.isVisible()
                         and w.focusPolicy() & Qt.FocusPolicy.TabFocus
                         and (type(w).__name__, w.objectName()) not in tried]
            for widget in focusable:
                if (type(widget).__name__, widget.objectName()) in tried:
                    continue  # one of its kind was tried already, in this scene
                run.go(index)
                window.document.flush()
                _settle()
                widget.setFocus()
                _settle()
                if QApplication.focusWidget() is not widget:
                    continue
                tried.add((type(widget).__name__, widget.objectName()))
                before = (run.index, slides.build, run.is_revealed())
                qtbot.keyClick(widget, Qt.Key.Key_PageDown)
                _settle()
                if (run.index, slides.build, run.is_revealed()) == before:
                    kept.append(f"scene {index + 1}: {type(widget).__name__} "
                                f"{widget.objectName()!r}")
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()
    kinds = {kind for kind, _name in tried}
    assert {"EntryBox", "QTableView", "QPushButton", "GraphicsLayoutWidget"} <= kinds, kinds
    assert not kept, "\n".join(kept)
