"""The document: the single source of truth that every panel observes and edits through.

Edits become undoable commands; several edits inside one event-loop turn coalesce into one
recompute (mouse moves arrive far faster than frames), then `changed` is emitted once.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from app.model.capture import VALUE_LIMIT, Capture
from app.model.lesson.data import LessonData
from app.model.lesson.figures import Figure, figures_of
from app.model.lesson.scenes import Scene, scene_state
from app.model.reshape import (
    heads_problem,
    scorer_usable,
    teaching_selection,
    usable_scorer,
)
from app.model.scoring import SCORERS
from app.model.state import (
    EDIT_LIMIT,
    POSITION_LIMIT,
    WORLDS,
    LabState,
    Role,
    World,
    changed_fields,
    option_problem,
)
from app.model.timeline import stage, stage_changes
from app.model.view import (
    View,
    compute_view,
    costly,
    imported_view_holds,
    initial_state,
    lesson_selection,
)
from app.state.background import BackgroundRunner, Work
from app.state.commands import StateCommand
from app.state.notice import Notice, scorer_term
from app.state.reshaping import ReshapeIntents


def _view_job(state: LabState, data: LessonData) -> Work:
    """A background job: `state`'s view, with what a large world reads ahead
    (`View.prepare`), delivered with the state it belongs to."""

    def work(_stop: object, _progress: object) -> tuple[LabState, View]:
        view = compute_view(state, data)
        view.prepare()
        return state, view

    return work


class Document(QObject, ReshapeIntents):
    """Holds the state, its undo stack and the latest computed view."""

    changed = Signal(object)
    """Emitted once after every recompute with the `LabState` fields that changed since the
    last emission (a frozenset of names); read `view` and `state` in the handler."""
    notice = Signal(object)
    """A `Notice` for the user (rejected or clamped input); the state is already consistent."""
    gesture_finished = Signal()
    """A drag ended: scales that held still while it ran (`dragging`) may refit now."""
    chosen = Signal(int, int)
    """The user chose a (query, key) pair through `select`: unlike a scene, a stage or a world
    switch landing on a pair, this is the student's own doing (the checklist ticks from it)."""
    importing = Signal(int)
    """A capture of this many tokens is being computed off the UI thread; 0 once it has
    landed as an undo step or failed (a failure gives a `notice` first)."""

    def __init__(self, data: LessonData, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.data = data
        self.undo_stack = QUndoStack(self)
        self._state = initial_state(data)
        self._view = compute_view(self._state, data)
        self._view_state = self._state
        self._announced = self._state
        """The state the last `changed` told of: the next one lists what differs from it."""
        self._pending = False
        self._drag_id: int | None = None
        self._next_drag_id = 0
        self.recompute_count = 0
        self._import: Capture | None = None
        """The capture being computed off the UI thread, until it lands or fails."""
        self._arrived: tuple[LabState, View] | None = None
        """An import's state and view, computed, waiting for a drag to end."""
        self._prepared: tuple[LabState, View] | None = None
        """A view computed ahead for a state that may be installed next (see `_update_view`)."""
        self._importer = BackgroundRunner(self)
        self._importer.finished.connect(self._import_computed)
        self._importer.failed.connect(self._import_failed)
        self._viewing: LabState | None = None
        """A state installed whose view is being computed off the UI thread (a large
        import's, seconds of work on a changed option, scorer, selection, or an undo back
        to it); `changed` tells of it when its view lands."""
        self._owed = False
        """A view landed while it was being read: `changed` for it is still to come."""
        self._viewer = BackgroundRunner(self)
        self._viewer.finished.connect(self._view_computed)
        self._viewer.failed.connect(self._view_failed)

    def shutdown(self) -> None:
        """Stop both background jobs and wait for their thread. A document let go with a
        job still running may be deleted by the garbage collector, whose deletion waits for
        the job while the job runs Python in the middle of the collection."""
        self._importer.shutdown()
        self._viewer.shutdown()

    @property
    def state(self) -> LabState:
        return self._state

    @property
    def view(self) -> View:
        """The view of the current state, computed now if an edit is still pending.

        A read has no visible effect: `changed` still comes once, from the scheduled recompute
        (or the view computed off the UI thread, which a read waits for), so reading the view
        never makes every panel repaint.
        """
        if self._viewing is not None and self._viewing is self._state:
            self._owed = True  # landing here announces nothing: the turn scheduled below does
            self._viewer.wait_for_result()
            QTimer.singleShot(0, self, self._turn)
        if self._view_state is not self._state and (self._pending or self._owed):
            self._update_view(wait=True)
        return self._view

    @cached_property
    def figures(self) -> dict[str, Figure]:
        """The lesson's published figures, computed once from the loaded data."""
        return figures_of(self.data)

    @property
    def importing_tokens(self) -> int:
        """Tokens of the capture being computed off the UI thread (0: none)."""
        return 0 if self._import is None else len(self._import.queries)

    def finish_import(self) -> None:
        """Wait for an import being computed and land it now (tests, benchmarks and the
        command line's screenshot; the window never waits)."""
        while self._import is not None and self._arrived is None:
            started = self._importer.generation
            self._importer.wait_for_result()
            if self._importer.generation == started:  # no second job (an option changed)
                break

    def flush(self) -> None:
        """Run a pending recompute immediately, waiting for a view being computed off the UI
        thread (tests and benchmarks use this)."""
        self._turn()
        if self._viewing is not None:
            self._viewer.wait_for_result()
        self._turn()

    def _turn(self) -> None:
        """The event-loop turn after edits: their recompute (which may start computing the
        view off the UI thread), or the announcement of a view a read waited for."""
        if self._pending:
            self._recompute()
        if self._owed:
            self._owed = False
            self._announce()

    def _schedule(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self._turn)

    def _update_view(self, wait: bool = False) -> bool:
        """The view of the current state; False when it is being computed off the UI thread
        (a large import's view from scratch: `changed` then comes when it lands), unless
        the caller must `wait` for it. The one it replaces is the document's alone, so a
        large import's drag step patches its matrices in place instead of copying them.

        A view computed ahead (an import's, off the UI thread) is taken when its state is
        the one installed; so is the imported world's view just left, kept until the next
        recompute, so that Redo (or Undo of the step that left) after Undo of an import
        takes it instead of a second of work."""
        state, left = self._state, (self._view_state, self._view)
        prepared = self._prepared
        if left[0] == state:  # back to what is shown (an undo's state is a new object)
            self._install(state, left[1])
            return True
        if prepared is not None and (prepared[0] is state or prepared[0] == state):
            self._install(state, prepared[1])
            return True
        if self._viewing is state:
            return False  # already being computed
        if not wait and costly(left[0], state):
            self._viewing = state
            self._viewer.start(_view_job(state, self.data))
            return False
        self._install(state, compute_view(state, self.data, left, reuse=True))
        return True

    def _install(self, state: LabState, view: View) -> None:
        """Make `view` (of `state`) the document's; a view being computed for an older
        state is no longer wanted."""
        left = self._view_state, self._view
        self._prepared = None
        if self._viewing is not None:
            self._viewing = None
            self._viewer.cancel()
        self._view, self._view_state = view, state
        if left[0].world == "imported" and state.world != "imported":
            self._prepared = left  # never patched: only an edit within the import is

    def _view_computed(self, result: tuple[LabState, View]) -> None:
        state, view = result
        if state is not self._viewing:
            return
        self._install(state, view)
        if not self._owed:  # read meanwhile: the flush that read scheduled announces it
            self._announce()

    def _view_failed(self, _message: str) -> None:
        """Computed off the UI thread or not, a view that cannot be computed fails the
        same way: computed here, the error is the one a recompute has always raised."""
        if self._viewing is not None:
            self._viewing = None
            self._update_view(wait=True)
            self._announce()

    def _recompute(self) -> None:
        self._pending = False
        if self._view_state is not self._state and not self._update_view():
            self._owed = False  # a view a read waited for is told of with this one's
            return  # announced when its view lands
        self._announce()

    def _announce(self) -> None:
        """Tell the panels of the state installed, whose view is the document's now."""
        self._owed = False
        self.recompute_count += 1
        fields, self._announced = changed_fields(self._announced, self._state), self._state
        self.changed.emit(fields)

    def apply_state(self, state: LabState) -> None:
        """Install a state without a new undo step: only for the undo commands themselves
        (anything else goes through `push`, `load_state` or `restore`)."""
        if state == self._state:
            return
        self._state = state
        self._schedule()

    def apply_history(self, state: LabState) -> None:
        """Install the state an undo or redo goes back to, keeping where the class is looking.

        The selection is not history: undoing an edit puts the numbers back but leaves the
        selected pair alone. Only when the step crosses worlds or reshapes the 4-D one (the
        pair's indices would mean other vectors) does the stored selection of that moment
        come back."""
        queries, keys = state.vectors
        current = self._state
        if (state.world == current.world and current.query < len(queries)
                and current.key < len(keys)
                and (state.world != "teaching"
                     or state.teaching_tokens == current.teaching_tokens)):
            state = replace(state, query=current.query, key=current.key)
        self.apply_state(state)

    def push(self, state: LabState, text: str, merge: int = -1) -> bool:
        """Record a change as one undo step; equal states are skipped so nothing echoes."""
        if state == self._state:
            return False
        self.undo_stack.push(StateCommand(self, self._state, state, text, merge))
        return True

    def set_world(self, world: World) -> None:
        if world not in WORLDS:
            self.notice.emit(Notice.of("notice.unknown_world", name=world))
            return
        if world == "imported" and self._state.imported is None:
            self.notice.emit(Notice.of("notice.no_import"))
            return
        if world != self._state.world:
            selection = (teaching_selection(self._state, self.data) if world == "teaching"
                         else lesson_selection(self.data, world))
            moved = usable_scorer(self._state.with_world(world, selection), self.data)
            if moved.scorer != self._state.scorer:  # its weights do not fit the new d
                self.notice.emit(Notice.of("notice.dimension.scorer",
                                    scorer=scorer_term(self._state.scorer),
                                    d=self.data.teaching.W_Q.shape[1]))
            self.push(moved, "world")

    def set_scorer(self, name: str) -> None:
        if name not in SCORERS:
            self.notice.emit(Notice.of("notice.unknown_scorer", name=name))
            return
        if not scorer_usable(self._state, self.data, name):  # no learned weights that fit
            if self._state.world == "imported":
                self.notice.emit(Notice.of("notice.import_lacks_weights",
                                           scorer=scorer_term(name)))
            else:
                self.notice.emit(Notice.of("notice.scorer_reshaped", scorer=scorer_term(name),
                                    d=self.data.teaching.W_Q.shape[1]))
            return
        self.push(replace(self._state, scorer=name), "scorer")

    def select(self, query: int | None = None, key: int | None = None) -> None:
        """Select a (query, key) pair. Choosing where to look is not an edit: it is no undo
        step, so it neither clutters the history nor wipes what Redo could bring back."""
        queries, keys = self._state.vectors
        query = self._state.query if query is None else int(query)
        key = self._state.key if key is None else int(key)
        if not (0 <= query < len(queries) and 0 <= key < len(keys)):
            self.notice.emit(Notice.of("notice.no_pair", query=query, key=key))
            return
        self.apply_state(replace(self._state, query=query, key=key))
        self.chosen.emit(query, key)

    def select_step(self, state: LabState) -> None:
        """Select `state`'s pair as one undo step: a scene's Reveal turns to the case its
        answer speaks of, so Ctrl+Z turns back to where the class was looking."""
        queries, keys = self._state.vectors
        if not (0 <= state.query < len(queries) and 0 <= state.key < len(keys)):
            self.notice.emit(Notice.of("notice.no_pair", query=state.query, key=state.key))
            return
        if self.push(replace(self._state, query=state.query, key=state.key), "reveal"):
            self.chosen.emit(state.query, state.key)

    def begin_drag(self) -> None:
        """Start a gesture: every vector edit until `end_drag` becomes one undo step."""
        self._drag_id = self._next_drag_id
        self._next_drag_id += 1

    def end_drag(self) -> None:
        if self._drag_id is not None:
            self._drag_id = None
            self.flush()  # the last step first, so refitting panels read the final state
            self.gesture_finished.emit()
            if self._arrived is not None:
                self._land_import(*self._arrived)

    @property
    def dragging(self) -> bool:
        """Inside a drag gesture: panels keep their axes and colour scales still (they only
        grow to fit), so the picture does not jump under the pointer at every step."""
        return self._drag_id is not None

    def set_vector(self, role: Role, index: int, values: object) -> bool:
        """Edit one vector; non-finite input is refused, out-of-range input is clamped."""
        try:
            array = np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError):
            self.notice.emit(Notice.of("notice.not_a_number", text=values))
            return False
        queries, keys = self._state.vectors
        target = queries if role == "q" else keys
        if role not in ("q", "k") or not 0 <= index < len(target):
            self.notice.emit(Notice.of("notice.no_vector", role=role, index=index))
            return False
        if array.shape != target[index].shape:
            self.notice.emit(Notice.of("notice.wrong_length", role=role, index=index,
                                count=target.shape[1]))
            return False
        if not np.all(np.isfinite(array)):
            self.notice.emit(Notice.of("notice.not_finite"))
            return False
        limit = VALUE_LIMIT if self._state.world == "imported" else EDIT_LIMIT
        if np.any(np.abs(array) > limit):
            self.notice.emit(Notice.of("notice.clamped", limit=f"{limit:g}"))
        merge = StateCommand.DRAG_BASE + self._drag_id if self._drag_id is not None else -1
        return self.push(self._state.with_vector(role, index, array), "edit", merge)

    def set_options(self, **changes: Any) -> None:
        """Change display options (causal mask, heads, sink logit, …) as one undo step."""
        try:
            options = replace(self._state.options, **changes)
        except TypeError as error:
            self.notice.emit(Notice.of("notice.bad_option", detail=error))
            return
        problem = option_problem(options)  # the same rule the scenario reader applies
        if problem is None and heads_problem(self._state, options):  # ditto: even d
            self.notice.emit(Notice.of("notice.heads_odd_d", heads=options.heads,
                                d=self._state.teaching_q.shape[1]))
            return
        if problem:
            name, why = problem
            self.notice.emit(Notice.of("notice.bad_option", detail=f"{name} {why}"))
            return
        self.push(replace(self._state, options=options), "options")

    def set_positions(self, positions: object) -> None:
        """Token positions for RoPE, one integer per vector of the 2-D world."""
        try:
            array = np.asarray(positions, dtype=np.float64)
        except (TypeError, ValueError):
            array = np.full(1, np.nan)
        if (array.shape != self._state.positions.shape or not np.all(np.isfinite(array))
                or np.any(np.abs(array) > POSITION_LIMIT)):
            self.notice.emit(Notice.of("notice.bad_positions", limit=f"{POSITION_LIMIT:,}"))
            return
        array = np.round(array)
        array.flags.writeable = False
        self.push(replace(self._state, positions=array), "positions")

    def apply_stage(self, stage_id: str) -> None:
        """Set up a timeline stage (world, scorer, options) as one undo step; a no-op when the
        document already shows it."""
        chosen = stage(stage_id)
        state = self._state
        changes = stage_changes(stage_id, self.data.teaching.n_heads)
        world = chosen.world is not None and chosen.world != state.world
        scorer = chosen.scorer is not None and chosen.scorer != state.scorer
        options = any(getattr(state.options, key) != value for key, value in changes.items())
        if not (world or scorer or options):
            return
        self.undo_stack.beginMacro("stage")
        if world:
            self.set_world(chosen.world)  # type: ignore[arg-type]
        if scorer:
            self.set_scorer(chosen.scorer)  # type: ignore[arg-type]
        if options:
            self.set_options(**changes)
        self.undo_stack.endMacro()

    def apply_scene(self, scene: Scene) -> None:
        """Set up a lesson scene (the data's vectors, its world, scorer, selection, options)
        as one undo step, so the class's edits before it stay one Ctrl+Z away."""
        scene_set = scene_state(scene, self.data)  # an import stays for the next Ctrl+3
        self.push(replace(scene_set, imported=self._state.imported), "scene")

    def import_capture(self, capture: Capture) -> None:
        """Open a captured q, k as the imported world, as one undoable step (a second import
        replaces the first); the last query against the first key is selected, scored as the
        model scored it (q·k/√d), so its weights are the ones the model computed. Scale
        mode is turned off: its random Q, K would hide the model's own.

        A T = 4096 capture's view takes most of a second, so it is computed off the UI
        thread; edits made meanwhile go on as usual and the import lands on top of them."""
        self._import, self._arrived = capture, None
        self.importing.emit(len(capture.queries))
        self._compute_import(self._imported_state(self._state, capture))

    @staticmethod
    def _imported_state(state: LabState, capture: Capture) -> LabState:
        options = replace(state.options, scale_mode=False)
        state = replace(state, imported=capture, scorer="scaled_dot",  # needs no weights
                        options=options)
        return state.with_world("imported", (len(capture.queries) - 1, 0))

    def _compute_import(self, target: LabState) -> None:
        self._importer.start(_view_job(target, self.data))

    def _import_computed(self, result: tuple[LabState, View]) -> None:
        if self.dragging:  # the world does not change under the pointer: after the drag
            self._arrived = result
        else:
            self._land_import(*result)

    def _land_import(self, computed: LabState, view: View) -> None:
        """Push the import on top of the edits made while it was computed, with its view; an
        edit the view depends on (an option, the scorer) means computing it again."""
        self._arrived = None
        capture = self._import
        if capture is None or computed.imported is not capture:
            return
        state = self._imported_state(self._state, capture)
        if not imported_view_holds(computed, state):
            self._compute_import(state)
            return
        self._import = None
        self._prepared = (state, view)
        if not self.push(state, "import"):
            self._prepared = None
        self.importing.emit(0)

    def _import_failed(self, message: str) -> None:
        self._import = self._arrived = None
        self.notice.emit(Notice.of("notice.import_failed", reason=message))
        self.importing.emit(0)

    def load_state(self, state: LabState, text: str = "open") -> None:
        """Replace everything (open a scenario, reset) as one undoable step."""
        self.push(state, text)

    def restore(self, state: LabState) -> None:
        """Start over from `state` with no history (the last session, brought back at start):
        there is nothing before it to undo to."""
        self.apply_state(state)
        self.undo_stack.clear()

    def mark_clean(self) -> None:
        """The state is now in a file (opened or saved): the title loses its " *"."""
        self.undo_stack.setClean()

    def reset_to_lesson(self) -> None:
        """Back to the data files' values; undoable, so a reset never loses work."""
        self.push(initial_state(self.data), "reset")
