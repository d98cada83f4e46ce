"""The main window's menu bar and toolbar, built from the actions the window and its action
modules own: what sits where is decided here, what each action does beside what it acts on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QSizePolicy, QToolBar

from app import i18n
from app.model.scoring import SCORERS
from app.model.state import WORLDS

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow


def build_menus(window: MainWindow) -> None:
    """File, Edit, View, World and Help, from the window's actions; Alt+N shows dock N."""
    bar = window.menuBar()
    window.file_menu = bar.addMenu("")
    for name in ("open", "import_vectors", "save", "save_as"):
        window.file_menu.addAction(window.actions[name])
    window.file_menu.addMenu(window.files.recent_menu)
    window.file_menu.addSeparator()
    window.file_menu.addMenu(window.exports.menu)
    window.file_menu.addSeparator()
    window.file_menu.addAction(window.actions["quit"])
    window.edit_menu = bar.addMenu("")
    for name in ("undo", "redo", "reset_lesson"):
        window.edit_menu.addAction(window.actions[name])
    window.view_menu = bar.addMenu("")
    for number, (name, dock) in enumerate(window.docks.items(), start=1):
        toggle = dock.toggleViewAction()
        toggle.setObjectName(f"action_show_{name}")
        if number <= 10:  # Alt+1 … Alt+9, then Alt+0
            toggle.setShortcut(QKeySequence(f"Alt+{number % 10}"))
        window.actions[f"show_{name}"] = toggle
        window.view_menu.addAction(toggle)
    window.view_menu.addSeparator()
    window.view_menu.addAction(window.actions["lesson"])
    window.view_menu.addAction(window.actions["reset_layout"])
    window.language_menu = window.view_menu.addMenu("")
    for lang in i18n.LANGUAGES:
        window.language_menu.addAction(window.actions[f"lang_{lang}"])
    window.view_menu.addSeparator()
    for name in ("presentation", "zoom_in", "zoom_out", "zoom_reset"):
        window.view_menu.addAction(window.actions[name])
    window.view_menu.addMenu(window.presenting.theme_menu)
    for name in ("full_screen", "spotlight"):
        window.view_menu.addAction(window.actions[name])
    window.world_menu = bar.addMenu("")
    for world in WORLDS:
        window.world_menu.addAction(window.actions[f"world_{world}"])
    window.help_menu = bar.addMenu("")
    window.help_menu.addAction(window.actions["shortcuts"])
    window.help_menu.addAction(window.actions["about"])

def build_toolbar(window: MainWindow) -> None:
    """Presentation first (never folded away at a large zoom), then world and scorer, then
    undo, redo and reset."""
    window.toolbar = QToolBar(window)
    window.toolbar.setObjectName("toolbar_main")
    window.toolbar.setMovable(False)
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, window.toolbar)
    window.world_label = QLabel()
    window.world_combo = QComboBox()
    window.world_combo.setObjectName("world_combo")
    window.world_combo.currentIndexChanged.connect(
        lambda index: index >= 0 and window.document.set_world(WORLDS[index])
    )
    window.scorer_label = QLabel()
    window.scorer_combo = QComboBox()
    window.scorer_combo.setObjectName("scorer_combo")
    window.scorer_combo.currentIndexChanged.connect(
        lambda index: index >= 0 and window.document.set_scorer(list(SCORERS)[index])
    )
    for combo in (window.world_combo, window.scorer_combo):
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    window.toolbar.addAction(window.actions["presentation"])
    window.toolbar.addSeparator()
    for widget in (window.world_label, window.world_combo,
                   window.scorer_label, window.scorer_combo):
        window.toolbar.addWidget(widget)
    window.toolbar.addSeparator()
    window.toolbar.addAction(window.actions["undo"])
    window.toolbar.addAction(window.actions["redo"])
    window.toolbar.addAction(window.actions["reset_lesson"])
