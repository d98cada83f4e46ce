"""The main window opens, shows every dock, switches world and scorer, and closes cleanly."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QMenu

from app.startup import build_window, make_application
from app.ui.language import apply_language
from app.ui.widgets.live_label import LiveLabel


def test_window_opens_switches_and_closes(qtbot, open_window):
    window = open_window()
    document = window.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        window.findChild(QComboBox, "world_combo").setCurrentIndex(0)
    assert document.state.world == "dialogue"
    with qtbot.waitSignal(document.changed, timeout=2000):
        window.findChild(QComboBox, "scorer_combo").setCurrentIndex(2)
    assert document.state.scorer == "cosine"
    status = window.statusBar().findChild(LiveLabel, "status_pair")
    assert "cosine" in status.text().lower()
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    document.flush()
    assert document.state.scorer == "dot"


def test_language_switch_retranslates_without_restart(qtbot):
    make_application()
    window = build_window("zh")
    qtbot.addWidget(window)
    assert window.windowTitle().startswith("注意力")
    window.actions["lang_en"].trigger()
    assert window.windowTitle().startswith("Attention Lab")
    assert window.findChild(QMenu, "menu_file").title() == "&File"
    apply_language("zh")
    assert window.findChild(QMenu, "menu_file").title().startswith("文件")


def test_a_panel_behind_a_tab_catches_up_when_shown(qtbot, monkeypatch, open_window):
    window = open_window()
    window.docks["expansion"].raise_()
    qtbot.waitUntil(lambda: not window.panels["match"]._on_screen())
    calls = []
    match = window.panels["match"]
    monkeypatch.setattr(match, "refresh", lambda: calls.append(window.document.state.key))
    with qtbot.waitSignal(window.document.changed, timeout=2000):
        window.document.select(key=0)
    assert calls == []
    window.docks["match"].raise_()
    qtbot.waitUntil(lambda: calls == [0])


def test_ctrl_y_and_ctrl_shift_z_both_redo(qtbot, open_window):
    window = open_window()
    document = window.document
    scorer = document.state.scorer
    control, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_scorer("cosine")
    for key, modifiers in ((Qt.Key.Key_Y, control), (Qt.Key.Key_Z, control | shift)):
        with qtbot.waitSignal(document.changed, timeout=2000):
            qtbot.keyClick(window, Qt.Key.Key_Z, control)
        assert document.state.scorer == scorer
        with qtbot.waitSignal(document.changed, timeout=2000):
            qtbot.keyClick(window, key, modifiers)
        assert document.state.scorer == "cosine"
    help_rows = dict(window.actions.shortcut_rows())
    assert "Ctrl+Y" in help_rows[window.actions["redo"].text().replace("&", "")]


def test_the_shortcut_list_has_rows_of_one_height(qtbot, open_window) -> None:
    """F1 lists Chinese and Latin names alike, one line each: no row stands out."""
    from app.ui.widgets.shortcuts_dialog import ShortcutsDialog

    window = open_window("zh")
    dialog = ShortcutsDialog(window.actions.shortcut_rows(), "keys", window)
    qtbot.addWidget(dialog)
    heights = {dialog.table.rowHeight(row) for row in range(dialog.table.rowCount())}
    assert dialog.table.rowCount() > 20 and len(heights) == 1
    assert not dialog.table.wordWrap()
