"""Owns File → Open, Import vectors, Save, Save as, Save with class answers and Open recent,
and what the window says
about the session's files: the last session brought back, the autosave's notes, and the
question on quit when work would be lost. The files themselves are the state layer's
(`app.state.session`); reading a capture is the model's (`app.model.capture`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
)

from app.i18n import tr
from app.model.capture import MAX_SAVED_NUMBERS, Capture, CaptureError, load_capture
from app.model.errors import ScenarioError
from app.model.scenario import SUFFIX, with_scenario_suffix
from app.state.autosave import Autosaver, write_problem
from app.state.notice import Notice
from app.state.session import AutosaveStart, Session
from app.ui import settings as keys
from app.ui.actions.common import warn
from app.ui.actions.refusals import capture_refusal
from app.ui.actions.spec import ActionSpec
from app.ui.errors import installed as installed_error_hook
from app.ui.notices import word
from app.ui.qt_known import gui_app
from app.ui.settings import settings

RECENT_LIMIT = 5


class FileActions(QObject):
    """Scenario files and the session's autosave, as the user sees them."""

    recent_changed = Signal()
    """The list of recent files changed (File → Open recent shows it)."""

    def __init__(self, window: QMainWindow, session: Session) -> None:
        super().__init__(window)
        self.window = window
        self.session = session
        self.document = session.document
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
        self._recent = self.recent_files()
        self._importing: tuple[Capture, Path, bool] | None = None
        """The capture being computed, its file and whether scale mode was on before it."""
        self.document.importing.connect(self._import_ended)
        window.installEventFilter(self)

    def action_specs(self) -> list[ActionSpec]:
        """File → Open, Import, Save, Save as, the recent files and Quit."""
        specs = [
            ActionSpec("open", "classroom.action.open", self.open_dialog, ("Ctrl+O",),
                       menu="file"),
            ActionSpec("import_vectors", "classroom.action.import_vectors", self.import_dialog,
                       ("Ctrl+I",), menu="file"),
            ActionSpec("save", "classroom.action.save", self.save, ("Ctrl+S",), menu="file"),
            ActionSpec("save_as", "classroom.action.save_as", lambda: self.save_as(),
                       ("Ctrl+Shift+S",), menu="file"),
            ActionSpec("save_with_answers", "answers.action.save_with", self.save_with_answers,
                       ("Ctrl+Alt+S",), menu="file"),
            ActionSpec("quit", "action.quit", self.window.close, ("Ctrl+Q",), menu="file",
                       section=2),
        ]
        # (type: ignore[misc]: mypy cannot infer a lambda whose default binds the loop's value)
        specs += [ActionSpec(f"recent_{n}", lambda n=n: self._recent_title(n),  # type: ignore[misc]
                             lambda _=False, i=n - 1: self.open_recent(i), (f"Ctrl+Alt+{n}",),
                             menu="file.recent", visible=lambda n=n: n <= len(self._recent),  # type: ignore[misc]
                             tip=lambda n=n: self._recent_file(n))  # type: ignore[misc]
                  for n in range(1, RECENT_LIMIT + 1)]
        return specs

    def _recent_file(self, number: int) -> str:
        return self._recent[number - 1] if number <= len(self._recent) else ""

    def _recent_title(self, number: int) -> str:
        return f"&{number}  {Path(self._recent_file(number)).name}"

    @property
    def current_path(self) -> Path | None:
        return self.session.current_path

    @property
    def autosave(self) -> Autosaver | None:
        return self.session.autosave

    def retranslate(self) -> None:
        if self.autosave_off.isVisible():
            self.autosave_off.setText(tr("classroom.autosave_off"))

    def _status(self, text: str, ms: int) -> None:
        self.window.statusBar().showMessage(text, ms)

    # ---- the session ------------------------------------------------------------------------

    def begin_session(self, scenario: Path | None = None, restore_last: bool = True) -> None:
        """Start from a scenario file (a bad one raises ScenarioError), else the last session."""
        if scenario is not None:
            if restore_last:  # a new class all the same: the last one's counts are history
                self.session.hand_on_last_class()
            self.session.open(Path(scenario))
            self._opened(Path(scenario))
            return
        if not restore_last:
            return
        found = self.session.restore_last()
        if found.state is not None:
            key = "classroom.restored_backup" if found.from_backup else "classroom.restored"
            self._status(tr(key), 8000)
        elif found.problems:
            self._status(tr("classroom.autosave_unreadable", problem=str(found.problems[0])),
                         8000)

    def start_autosave(self, later: Callable[[Callable[[], object]], None] | None = None
                       ) -> Autosaver:
        """Save the state from now on, and say in one note what the start found: unreadable
        files kept aside, a second copy of the app, a folder that cannot be written. The
        folder's probe and the first write (each synced to disk) run now, or when `later`
        calls them (a start: after the first paint, which they would only delay); edits
        made before then are saved by that first write, or by a flush (quit, a crash)."""
        start = self.session.start_autosave()
        autosave = start.autosave
        autosave.failed.connect(self._on_autosave_failed)
        autosave.recovered.connect(self._on_autosave_recovered)
        if autosave.problem is not None:  # it failed before we listened
            self._on_autosave_failed(autosave.problem)
        hook = installed_error_hook()
        if hook is not None:
            hook.watch_autosave(autosave)
        gui_app().aboutToQuit.connect(self.session.end)
        status = [tr("classroom.kept_aside_status", count=len(start.moved))] if start.moved else []
        if start.copy > 1:
            status.append(tr("classroom.second_copy_status", file=autosave.path.name))
        if status:  # after what begin_session said about the restore, not instead of it
            bar = self.window.statusBar()
            bar.showMessage(" ".join(filter(None, [bar.currentMessage(), *status])), 15000)
        if later is None:
            self._first_write(start)
        else:
            later(lambda: self._first_write(start))
        return autosave

    def _first_write(self, start: AutosaveStart) -> None:
        """The autosave's first write, then the one note of what the start found."""
        self.session.first_write(start)
        autosave = start.autosave
        notes: list[str] = []
        if start.copy > 1:
            notes.append(tr("classroom.second_copy", path=str(autosave.path)))
        if start.not_moved is not None:
            notes.append(tr("classroom.autosave_not_moved", path=str(autosave.path),
                            problem=word(start.not_moved)))
        if start.unwritable is not None:
            notes.append(tr("classroom.autosave_off_at_start", folder=str(autosave.folder),
                            problem=word(start.unwritable)))
        notes.extend(tr("classroom.kept_aside", file=old.name, path=str(new))
                     for old, new in start.moved)
        if notes:
            self._note(notes)

    def _on_autosave_failed(self, problem: Notice | str) -> None:
        """Once per failure, not at every change: the status bar and a mark that stays."""
        problem = word(problem)
        self._status(tr("classroom.autosave_failed", problem=problem), 15000)
        self.autosave_off.setText(tr("classroom.autosave_off"))
        self.autosave_off.setToolTip(tr("classroom.autosave_failed", problem=problem))
        self.autosave_off.show()

    def _on_autosave_recovered(self, path: str) -> None:
        self.autosave_off.hide()
        self._status(tr("classroom.autosave_recovered", file=Path(path).name), 8000)

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
        if self._close_confirmed:
            return True
        if self.quit_box is not None:  # already asking
            return False
        if not self.session.unsaved_nowhere:
            return True
        autosave = self.session.autosave
        box = QMessageBox(QMessageBox.Icon.Warning, tr("app.title"),
                          tr("classroom.quit_unsaved"),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self.window)
        box.setObjectName("quit_unsaved")
        box.setInformativeText(tr("classroom.quit_unsaved_detail",
                                  folder=str(autosave.folder) if autosave else "",
                                  problem=word((autosave.problem if autosave else None) or "")))
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

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif watched is self.window and event.type() == QEvent.Type.Close:
            if not self._may_close():
                event.ignore()
                return True
            self.session.end()
        elif (watched is self.window and event.type() == QEvent.Type.Show
              and self._note_pending and self.note is not None):
            self._note_pending = False
            self.note.open()
        return False

    # ---- scenario files ---------------------------------------------------------------------

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, tr("classroom.dialog.open"), self.folder(""),
            ";;".join((tr("classroom.filter.scenario"), tr("classroom.filter.json"),
                       tr("classroom.filter.all"))))
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Replace the state with a file's, as one undo step; a bad file changes nothing."""
        try:
            self.session.open(Path(path))
        except ScenarioError as error:
            if not Path(path).exists():
                self._forget_recent(Path(path))
            self.message = warn(self.window, tr("classroom.open_failed"), str(error))
            return False
        self._opened(Path(path))
        return True

    # ---- captured vectors -------------------------------------------------------------------

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, tr("import.dialog"), self.folder(""),
            ";;".join((tr("import.filter"), tr("classroom.filter.all"))))
        if path:
            self.import_path(Path(path))

    def import_path(self, path: Path, head: int | None = None) -> bool:
        """Import a capture as the third world (one undo step); a bad file changes nothing.
        A file with several heads asks which one, unless `head` is given."""
        try:
            capture = load_capture(path, head or 0)
            if head is None and capture.heads > 1:
                chosen, ok = QInputDialog.getInt(
                    self.window, tr("import.head_title"),
                    tr("import.head_prompt", heads=capture.heads), 0, 0, capture.heads - 1)
                if not ok:
                    return False
                if chosen:
                    capture = load_capture(path, chosen)
        except CaptureError as error:
            self.message = warn(self.window, tr("import.failed"), capture_refusal(error))
            return False
        self._importing = (capture, path, self.document.state.options.scale_mode)
        self.document.import_capture(capture)
        return True

    def _import_ended(self, tokens: int) -> None:
        """Say what the import brought once it has landed (a failure is the document's
        notice; a newer import's own end says it)."""
        if tokens or self._importing is None:
            return
        (capture, path, scale_mode), self._importing = self._importing, None
        if self.document.state.imported is not capture:
            return
        scale_off = [tr("import.scale_off")] if scale_mode else []
        if capture.savable:
            self._status(" ".join([tr("import.done", file=path.name, queries=len(capture.queries),
                                      keys=len(capture.keys), d=capture.d), *scale_off]), 8000)
        else:  # said once, where it stays readable: the class may rely on the autosave
            if scale_off:
                self._status(scale_off[0], 8000)
            self.message = warn(self.window, tr("import.not_kept_title"), tr(
                "import.not_kept", file=path.name, numbers=f"{capture.numbers:,}",
                limit=f"{MAX_SAVED_NUMBERS:,}"))

    def _opened(self, path: Path) -> None:
        self._remember_recent(path)
        self._status(tr("classroom.opened", file=path.name), 6000)

    def open_recent(self, index: int) -> None:
        files = self.recent_files()
        if index < len(files):
            self.open_path(Path(files[index]))

    def save(self) -> bool:
        """The current file again, with the class's answers if it kept them before."""
        path = self.session.current_path
        return (self.save_as() if path is None
                else self.save_to(path, with_answers=self.session.with_answers))

    def save_as(self, with_answers: bool = False) -> bool:
        current = self.session.current_path
        path, _ = QFileDialog.getSaveFileName(
            self.window, tr("answers.dialog.save_with" if with_answers
                            else "classroom.dialog.save"),
            self.folder(current.name if current else f"attention-lab{SUFFIX}"),
            tr("classroom.filter.scenario"))
        return bool(path) and self.save_to(with_scenario_suffix(Path(path)), with_answers)

    def save_with_answers(self) -> bool:
        """Save as, keeping the class's answers in the file (only when asked: a scenario
        handed to the next class must not carry this one's answers)."""
        return self.save_as(with_answers=True)

    def save_to(self, path: Path, with_answers: bool = False) -> bool:
        try:
            self.session.save(path, with_answers)
        except (OSError, ValueError) as error:  # ValueError: text UTF-8 cannot hold
            self.message = warn(self.window, tr("classroom.save_failed"),
                                f"{path.name}: {word(write_problem(error))}")
            return False
        self._remember_recent(path)
        self._status(tr("classroom.saved", file=path.name), 6000)
        return True

    def folder(self, name: str) -> str:
        """Where a file dialog starts: beside the current scenario, else the home folder."""
        current = self.session.current_path
        folder = current.parent if current is not None else Path.home()
        return str(folder / name) if name else str(folder)

    # ---- recent files -----------------------------------------------------------------------

    def recent_files(self) -> list[str]:
        stored = cast("list[object]", settings().value(keys.RECENT_FILES, [], list))  # a list
        return [str(f) for f in stored][:RECENT_LIMIT]

    def _store_recent(self, files: list[str]) -> None:
        store = settings()
        store.setValue(keys.RECENT_FILES, files[:RECENT_LIMIT])
        store.sync()
        self._recent = self.recent_files()
        self.recent_changed.emit()

    def _remember_recent(self, path: Path) -> None:
        name = str(Path(path).resolve())
        self._store_recent([name, *(f for f in self.recent_files() if f != name)])

    def _forget_recent(self, path: Path) -> None:
        name = str(Path(path).resolve())
        self._store_recent([f for f in self.recent_files() if f != name])
