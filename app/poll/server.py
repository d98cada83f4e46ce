"""Owns the poll's web server thread: its own asyncio loop running aiohttp beside Qt's, the
listening socket with a cap on connections, and a start and stop the UI can wait for.

The UI thread never runs server code: it posts calls into the loop (`call`), and the service
reports back through callbacks that the UI side turns into queued Qt signals.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from app.poll.guard import Limits
from app.poll.service import PollService

__all__ = ["START_TIMEOUT_S", "STOP_TIMEOUT_S", "ServerThread"]

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
OPEN_FILES = 4096
"""Two sockets per phone for a lecture hall, beyond the 1024 many systems start a process with."""
_log = logging.getLogger(__name__)


class _Quiet(logging.Filter):
    """aiohttp names the peer ("Error handling request from 10.0.0.7"); the poll logs no
    address. A request that is not HTTP, or too large, is a stranger's, not a fault of the
    app: it is not logged at all; anything else keeps only its kind of error."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            return False
        kind = type(error).__name__ if error is not None else "no details"
        record.msg, record.args, record.exc_info, record.exc_text = (
            "a poll request was refused (%s)", (kind,), None, None)
        return True


_HTTP_LOG = logging.getLogger(__name__ + ".http")
_HTTP_LOG.addFilter(_Quiet())
_HTTP_LOG.setLevel(logging.WARNING)


class _Refuse(asyncio.Protocol):
    """A connection beyond the cap: closed at once, before any byte is read."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.abort()  # type: ignore[attr-defined]


def _raise_open_files_limit() -> None:
    if sys.platform == "win32":
        return
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(OPEN_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class ServerThread:
    """One running server: `start` returns once it listens (or raises OSError), `stop`
    returns once its thread has ended."""

    def __init__(self, make_service: Callable[[], PollService], limits: Limits,
                 on_failure: Callable[[str], None]) -> None:
        self._make_service = make_service
        self._limits = limits
        self._on_failure = on_failure
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self.service: PollService | None = None

    def start(self, host: str, port: int) -> tuple[str, int]:
        """Listen on host:port (port 0: any free one); (host, port) as bound."""
        _raise_open_files_limit()
        ready: concurrent.futures.Future[tuple[str, int]] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, args=(host, port, ready),
                                        name="class-poll", daemon=True)
        self._thread.start()
        try:
            return ready.result(timeout=START_TIMEOUT_S)
        except BaseException:
            self._thread.join(STOP_TIMEOUT_S)
            self._thread = None
            raise

    def call(self, function: Callable[..., Any], *args: Any) -> None:
        """Run `function(*args)` on the server's loop, after every call posted before it."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(function, *args)

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(STOP_TIMEOUT_S)
        self._loop = self._thread = None

    def _run(self, host: str, port: int, ready: concurrent.futures.Future) -> None:
        loop = asyncio.new_event_loop()
        try:
            opened = loop.run_until_complete(self._open(host, port))
        except BaseException as error:  # a port in use, an address not on this machine …
            ready.set_exception(error)
            loop.close()
            return
        self._loop = loop
        ready.set_result(opened[2])
        try:
            loop.run_forever()
        except Exception as error:  # the poll ends; the app goes on and is told why
            _log.exception("the poll's server stopped")
            self._on_failure(str(error) or type(error).__name__)
        finally:
            loop.run_until_complete(self._close(*opened[:2]))
            loop.close()

    async def _open(self, host: str, port: int) -> tuple[web.AppRunner, asyncio.Server,
                                                         tuple[str, int]]:
        self.service = service = self._make_service()
        limits = self._limits
        runner = web.AppRunner(service.application(), access_log=None, logger=_HTTP_LOG,
                               handle_signals=False, handler_cancellation=True,
                               shutdown_timeout=1.0, keepalive_timeout=limits.keepalive_s,
                               max_line_size=4096, max_field_size=4096, max_headers=48,
                               lingering_time=1.0)
        await runner.setup()
        server = runner.server
        assert server is not None

        def accept() -> asyncio.Protocol:
            if len(server.connections) >= limits.max_connections:
                return _Refuse()
            return server()

        try:
            listening = await asyncio.get_running_loop().create_server(
                accept, host, port, backlog=256, reuse_address=True)
        except BaseException:
            await runner.cleanup()
            raise
        bound = listening.sockets[0].getsockname()
        return runner, listening, (bound[0], bound[1])

    async def _close(self, runner: web.AppRunner, listening: asyncio.Server) -> None:
        if self.service is not None:
            await self.service.close()
        listening.close()
        await runner.cleanup()
        await listening.wait_closed()
