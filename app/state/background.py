"""Owns running work off the UI thread: one job at a time, and only the newest one counts.

Scale-mode pictures and the live measurement both need the same things: a private one-thread
pool, a way to tell a running job it is no longer wanted, and delivery of its progress and
result back on the UI thread. Each job gets a generation number; starting a new job or
cancelling retires the old one, which sees that between its steps and stops. Whatever a
retired job still reports is dropped on the UI thread, so no panel ever shows a result for a
request the user has already replaced.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRunnable, QThreadPool, Signal

from app.model.threads import one_blas_thread

Work = Callable[[Callable[[], bool], Callable[[int, int], None]], object]
"""`work(should_stop, progress)` runs on the pool's thread and returns the result (None when it
stopped early); it polls `should_stop()` between steps and may call `progress(done, total)`."""

FAILURES = (ValueError, MemoryError)
"""What a job may raise to say "this request cannot be computed" (reported, not a crash)."""


class _Ticket:
    """The newest generation, shared with running jobs (an int read is atomic under the GIL)."""

    def __init__(self) -> None:
        self.generation = 0

    def retire(self) -> int:
        """Make every running job stale; returns the new generation."""
        self.generation += 1
        return self.generation


class _Relay(QObject):
    """Lives on the UI thread; jobs emit through it, so delivery is queued to that thread."""

    progressed = Signal(int, int, int)
    delivered = Signal(int, object)
    failed = Signal(int, str)


class _Job(QRunnable):
    def __init__(self, generation: int, work: Work, ticket: _Ticket, relay: _Relay) -> None:
        super().__init__()
        self._generation = generation
        self._work = work
        self._ticket = ticket
        self._relay = relay

    def _stale(self) -> bool:
        return self._ticket.generation != self._generation

    def _progress(self, done: int, total: int) -> None:
        self._relay.progressed.emit(self._generation, done, total)

    def run(self) -> None:
        try:
            result = self._work(self._stale, self._progress)
        except FAILURES as error:
            self._relay.failed.emit(self._generation, str(error) or type(error).__name__)
            return
        except Exception:
            if not self._stale():
                raise
            result = None  # a job told to stop may end by raising (e.g. `Cancelled`)
        self._relay.delivered.emit(self._generation, result)


class BackgroundRunner(QObject):
    """A private one-thread pool whose newest job alone reports back."""

    finished = Signal(object)
    """The newest job's result."""
    failed = Signal(str)
    """The newest job could not be computed (the message says why)."""
    progressed = Signal(int, int)
    """(done, total) from the newest job."""
    dropped = Signal(int)
    """A retired job's outcome (or a job that stopped early) was thrown away."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ticket = _Ticket()
        # the pool first: children die in creation order, so the pool's destructor waits for
        # the job while the relay the job reports through is still alive
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.progressed.connect(self._on_progressed)
        self._relay.delivered.connect(self._on_delivered)
        self._relay.failed.connect(self._on_failed)
        ticket = self._ticket  # not self: the slot runs while the C++ object is going away
        # no argument: PySide would wrap the half-destroyed object for it, and crash
        self.destroyed.connect(lambda: ticket.retire())
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    @property
    def generation(self) -> int:
        return self._ticket.generation

    def start(self, work: Work) -> int:
        """Run `work` on the pool; any older job stops or is ignored. Returns its generation."""
        one_blas_thread()  # here, on the UI thread, before the first job's first product
        generation = self._ticket.retire()
        self._pool.start(_Job(generation, work, self._ticket, self._relay))
        return generation

    def cancel(self) -> None:
        """Retire every running job: it stops at its next check and its outcome is dropped."""
        self._ticket.retire()

    def shutdown(self) -> None:
        """Stop the running job and wait for its thread, so nothing outlives the application."""
        self.cancel()
        self._pool.waitForDone()

    def wait_for_result(self) -> None:
        """Block until every job has ended and deliver what the newest reported, now (tests,
        benchmarks and the command line, which have no event loop to wait in)."""
        self._pool.waitForDone()
        QCoreApplication.sendPostedEvents(self, QEvent.Type.MetaCall)  # the relay's slots

    def _current(self, generation: int) -> bool:
        return generation == self._ticket.generation

    def _on_progressed(self, generation: int, done: int, total: int) -> None:
        if self._current(generation):
            self.progressed.emit(done, total)

    def _on_delivered(self, generation: int, result: object) -> None:
        if not self._current(generation) or result is None:
            self.dropped.emit(generation)
            return
        self.finished.emit(result)

    def _on_failed(self, generation: int, message: str) -> None:
        if not self._current(generation):
            self.dropped.emit(generation)
            return
        self.failed.emit(message)
