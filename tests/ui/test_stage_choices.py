"""The teacher never has to leave the stage to change what is scored: F8 and Shift+F8 step
through the scorers the world can use, Ctrl+1… switch worlds, and the presenter console has
the same world and scorer lists as the toolbar."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox

from app.model.scoring import SCORERS
from app.ui.presentation import restore_base_style
from app.ui.widgets.scorer_choice import unusable_tip
from tests.ui.staging import project


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def test_f8_and_the_console_change_the_scorer_and_world_on_the_stage(qtbot, open_window):
    window = open_window("en")
    window.resize(1024, 768)
    document = window.document
    console = window.arrangement.staging.console
    try:
        window.arrangement.open_scene(1, set_up=True)
        project(window)
        assert window.arrangement.on_stage and window.menuBar().isHidden()
        usable = [n for n in SCORERS if unusable_tip(document, n) is None]
        first = document.state.scorer
        qtbot.keyClick(window, Qt.Key.Key_F8)
        document.flush()
        after = usable[(usable.index(first) + 1) % len(usable)]
        assert document.state.scorer == after
        qtbot.keyClick(window, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)
        document.flush()
        assert document.state.scorer == first
        lists = console.findChild(QComboBox, "console_scorer_combo")
        assert lists is not None and lists.currentIndex() == list(SCORERS).index(first)
        lists.setCurrentIndex(list(SCORERS).index("cosine"))
        document.flush()
        _settle()
        assert document.state.scorer == "cosine"
        assert window.findChild(QComboBox, "scorer_combo").currentText() == lists.currentText()
        worlds = console.findChild(QComboBox, "console_world_combo")
        qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
        document.flush()
        _settle()
        assert document.state.world == "teaching" and worlds.currentIndex() == 1
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()
