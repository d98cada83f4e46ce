"""The main window: assembles the docks, menus, toolbar and status bar around one document."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, Qt
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QKeyEvent,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QMainWindow,
    QMessageBox,
    QSizePolicy,
    QWidget,
)

from app import i18n
from app.i18n import tr
from app.model.scoring import SCORERS
from app.model.state import WORLDS
from app.model.view import initial_state
from app.state.document import Document
from app.state.session import Session
from app.ui import settings as keys
from app.ui.actions.exports import ExportActions
from app.ui.actions.files import FileActions
from app.ui.actions.presenting import PresentationActions
from app.ui.actions.scenes import SceneActions
from app.ui.format import format_score, name_tip, shown_name
from app.ui.language import choose_language
from app.ui.menus import build_menus, build_toolbar
from app.ui.panels.base import Panel
from app.ui.panels.registry import panel_specs
from app.ui.presentation import Presentation, stored_presentation
from app.ui.settings import settings, settings_problem
from app.ui.widgets.availability import mark_worlds
from app.ui.widgets.lazy_docks import LazyPanels, Placeholder
from app.ui.widgets.live_label import LiveLabel
from app.ui.widgets.scorer_choice import mark_usable
from app.ui.widgets.shortcuts_dialog import ShortcutsDialog
from app.ui.widgets.world_docks import WorldDocks

LAYOUT_VERSION = 1
WINDOW_ACTIONS = ("undo", "redo", "reset_lesson", "quit", "reset_layout", "shortcuts", "about")
"""The window's own actions; each is named `action.<name>` in the string tables."""


def redo_keys() -> list[QKeySequence]:
    """Redo answers to Ctrl+Y and Ctrl+Shift+Z on every system (Windows users reach for the
    first, Linux and macOS users for the second), plus whatever the platform calls Redo."""
    found = [QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")]
    for key in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo):
        if key not in found:
            found.append(key)
    return found


class MainWindow(QMainWindow):
    """Hosts every panel as a dock; owns no state of its own beyond the layout."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("main_window")
        self.setDockOptions(
            QMainWindow.DockOption.AllowTabbedDocks
            | QMainWindow.DockOption.AllowNestedDocks
            | QMainWindow.DockOption.AnimatedDocks
        )
        self._specs = {spec.name: spec for spec in panel_specs()}
        self.panels = LazyPanels(list(self._specs), self._build_panel)
        """Built when its dock first comes into view or it is first looked up by name."""
        self.docks: dict[str, QDockWidget] = {}
        self.actions: dict[str, QAction] = {}
        self._sized = False
        self._shown_world = ""
        self._build_docks()
        self.world_docks = WorldDocks(
            self, self.docks, {n: s.factory.world for n, s in self._specs.items()  # type: ignore[attr-defined]
                               if getattr(s.factory, "world", None)},
            document.set_world)
        self._build_actions()
        self.session = Session(document)
        self.presentation = Presentation(self, stored_presentation(settings()))
        # presentation first: its Close filter runs after the file actions' (Qt calls the
        # newest filter first), so a quit the user cancels leaves presentation mode alone
        self.presenting = PresentationActions(self, self.presentation)
        self.files = FileActions(self, self.session)
        self.exports = ExportActions(self, document, self.panels, self.files.folder)
        self.scenes = SceneActions(self, self.panels["guide"].run, LAYOUT_VERSION)
        for group in (self.presenting, self.files, self.exports, self.scenes):
            self.actions.update(group.actions)
        self.scenes.left.connect(
            lambda: self.world_docks.show_world(self.document.state.world, force=True))
        build_menus(self)
        build_toolbar(self)
        self._status = LiveLabel("status_pair", wrap=False)  # new text at every drag step
        self._status.setTextFormat(Qt.TextFormat.PlainText)  # names tokens: never markup
        self._status.holder.setSizePolicy(QSizePolicy.Policy.Ignored,
                                          QSizePolicy.Policy.Preferred)
        self.statusBar().addPermanentWidget(self._status.holder, 1)
        self._default_layout = self.saveState(LAYOUT_VERSION)
        document.changed.connect(self._on_document_changed)
        document.notice.connect(self._on_notice)
        document.undo_stack.cleanChanged.connect(self._update_title)
        self.retranslate()
        self._on_document_changed()

    def _build_docks(self) -> None:
        """Every dock, each holding a placeholder until its panel is needed; panels that must
        see every change even out of sight are built at once."""
        for spec in self._specs.values():
            dock = QDockWidget(self)
            dock.setObjectName(f"dock_{spec.name}")
            dock.setWidget(Placeholder(spec.name, self.panels.build))
            dock.setFeatures(
                QDockWidget.DockWidgetFeature.DockWidgetClosable
                | QDockWidget.DockWidgetFeature.DockWidgetMovable
                | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            )
            self.addDockWidget(spec.area, dock)
            if spec.tab_with and spec.tab_with in self.docks:
                self.tabifyDockWidget(self.docks[spec.tab_with], dock)
            self.docks[spec.name] = dock
        for spec in self._specs.values():
            if spec.tab_with is None:
                self.docks[spec.name].raise_()
            if getattr(spec.factory, "observes_while_hidden", False):
                self.panels.build(spec.name)  # now: it must see every change

    def _build_panel(self, name: str) -> Panel:
        """Build a panel into its dock, in the window's current look and language."""
        spec, dock = self._specs[name], self.docks[name]
        panel = spec.factory(self.document)
        holder = dock.widget()
        dock.setWidget(panel)
        if isinstance(holder, Placeholder):
            holder.deleteLater()
        presentation = getattr(self, "presentation", None)  # None while the window is built
        if presentation is not None and panel.look != presentation.look:
            panel.set_look(presentation.look)
        if dock.isVisible():
            panel.show()
        return panel

    def _apply_default_sizes(self) -> None:
        """Split the window: editors left, the matrix over the tab group right (55 : 45)."""
        width, height = self.width(), self.height()
        left = next((self.docks[n] for n in ("playground", "editor")
                     if not self.docks[n].isHidden()), self.docks["playground"])
        self.resizeDocks([left, self.docks["heatmap"]],
                         [width // 2, width - width // 2], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["heatmap"], self.docks["expansion"]],
                         [int(height * 0.55), int(height * 0.45)], Qt.Orientation.Vertical)
        self._sized = True

    def showEvent(self, event: QShowEvent) -> None:
        if not self._sized:
            self._apply_default_sizes()
        super().showEvent(event)
        if self.scenes.active:  # a scene's proportions need the window's final size
            self.scenes.arrange()

    def _raise_editor_for(self, world: str) -> None:
        """Only the open world's editor has a dock; it comes to the front when the world
        changes (in the lesson, each scene lays out its own docks)."""
        if self.scenes.active:
            return
        self.world_docks.show_world(world)
        name = "playground" if world == "dialogue" else "editor"
        dock = self.docks.get(name)
        if dock is not None and not dock.isHidden() and self._shown_world != world:
            dock.raise_()
        self._shown_world = world

    def _action(self, name: str, shortcut: QKeySequence | str | None = None,
                slot: object = None, checkable: bool = False) -> QAction:
        action = QAction(self)
        action.setObjectName(f"action_{name}")
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        if slot is not None:
            action.triggered.connect(slot)
        self.actions[name] = action
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        stack = self.document.undo_stack
        undo = self._action("undo", QKeySequence.StandardKey.Undo, stack.undo)
        redo = self._action("redo", None, stack.redo)
        redo.setShortcuts(redo_keys())
        stack.canUndoChanged.connect(undo.setEnabled)
        stack.canRedoChanged.connect(redo.setEnabled)
        undo.setEnabled(stack.canUndo())
        redo.setEnabled(stack.canRedo())
        self._action("reset_lesson", "Ctrl+R", self.document.reset_to_lesson)
        self._action("quit", "Ctrl+Q", self.close)
        self._action("reset_layout", "Ctrl+Shift+L", self.reset_layout)
        self._action("shortcuts", "F1", self.show_shortcuts)
        self._action("about", "Shift+F1", self.show_about)
        self._world_group = QActionGroup(self)
        for number, world in enumerate(WORLDS, start=1):
            action = self._action(f"world_{world}", f"Ctrl+{number}", checkable=True)
            action.triggered.connect(lambda _=False, w=world: self.document.set_world(w))
            self._world_group.addAction(action)
        self._language_group = QActionGroup(self)
        for lang in i18n.LANGUAGES:
            action = self._action(f"lang_{lang}", None, checkable=True)
            action.triggered.connect(lambda _=False, code=lang: choose_language(code))
            self._language_group.addAction(action)
        self.actions["lang_en"].setShortcut(QKeySequence("Ctrl+Shift+E"))
        self.actions["lang_zh"].setShortcut(QKeySequence("Ctrl+Shift+C"))

    def retranslate(self) -> None:
        """Every string the window itself shows (panels retranslate themselves)."""
        for name in WINDOW_ACTIONS:
            self.actions[name].setText(tr(f"action.{name}"))
        for lang in i18n.LANGUAGES:
            self.actions[f"lang_{lang}"].setText(tr(f"language.{lang}"))
        for world in WORLDS:
            self.actions[f"world_{world}"].setText(tr(f"world.{world}"))
        self.actions[f"lang_{i18n.language()}"].setChecked(True)
        self.file_menu.setTitle(tr("menu.file"))
        self.edit_menu.setTitle(tr("menu.edit"))
        self.view_menu.setTitle(tr("menu.view"))
        self.language_menu.setTitle(tr("menu.language"))
        self.world_menu.setTitle(tr("menu.world"))
        self.help_menu.setTitle(tr("menu.help"))
        self.toolbar.setWindowTitle(tr("toolbar.main"))
        self.world_label.setText(tr("toolbar.world"))
        self.scorer_label.setText(tr("toolbar.scorer"))
        self._fill_combo(self.world_combo, [tr(f"world.{w}") for w in WORLDS])
        self._fill_combo(self.scorer_combo, [tr(f"scorer.{name}") for name in SCORERS])
        self._title_docks()
        for group in (self.files, self.exports, self.presenting, self.scenes):
            group.retranslate()
        self._update_title()
        self._on_document_changed()

    @staticmethod
    def _fill_combo(combo: QComboBox, items: list[str]) -> None:
        index = combo.currentIndex()
        combo.blockSignals(True)
        combo.clear()
        combo.addItems(items)
        combo.setCurrentIndex(max(index, 0))
        combo.blockSignals(False)

    def _title_docks(self) -> None:
        """Each dock's title for the current state (the editor names the world's width)."""
        state = self.document.state
        for name, spec in self._specs.items():
            title = spec.factory.title(state)  # type: ignore[attr-defined]
            if self.docks[name].windowTitle() != title:
                self.docks[name].setWindowTitle(title)

    def _update_title(self, clean: bool | None = None) -> None:
        """Title with " *" while unsaved; `clean` comes with the signal (the stack may be dying)."""
        clean = self.document.undo_stack.isClean() if clean is None else clean
        modified = "" if clean else " *"
        self.setWindowTitle(f"{tr('app.title')}{modified}")

    def _on_document_changed(self) -> None:
        state = self.document.state
        view = self.document.view
        self._raise_editor_for(state.world)
        for combo, index in (
            (self.world_combo, WORLDS.index(state.world)),
            (self.scorer_combo, list(SCORERS).index(state.scorer)),
        ):
            combo.blockSignals(True)
            combo.setCurrentIndex(index)
            combo.blockSignals(False)
        mark_usable(self.scorer_combo, self.document)  # a reshaped d: no learned weights
        self._title_docks()
        self.actions[f"world_{state.world}"].setChecked(True)
        self.actions["world_imported"].setEnabled(state.imported is not None)
        mark_worlds(self.world_combo, state)
        self._status.setText(
            tr(
                "status.pair",
                query=shown_name(view.query_names[state.query]),
                key=shown_name(view.key_names[state.key]),
                scorer=tr(f"scorer.{state.scorer}"),
                score=format_score(view.selected_score),
            )
        )
        self._status.setToolTip(name_tip(view.query_names[state.query],
                                         view.key_names[state.key]))

    def _on_notice(self, message: str) -> None:
        self.statusBar().showMessage(message, 6000)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Keys no widget took reach the window: Space steps the lesson, as a clicker's does."""
        if not self.scenes.step_key(event):
            super().keyPressEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def restore_layout(self) -> None:
        """Bring back the docks as the user left them; a stale or foreign layout is ignored."""
        problem = settings_problem()
        if problem is not None:
            self.statusBar().showMessage(tr("notice.settings_unusable", problem=problem), 15000)
        store = settings()
        geometry = store.value(keys.WINDOW_GEOMETRY)
        state = store.value(keys.WINDOW_STATE)
        if not (isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)):
            self._fit_screen()
        if isinstance(state, QByteArray) and self.restoreState(state, LAYOUT_VERSION):
            self._sized = True
            self.world_docks.show_world(self.document.state.world, force=True)
            if str(store.value(keys.LESSON_ACTIVE, "false")).lower() == "true":
                self.scenes.open_scene(_scene_number(store.value(keys.LESSON_SCENE, 0)),
                                       set_up=False)
        else:  # a first start: the lesson's first scene, in the 2-D world, stepper visible
            self.open_lesson(0)

    def open_lesson(self, index: int, asked: bool = False) -> None:
        """Open the lesson at scene `index`. A fresh document is set up with no history; a
        session brought back keeps its state, unless the scene was `asked` for by name
        (`--scene N`): then the setup is one undo step on top of it."""
        untouched = (self.document.state == initial_state(self.document.data)
                     and not self.document.undo_stack.count())
        self.scenes.open_scene(index, set_up=untouched)
        if asked and not untouched:
            self.scenes.run.set_up_again()

    def show_panel(self, name: str) -> Panel:
        """Bring a panel's dock to the front, up to date, and return the panel."""
        dock = self.docks[name]
        dock.show()
        dock.raise_()
        panel = self.panels[name]
        panel.catch_up()
        return panel

    def _fit_screen(self) -> None:
        """First start: fill most of the screen (a projector is often exactly 1280×720)."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        area = screen.availableGeometry()
        self.resize(max(640, int(area.width() * 0.95)), max(480, int(area.height() * 0.92)))
        self.move(area.center() - self.rect().center())

    def reset_layout(self) -> None:
        self.scenes.set_active(False)
        for dock in self.docks.values():
            dock.setFloating(False)
            dock.show()
        self.restoreState(self._default_layout, LAYOUT_VERSION)
        self.world_docks.show_world(self.document.state.world, force=True)
        self._apply_default_sizes()

    def closeEvent(self, event: QCloseEvent) -> None:
        store = settings()
        store.setValue(keys.WINDOW_GEOMETRY, self.saveGeometry())
        lesson = self.scenes.active and self.scenes.free_layout is not None
        free = self.scenes.free_layout if lesson else self.saveState(LAYOUT_VERSION)
        store.setValue(keys.WINDOW_STATE, free)  # the free layout; a scene lays itself out
        store.setValue(keys.LESSON_ACTIVE, "true" if lesson else "false")
        store.setValue(keys.LESSON_SCENE, self.scenes.run.index)
        store.sync()
        super().closeEvent(event)

    def dispose(self) -> None:
        """Delete now, while Qt is whole: left to interpreter exit, plot items can crash it."""
        self.deleteLater()
        QApplication.sendPostedEvents(self, QEvent.Type.DeferredDelete)

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """(action, key) for every action that has a shortcut, as the help lists them."""
        rows = []
        for action in self.actions.values():
            sequence = " / ".join(key.toString(QKeySequence.SequenceFormat.NativeText)
                                  for key in action.shortcuts())
            if sequence and action.isVisible():
                rows.append((action.text().replace("&", ""), sequence))
        return rows

    def show_shortcuts(self) -> None:
        """F1: every shortcut, in a dialog that fits the screen and scrolls inside."""
        dialog = ShortcutsDialog(self.shortcut_rows(), tr("action.shortcuts"), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def show_about(self) -> None:
        QMessageBox.about(self, tr("action.about"), tr("about.text"))


def _scene_number(value: object) -> int:
    """A stored scene index, or the first scene for anything that is not a number."""
    try:
        return max(int(str(value)), 0)
    except ValueError:
        return 0
