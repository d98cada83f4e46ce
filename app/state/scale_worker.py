"""Owns running scale mode off the UI thread: one job at a time, newest request wins.

Each request gets a generation number. A job checks it between row blocks and stops once a
newer request exists; a result that still arrives late is dropped on the UI thread, so the
heatmap never shows a picture for options the user has already changed.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from app.model.scale import ScaleRequest, ScaleResult, compute_scale


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

    delivered = Signal(int, object)
    failed = Signal(int, str)


class _Job(QRunnable):
    def __init__(self, generation: int, request: ScaleRequest, ticket: _Ticket,
                 relay: _Relay) -> None:
        super().__init__()
        self._generation = generation
        self._request = request
        self._ticket = ticket
        self._relay = relay

    def run(self) -> None:
        try:
            result = compute_scale(
                self._request, should_stop=lambda: self._ticket.generation != self._generation
            )
        except (ValueError, MemoryError) as error:
            self._relay.failed.emit(self._generation, str(error))
            return
        self._relay.delivered.emit(self._generation, result)


class ScaleWorker(QObject):
    """Computes scale-mode pictures in a private one-thread pool and reports the newest one."""

    finished = Signal(object)
    """A `ScaleResult` for the newest request."""
    failed = Signal(str)
    """The newest request could not be computed (the message says why)."""
    dropped = Signal(int)
    """A job's result (or early stop) for an older generation was thrown away."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ticket = _Ticket()
        # the pool first: children die in creation order, so the pool's destructor waits for
        # the job while the relay the job reports through is still alive
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.delivered.connect(self._on_delivered)
        self._relay.failed.connect(self._on_failed)
        ticket = self._ticket  # not self: the slot runs while the C++ object is going away
        self.destroyed.connect(lambda _obj=None: ticket.retire())
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    @property
    def generation(self) -> int:
        return self._ticket.generation

    def request(self, request: ScaleRequest) -> int:
        """Start computing `request`; any older job stops or is ignored. Returns its generation."""
        generation = self._ticket.retire()
        self._pool.start(_Job(generation, request, self._ticket, self._relay))
        return generation

    def cancel(self) -> None:
        """Forget every running request (scale mode switched off)."""
        self._ticket.retire()

    def shutdown(self) -> None:
        """Stop the running job and wait for its thread, so nothing outlives the application."""
        self.cancel()
        self._pool.waitForDone()

    def _on_delivered(self, generation: int, result: ScaleResult | None) -> None:
        if generation != self._ticket.generation or result is None:
            self.dropped.emit(generation)
            return
        self.finished.emit(result)

    def _on_failed(self, generation: int, message: str) -> None:
        if generation != self._ticket.generation:
            self.dropped.emit(generation)
            return
        self.failed.emit(message)
