"""Owns a session's files: the scenario it was opened from or saved to (the current path), the
last session brought back at start, and the autosave with the lock on its folder.

Opening, saving and restoring are state-layer operations, like a vector edit: the window's
file actions only ask for them and say what happened. Nothing here shows a widget.

The class's poll counts (the `Kept` object the window hands in) belong to one class: the
autosave keeps them so a crash loses none, but a launch starts a new class, so the counts the
last session left go to the history of earlier classes (`ClassHistory`), never back on the
stage. A scenario keeps counts only when saved with them, and opening one that has them hands
the current class's counts to the history first.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.model.answers.tally import SceneCounts
from app.model.scenario import Scenario, read_scenario_file, write_scenario
from app.model.view import initial_state
from app.state.autosave import Autosaver, FolderLock, Restored, restore
from app.state.class_history import ClassHistory
from app.state.document import Document
from app.state.kept import Kept
from app.state.notice import Notice


@dataclass
class AutosaveStart:
    """What starting the autosave found, for the window to say in one note."""

    autosave: Autosaver
    copy: int
    moved: list[tuple[Path, Path]] = field(default_factory=list)
    """(old, new) for each unreadable file moved aside."""
    not_moved: Notice | str | None = None
    """Why an unreadable file could not be moved aside (then nothing is written over it)."""
    unwritable: Notice | str | None = None
    """Why the folder cannot be written (then work is not kept automatically)."""


class Session(QObject):
    """The document's files: one per window."""

    path_changed = Signal(object)
    """The current scenario file (a `Path`) after an open or a save."""
    opened = Signal(object)
    """A scenario file (a `Path`) replaced the state: the user's own setup, not a scene's."""

    def __init__(self, document: Document, folder: Path | None = None,
                 kept: Kept | None = None, history: ClassHistory | None = None) -> None:
        super().__init__(document)
        self.document = document
        self.folder = folder
        self.kept = kept
        """What is saved beside the state (the class's poll counts); None: nothing."""
        self.history = history
        """Where earlier classes' counts go (None: they are not kept)."""
        self.with_answers = False
        """The current file keeps the class's counts (opened with them, or saved with them):
        Save keeps writing them."""
        self.current_path: Path | None = None
        self.folder_lock: FolderLock | None = None
        self.autosave: Autosaver | None = None
        self._restored: Scenario | None = None

    def open(self, path: Path) -> None:
        """Replace the state with a file's, as one undo step, and the poll's counts with the
        file's when it keeps any; raises ScenarioError and then changes nothing."""
        scenario = read_scenario_file(path, initial_state(self.document.data))
        self.document.load_state(scenario.state, "open")
        self._bring_back(scenario.poll)
        self.with_answers = bool(scenario.poll)
        self._in_file(Path(path))
        self.opened.emit(Path(path))

    def save(self, path: Path, with_answers: bool = False) -> None:
        """Write the state to `path`, and the class's counts only `with_answers` (the teacher
        asked for them); raises OSError, or ValueError for text UTF-8 cannot hold."""
        kept = self.kept.kept() if with_answers and self.kept is not None else ()
        write_scenario(self.document.state, path, kept)
        self.with_answers = with_answers
        self._in_file(Path(path))

    def _bring_back(self, poll: tuple[SceneCounts, ...]) -> None:
        """A file's counts replace the class's, which go to the history first; a file without
        counts leaves the class's as they are."""
        if poll and self.kept is not None:
            if self.history is not None:
                self.history.add(self.kept.kept())
            self.kept.bring_back(poll)

    def hand_on(self, found: Restored) -> None:
        """The counts the last session left (in its autosave) go to the history: this launch
        is a new class. Their time is the autosave's, when they were last counted."""
        if not found.poll or self.history is None or found.source is None:
            return
        try:
            when = datetime.fromtimestamp(found.source.stat().st_mtime)
        except OSError:
            when = None
        self.history.add(found.poll, when)

    def hand_on_last_class(self) -> None:
        """A launch that opens a scenario instead of the last session: the last session's
        counts still go to the history before the autosave is written over."""
        lock = self.claim_folder()
        self.hand_on(restore(initial_state(self.document.data), lock.folder, lock.copy))

    def _in_file(self, path: Path) -> None:
        self.current_path = path
        self.document.mark_clean()
        self.path_changed.emit(path)

    def claim_folder(self) -> FolderLock:
        """Lock this copy's autosave in the user folder (once per session)."""
        if self.folder_lock is None:
            self.folder_lock = FolderLock(self.folder)
        return self.folder_lock

    def restore_last(self) -> Restored:
        """Bring back this copy's last session (not undoable: it is where the session starts);
        the counts it kept go to the history, not back to the class.

        A second copy of the app on the same folder restores its own `autosave.copy-2.*`,
        never the first copy's files.
        """
        lock = self.claim_folder()
        found = restore(initial_state(self.document.data), lock.folder, lock.copy)
        self.hand_on(found)
        if found.state is not None:
            self.document.restore(found.state)
            self._restored = Scenario(found.state, found.poll)
        return found

    def start_autosave(self) -> AutosaveStart:
        """Save the state from now on. Before anything is written, unreadable autosave files
        are moved aside; the folder is tried and first written by `first_write`, which the
        caller runs when it chooses (a start: after the first paint), so the window can say
        what it will not be able to keep."""
        lock = self.claim_folder()
        autosave = Autosaver(self.document, lock.folder, copy=lock.copy, kept=self.kept)
        self.autosave = autosave
        start = AutosaveStart(autosave, lock.copy)
        try:
            start.moved = autosave.keep_aside_unreadable()
        except OSError:  # could not rename it: then nothing is ever written over it
            start.not_moved = autosave.problem or ""
        return start

    def first_write(self, start: AutosaveStart) -> None:
        """Try the folder once (`start.unwritable` says why it failed), then write the state
        unless the files hold it already: whatever changed since the start is saved."""
        if start.not_moved is not None:
            return
        autosave = start.autosave
        start.unwritable = autosave.check_writable()
        if start.unwritable is not None:
            return
        restored = self._restored
        if restored is not None and restored.state == self.document.state:
            autosave.mark_saved(restored.state, restored.poll)
        with contextlib.suppress(OSError):  # reported through `autosave.failed`
            autosave.flush()  # the counts handed on leave the autosave (nothing else changed)

    @property
    def unsaved_nowhere(self) -> bool:
        """True when the work is in no file: the autosave cannot write it (after one more try)
        and it was not saved to a scenario either."""
        autosave = self.autosave
        if autosave is None or self.folder_lock is None:
            return False
        with contextlib.suppress(OSError):
            autosave.flush()
        return autosave.pending and not self.document.undo_stack.isClean()

    def end(self) -> None:
        """On quit: write the last changes and let the next copy of the app have the files."""
        if self.folder_lock is None:  # already ended (window closed, then the app quits)
            return
        if self.autosave is not None:
            with contextlib.suppress(OSError):
                self.autosave.flush()
            self.autosave.stop()  # no writes once another copy may own the files
        self.folder_lock.release()
        self.folder_lock = None
