"""Owns the classroom menus of the main window: scenario files (open, save, recent), export,
presentation mode, zoom, themes, full screen and spotlight, and the session's autosave.

Kept out of main_window.py so the window stays an assembler of docks; every action here has
a shortcut, shown in its menu and listed by Help → Shortcuts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QWidget,
)

from app.i18n import tr
from app.model.errors import ScenarioError
from app.model.scenario import SUFFIX, read_scenario, with_scenario_suffix, write_scenario
from app.model.state import LabState
from app.model.view import initial_state
from app.state.autosave import Autosaver, FolderLock, restore, write_problem
from app.ui import settings as keys
from app.ui.export import copy_image, save_image, save_scores_csv
from app.ui.look import Look
from app.ui.panels.base import Panel
from app.ui.presentation import THEME_CHOICES, Presentation, stored_presentation
from app.ui.settings import settings

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow

RECENT_LIMIT = 5
THEME_KEYS = {"light": "classroom.theme.light", "projector": "classroom.theme.projector",
              "dark": "classroom.theme.dark"}
TEXT_KEYS = {
    "open": "classroom.action.open", "save": "classroom.action.save",
    "save_as": "classroom.action.save_as", "export_window": "classroom.action.export_window",
    "export_panel": "classroom.action.export_panel",
    "export_scores": "classroom.action.export_scores",
    "copy_window": "classroom.action.copy_window", "copy_panel": "classroom.action.copy_panel",
    "presentation": "classroom.action.presentation", "zoom_in": "classroom.action.zoom_in",
    "zoom_out": "classroom.action.zoom_out", "zoom_reset": "classroom.action.zoom_reset",
    "full_screen": "classroom.action.full_screen", "spotlight": "classroom.action.spotlight",
}


class ClassroomActions(QObject):
    """Builds the actions into the window's menus and toolbar and carries them out."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.presentation = Presentation(window, stored_presentation(settings()))
        self.current_path: Path | None = None
        self.autosave: Autosaver | None = None
        self.folder_lock: FolderLock | None = None
        self.message: QMessageBox | None = None
        self.note: QMessageBox | None = None
        """The session's start-up note (autosave kept aside, a second copy, autosave off)."""
        self.quit_box: QMessageBox | None = None
        self._close_confirmed = False
        self._note_pending = False
        self.autosave_off = QLabel()
        """Stays in the status bar while the autosave cannot write."""
        self.autosave_off.setObjectName("autosave_off")
        self.autosave_off.hide()
        window.statusBar().addPermanentWidget(self.autosave_off)
        self._panel_name: str | None = None
        self._restored: LabState | None = None
        self._build_actions()
        self._build_menus()
        window.installEventFilter(self)
        QApplication.instance().focusChanged.connect(self._on_focus_changed)
        self.presentation.look_changed.connect(self._on_look_changed)
        self.presentation.presenting_changed.connect(lambda _on: self._sync_checks())

    # ---- building ---------------------------------------------------------------------------

    def _add(self, name: str, shortcuts: list[QKeySequence | str], slot: object,
             checkable: bool = False) -> QAction:
        action = QAction(self.window)
        action.setObjectName(f"action_{name}")
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        self.window.actions[name] = action
        self.window.addAction(action)
        return action

    def _build_actions(self) -> None:
        p = self.presentation
        self._add("open", ["Ctrl+O"], self.open_dialog)
        self._add("save", ["Ctrl+S"], self.save)
        self._add("save_as", ["Ctrl+Shift+S"], self.save_as)
        self.recent_actions = [
            self._add(f"recent_{n}", [f"Ctrl+Alt+{n}"],
                      lambda _=False, i=n - 1: self.open_recent(i))
            for n in range(1, RECENT_LIMIT + 1)
        ]
        self._add("export_window", ["Ctrl+E"], lambda: self.export_image_dialog(whole=True))
        self._add("export_panel", ["Ctrl+Alt+E"], lambda: self.export_image_dialog(whole=False))
        self._add("export_scores", ["Ctrl+Alt+X"], self.export_scores_dialog)
        self._add("copy_window", ["Ctrl+Alt+Shift+C"], lambda: self.copy(whole=True))
        self._add("copy_panel", ["Ctrl+Alt+C"], lambda: self.copy(whole=False))
        self._add("presentation", ["F5"], p.set_presenting, checkable=True)
        self._add("zoom_in", ["Ctrl+=", "Ctrl++"], p.zoom_in)
        self._add("zoom_out", ["Ctrl+-"], p.zoom_out)
        self._add("zoom_reset", ["Ctrl+0"], p.zoom_reset)
        self._add("full_screen", ["F11"], p.set_full_screen, checkable=True)
        self._add("spotlight", ["F6"], p.set_spotlight, checkable=True)
        self._theme_group = QActionGroup(self)
        for number, name in enumerate(THEME_CHOICES, start=1):
            action = self._add(f"theme_{name}", [f"Ctrl+Alt+{'LPD'[number - 1]}"],
                               lambda _=False, n=name: p.set_theme(n), checkable=True)
            self._theme_group.addAction(action)

    def _build_menus(self) -> None:
        w, acts = self.window, self.window.actions
        quit_action = acts["quit"]
        for name in ("open", "save", "save_as"):
            w.file_menu.insertAction(quit_action, acts[name])
        self.recent_menu = QMenu(w.file_menu)
        self.recent_menu.addActions(self.recent_actions)
        w.file_menu.insertMenu(quit_action, self.recent_menu)
        w.file_menu.insertSeparator(quit_action)
        self.export_menu = QMenu(w.file_menu)
        for name in ("export_window", "export_panel", "export_scores", None,
                     "copy_window", "copy_panel"):
            if name is None:
                self.export_menu.addSeparator()
            else:
                self.export_menu.addAction(acts[name])
        w.file_menu.insertMenu(quit_action, self.export_menu)
        w.file_menu.insertSeparator(quit_action)
        w.view_menu.addSeparator()
        for name in ("presentation", "zoom_in", "zoom_out", "zoom_reset"):
            w.view_menu.addAction(acts[name])
        self.theme_menu = w.view_menu.addMenu("")
        self.theme_menu.addActions(self._theme_group.actions())
        for name in ("full_screen", "spotlight"):
            w.view_menu.addAction(acts[name])
        first = w.toolbar.actions()[0] if w.toolbar.actions() else None
        w.toolbar.insertAction(first, acts["presentation"])  # first: never folded away at 250 %
        w.toolbar.insertSeparator(first)
        for combo in w.toolbar.findChildren(QComboBox):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self._update_recent()
        self._sync_checks()

    def retranslate(self) -> None:
        acts = self.window.actions
        if self.autosave is not None and self.autosave.problem is not None:
            self.autosave_off.setText(tr("classroom.autosave_off"))
            self.autosave_off.setToolTip(
                tr("classroom.autosave_failed", problem=self.autosave.problem))
        for name, key in TEXT_KEYS.items():
            acts[name].setText(tr(key))
        for name, key in THEME_KEYS.items():
            acts[f"theme_{name}"].setText(tr(key))
        self.recent_menu.setTitle(tr("classroom.menu.recent"))
        self.export_menu.setTitle(tr("classroom.menu.export"))
        self.theme_menu.setTitle(tr("classroom.menu.theme"))

    # ---- scenarios --------------------------------------------------------------------------

    def begin_session(self, scenario: Path | None = None, restore_last: bool = True) -> None:
        """Start from a scenario file (a bad one raises ScenarioError), else the last session.

        The last session is this copy's own: a second copy of the app on the same folder
        restores (and later writes) `autosave.copy-2.*`, never the first copy's files.
        """
        template = initial_state(self.document.data)
        if scenario is not None:
            self.document.load_state(read_scenario(scenario, template), "open")
            self._opened(Path(scenario))
            return
        if not restore_last:
            return
        lock = self._claim_folder()
        found = restore(template, lock.folder, lock.copy)
        if found.state is not None:
            self.document.apply_state(found.state)
            self.document.undo_stack.clear()
            self._restored = found.state
            key = "classroom.restored_backup" if found.from_backup else "classroom.restored"
            self.window.statusBar().showMessage(tr(key), 8000)
        elif found.problems:
            self.window.statusBar().showMessage(
                tr("classroom.autosave_unreadable", problem=str(found.problems[0])), 8000)

    def _claim_folder(self) -> FolderLock:
        """Lock this copy's autosave in the user folder (once per session)."""
        if self.folder_lock is None:
            self.folder_lock = FolderLock()
        return self.folder_lock

    def start_autosave(self) -> Autosaver:
        """Save the state from now on; the window's `autosave` is what the error hook flushes.

        Before anything is written: unreadable autosave files are moved aside, a second copy
        of the app says which file it saves to, and a folder that cannot be written says at
        once that work will not be kept. Each of these stays on screen in one note.
        """
        lock = self._claim_folder()
        autosave = Autosaver(self.document, lock.folder, copy=lock.copy)
        autosave.failed.connect(self._on_autosave_failed)
        autosave.recovered.connect(self._on_autosave_recovered)
        self.autosave = self.window.autosave = autosave
        notes: list[str] = []
        if lock.copy > 1:
            notes.append(tr("classroom.second_copy", path=str(autosave.path)))
        try:
            moved = autosave.keep_aside_unreadable()
        except OSError:  # could not rename it: then nothing is ever written over it
            moved = []
            notes.append(tr("classroom.autosave_not_moved", path=str(autosave.path),
                            problem=autosave.problem or ""))
        else:
            if autosave.check_writable() is not None:
                notes.append(tr("classroom.autosave_off_at_start", folder=str(lock.folder),
                                problem=autosave.problem or ""))
            elif self._restored is not None and self._restored == self.document.state:
                autosave.mark_saved(self._restored)
            else:
                with contextlib.suppress(OSError):  # reported through `failed`
                    autosave.flush()
        notes.extend(tr("classroom.kept_aside", file=old.name, path=str(new))
                     for old, new in moved)
        status = [tr("classroom.kept_aside_status", count=len(moved))] if moved else []
        if lock.copy > 1:
            status.append(tr("classroom.second_copy_status", file=autosave.path.name))
        if status:  # after what begin_session said about the restore, not instead of it
            bar = self.window.statusBar()
            bar.showMessage(" ".join(filter(None, [bar.currentMessage(), *status])), 15000)
        QApplication.instance().aboutToQuit.connect(self.end_session)
        if notes:
            self._note(notes)
        return autosave

    def end_session(self) -> None:
        """On quit: write the last changes and let the next copy of the app have the files."""
        if self.folder_lock is None:  # already ended (window closed, then the app quits)
            return
        if self.autosave is not None:
            with contextlib.suppress(OSError):
                self.autosave.flush()
            self.autosave.stop()  # no writes once another copy may own the files
        self.folder_lock.release()
        self.folder_lock = None

    def _on_autosave_failed(self, problem: str) -> None:
        """Once per failure, not at every change: the status bar and a mark that stays."""
        self.window.statusBar().showMessage(tr("classroom.autosave_failed", problem=problem),
                                            15000)
        self.autosave_off.setText(tr("classroom.autosave_off"))
        self.autosave_off.setToolTip(tr("classroom.autosave_failed", problem=problem))
        self.autosave_off.show()

    def _on_autosave_recovered(self, path: str) -> None:
        self.autosave_off.hide()
        self.window.statusBar().showMessage(tr("classroom.autosave_recovered",
                                               file=Path(path).name), 8000)

    def _note(self, lines: list[str]) -> None:
        """A note that stays until read (paths are long): shown with the window, not before."""
        box = QMessageBox(QMessageBox.Icon.Information, tr("app.title"), tr("classroom.note"),
                          QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName("session_note")
        box.setInformativeText("\n\n".join(lines))
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = box
        self._note_pending = not self.window.isVisible()
        if not self._note_pending:
            box.open()

    def _may_close(self) -> bool:
        """False (and a question on screen) while work is in no file: not autosaved because
        saving fails, and not saved to a scenario either."""
        autosave = self.autosave
        if self._close_confirmed or autosave is None or self.folder_lock is None:
            return True
        if self.quit_box is not None:  # already asking
            return False
        with contextlib.suppress(OSError):
            autosave.flush()
        if not autosave.pending or self.document.undo_stack.isClean():
            return True
        box = QMessageBox(QMessageBox.Icon.Warning, tr("app.title"),
                          tr("classroom.quit_unsaved"),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self.window)
        box.setObjectName("quit_unsaved")
        box.setInformativeText(tr("classroom.quit_unsaved_detail", folder=str(autosave.folder),
                                  problem=autosave.problem or ""))
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda _result: self._on_quit_answer(box))
        self.quit_box = box
        box.open()
        return False

    def _on_quit_answer(self, box: QMessageBox) -> None:
        answer = box.standardButton(box.clickedButton()) if box.clickedButton() else None
        self.quit_box = None
        if answer == QMessageBox.StandardButton.Save and not self.save():
            return
        if answer in (QMessageBox.StandardButton.Save, QMessageBox.StandardButton.Discard):
            self._close_confirmed = True
            self.window.close()

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, tr("classroom.dialog.open"), self._folder(""),
            ";;".join((tr("classroom.filter.scenario"), tr("classroom.filter.json"),
                       tr("classroom.filter.all"))))
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Replace the state with a file's, as one undo step; a bad file changes nothing."""
        try:
            state = read_scenario(path, initial_state(self.document.data))
        except ScenarioError as error:
            if not Path(path).exists():
                self._forget_recent(Path(path))
            self._warn(tr("classroom.open_failed"), str(error))
            return False
        self.document.load_state(state, "open")
        self._opened(Path(path))
        return True

    def _opened(self, path: Path) -> None:
        self.current_path = path
        self.document.undo_stack.setClean()
        self._remember_recent(path)
        self.window.statusBar().showMessage(tr("classroom.opened", file=path.name), 6000)

    def open_recent(self, index: int) -> None:
        files = self.recent_files()
        if index < len(files):
            self.open_path(Path(files[index]))

    def save(self) -> bool:
        return self.save_as() if self.current_path is None else self.save_to(self.current_path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(
            self.window, tr("classroom.dialog.save"),
            self._folder(self.current_path.name if self.current_path else f"attention-lab{SUFFIX}"),
            tr("classroom.filter.scenario"))
        return bool(path) and self.save_to(with_scenario_suffix(Path(path)))

    def save_to(self, path: Path) -> bool:
        try:
            write_scenario(self.document.state, path)
        except (OSError, ValueError) as error:  # ValueError: text UTF-8 cannot hold
            self._warn(tr("classroom.save_failed"), f"{path.name}: {write_problem(error)}")
            return False
        self.current_path = path
        self.document.undo_stack.setClean()
        self._remember_recent(path)
        self.window.statusBar().showMessage(tr("classroom.saved", file=path.name), 6000)
        return True

    def _folder(self, name: str) -> str:
        """Where a file dialog starts: beside the current scenario, else the home folder."""
        folder = self.current_path.parent if self.current_path is not None else Path.home()
        return str(folder / name) if name else str(folder)

    # ---- recent files -----------------------------------------------------------------------

    def recent_files(self) -> list[str]:
        return [str(f) for f in settings().value(keys.RECENT_FILES, [], list)][:RECENT_LIMIT]

    def _store_recent(self, files: list[str]) -> None:
        store = settings()
        store.setValue(keys.RECENT_FILES, files[:RECENT_LIMIT])
        store.sync()
        self._update_recent()

    def _remember_recent(self, path: Path) -> None:
        name = str(Path(path).resolve())
        self._store_recent([name, *(f for f in self.recent_files() if f != name)])

    def _forget_recent(self, path: Path) -> None:
        name = str(Path(path).resolve())
        self._store_recent([f for f in self.recent_files() if f != name])

    def _update_recent(self) -> None:
        files = self.recent_files()
        for number, action in enumerate(self.recent_actions, start=1):
            present = number <= len(files)
            action.setVisible(present)
            if present:
                action.setText(f"&{number}  {Path(files[number - 1]).name}")
                action.setToolTip(files[number - 1])
        self.recent_menu.setEnabled(bool(files))

    # ---- export -----------------------------------------------------------------------------

    def current_panel(self) -> Panel:
        """The panel last focused, else the first one on screen (what 'this panel' means)."""
        panels = self.window.panels
        if self._panel_name in panels and panels[self._panel_name].isVisible():
            return panels[self._panel_name]
        visible = [p for p in panels.values() if p.isVisible()]
        return (visible or list(panels.values()))[0]

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        while new is not None and not isinstance(new, Panel):
            new = new.parentWidget()
        if new is not None and new.window() is self.window:
            self._panel_name = new.name

    def _target(self, whole: bool) -> QWidget:
        return self.window if whole or not self.window.panels else self.current_panel()

    def export_image_dialog(self, whole: bool) -> None:
        png, svg = tr("classroom.filter.png"), tr("classroom.filter.svg")
        path, chosen = QFileDialog.getSaveFileName(
            self.window, tr("classroom.dialog.export_image"), self._folder("attention-lab.png"),
            f"{png};;{svg}")
        if path:
            suffix = ".svg" if chosen == svg else ".png"
            target = Path(path + ("" if Path(path).suffix else suffix))
            self.export_image(self._target(whole), target)

    def export_scores_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self.window, tr("classroom.dialog.export_scores"), self._folder("scores.csv"),
            tr("classroom.filter.csv"))
        if path:
            self.export_scores(Path(path + ("" if Path(path).suffix else ".csv")))

    def export_image(self, widget: QWidget, path: Path) -> bool:
        return self._export(path, lambda: save_image(widget, path))

    def export_scores(self, path: Path) -> bool:
        return self._export(path, lambda: save_scores_csv(self.document.view, path))

    def _export(self, path: Path, write: Callable[[], None]) -> bool:
        """Write one export; a bad destination becomes a message naming the file."""
        try:
            write()
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            self._warn(tr("classroom.export_failed"), f"{path.name}: {reason}")
            return False
        self.window.statusBar().showMessage(tr("classroom.exported", file=path.name), 6000)
        return True

    def copy(self, whole: bool) -> None:
        copy_image(self._target(whole))
        self.window.statusBar().showMessage(tr("classroom.copied"), 4000)

    # ---- look -------------------------------------------------------------------------------

    def _on_look_changed(self, look: Look) -> None:
        if self.presentation.presenting:
            store = settings()
            store.setValue(keys.PRESENTATION_SCALE, look.scale)
            store.setValue(keys.PRESENTATION_THEME, self.presentation.theme_name)
        self._sync_checks()
        self.window.statusBar().showMessage(
            tr("classroom.scale", percent=round(look.scale * 100)), 3000)

    def _sync_checks(self) -> None:
        acts, look = self.window.actions, self.presentation.look
        for name, checked in (("presentation", self.presentation.presenting),
                              ("spotlight", look.spotlight),
                              ("full_screen", self.window.isFullScreen()),
                              (f"theme_{self.presentation.theme_name}", True)):
            acts[name].blockSignals(True)
            acts[name].setChecked(checked)
            acts[name].blockSignals(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.WindowStateChange:
            self._sync_checks()
        elif watched is self.window and event.type() == QEvent.Type.Close:
            if not self._may_close():
                event.ignore()
                return True
            self.presentation.set_presenting(False)  # the window saves the desk layout
            self.end_session()
        elif (watched is self.window and event.type() == QEvent.Type.Show
              and self._note_pending and self.note is not None):
            self._note_pending = False
            self.note.open()
        return False

    def _warn(self, headline: str, detail: str) -> None:
        """A non-blocking message box: what went wrong, then the technical line (file: field)."""
        box = QMessageBox(QMessageBox.Icon.Warning, tr("app.title"), headline,
                          QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName("classroom_message")
        box.setInformativeText(detail)
        self.message = box
        box.open()
