"""Owns what the poll's web server answers, on the server's own event loop: the page's three
files, the current question, the event stream that carries the next one, the room code a
phone joins with, and the answers. When the server stops, every open stream is told the poll
ended before it closes, so the pages say so instead of looking live.

Every other path is a 404 (there is no file lookup, so no path can reach the disk); every
refusal is a 4xx with one word the page understands and changes nothing. Counts go to the
UI at most every COUNTS_EVERY_S through `on_counts`, so a busy class cannot flood it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from app.model.answers.tally import Outcome, PollBook, SceneCounts, SceneTally
from app.poll.guard import (
    MAX_BODY,
    Buckets,
    Limits,
    Refused,
    new_session,
    parse_answer,
    parse_join,
    peer_key,
)
from app.poll.page import Asset, Page
from app.poll.questions import Question

__all__ = ["COUNTS_EVERY_S", "ROUTES", "SECURITY_HEADERS", "PollService"]

COUNTS_EVERY_S = 0.05
LAST_WORD_S = 1.0
"""How long a stopping server waits for its streams to carry "the poll ended" out."""
ROUTES = ("/", "/student.js", "/student.css", "/question", "/events", "/join", "/answer")
"""Everything the server answers; anything else is 404."""
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
_WORDS = {400: "malformed", 403: "room", 404: "not_found", 405: "method", 408: "too_slow",
          409: "changed",
          413: "too_large", 415: "media_type", 429: "too_fast", 503: "full"}
CountsSink = Callable[[SceneCounts], None]


def _serve(asset: Asset) -> Callable[[web.Request], Awaitable[web.Response]]:
    """A handler that sends one bundled file from memory."""

    async def handler(_request: web.Request) -> web.Response:
        return web.Response(body=asset.body, headers={"Content-Type": asset.content_type})

    return handler


class PollService:
    """The poll's state and handlers; every method runs on the server's loop thread."""

    def __init__(self, page: Page, book: PollBook, room: str, on_counts: CountsSink,
                 limits: Limits, lang: str = "zh", session: str | None = None) -> None:
        self.page, self.book, self.room, self.limits = page, book, room, limits
        self.session = session or new_session()
        self.lang = lang
        self._on_counts = on_counts
        self._question: Question | None = None
        self._tally: SceneTally | None = None
        self._revealed = False
        """Reveal was asked for the current question: only then do the phones see the right
        answer (a scene brought back from a file is frozen before its Reveal)."""
        self._rev = 0
        self._payload = b""
        self._changed = asyncio.Event()
        self._closing = False
        self._streams: set[web.StreamResponse] = set()
        self._drained = asyncio.Event()
        """Set once the server is stopping and every stream has ended."""
        self._dirty: set[str] = set()
        self._flush_handle: asyncio.TimerHandle | None = None
        self._secret = secrets.token_bytes(16)
        self._devices = Buckets(limits.device_rate, limits.device_burst, 4 * limits.max_devices)
        self._everyone = Buckets(limits.total_rate, limits.total_rate, 1)
        self._wrong_room = Buckets(limits.wrong_room_rate, limits.wrong_room_burst, 4096)
        self._publish()

    # ---- what the UI asks (posted to this thread) -------------------------------------

    @property
    def streams(self) -> int:
        return len(self._streams)

    def set_question(self, question: Question | None, lang: str | None = None) -> None:
        """Ask `question` (None: nothing to answer now); its scene's earlier answers stay."""
        self._flush()
        self._question, self._revealed = question, False
        self.lang = question.lang if question is not None else (lang or self.lang)
        self._tally = (None if question is None else
                       self.book.open(question.scene, question.choices, question.right))
        if self._tally is not None:
            self._dirty.add(self._tally.scene)
        self._flush()
        self._publish()

    def freeze(self) -> None:
        """Reveal: the current question takes no more answers; the phones are told."""
        if self._tally is None or (self._revealed and self._tally.frozen):
            return
        self._revealed = True
        if self._tally.freeze():
            self._dirty.add(self._tally.scene)
            self._flush()
        self._publish()

    def renew(self, session: str) -> None:
        """Another class: pages drop the answers they remember under the old session (the
        next question sent carries the new one)."""
        self.session = session

    def adopt(self, book: PollBook) -> None:
        """A restored record replaces the session's counts; the question is asked again."""
        self.book = book
        for counts in book.summaries():
            self._dirty.add(counts.scene)
        self.set_question(self._question)

    async def close(self) -> None:
        """Tell every event stream the poll ended and wait (a moment at most) until each has
        sent it and ended, so a page learns it from the poll and not from a lost connection
        (the server is stopping)."""
        self._closing = True
        if self._flush_handle is not None:
            self._flush_handle.cancel()
        self._flush()
        self._publish()
        if self._streams:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._drained.wait(), LAST_WORD_S)

    # ---- counts to the UI, the question to the phones -----------------------------------

    def _mark(self, scene: str) -> None:
        self._dirty.add(scene)
        if self._flush_handle is None:
            self._flush_handle = asyncio.get_running_loop().call_later(COUNTS_EVERY_S,
                                                                       self._flush)

    def _flush(self) -> None:
        self._flush_handle = None
        dirty, self._dirty = self._dirty, set()
        for scene in dirty:
            tally = self.book.get(scene)
            if tally is not None:
                self._on_counts(tally.summary())

    def _publish(self) -> None:
        """Build the question's JSON once and wake every event stream."""
        self._rev += 1
        body: dict[str, Any] = {"session": self.session, "rev": self._rev, "lang": self.lang,
                                "strings": self.page.words(self.lang), "scene": None,
                                "ended": self._closing}
        question, tally = self._question, self._tally
        if question is not None and tally is not None:
            body.update(scene=question.scene, prompt=question.prompt,
                        choices=list(question.choices), frozen=tally.frozen,
                        right=question.right if tally.frozen and self._revealed else None)
        self._payload = json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode()
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    # ---- the web application -----------------------------------------------------------

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        for route, asset in self.page.assets.items():
            app.router.add_get(route, _serve(asset))
        app.router.add_get("/question", self._question_json)
        app.router.add_get("/events", self._events)
        app.router.add_post("/join", self._join)
        app.router.add_post("/answer", self._answer)
        return app

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                     ) -> web.StreamResponse:
        """Every refusal becomes JSON with one word; every reply gets the strict headers."""
        try:
            response = await handler(request)
        except Refused as refused:
            response = self._refusal(refused.status, refused.word, refused.retry_after)
        except web.HTTPException as error:
            response = self._refusal(error.status, _WORDS.get(error.status, "refused"), None)
            if "Allow" in error.headers:
                response.headers["Allow"] = error.headers["Allow"]
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    @staticmethod
    def _refusal(status: int, word: str, retry_after: int | None) -> web.Response:
        response = web.json_response({"error": word}, status=status)
        if retry_after is not None:
            response.headers["Retry-After"] = str(retry_after)
        return response

    async def _question_json(self, _request: web.Request) -> web.Response:
        return web.Response(body=self._payload,
                            headers={"Content-Type": "application/json; charset=utf-8"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the question now, then each time it changes, and last that the
        poll ended; a comment line keeps idle connections open; a phone that stops reading is
        dropped. A stream that ends is opened again by the browser itself, every few seconds,
        until the poll is back."""
        if len(self._streams) >= self.limits.max_streams:
            raise Refused(503, "full", retry_after=5)
        response = web.StreamResponse(headers={
            **SECURITY_HEADERS, "Content-Type": "text/event-stream; charset=utf-8",
            "X-Accel-Buffering": "no"})
        await response.prepare(request)
        self._streams.add(response)
        try:
            await self._send(response, b"retry: 3000\n\n")
            sent = 0
            while True:
                if sent != self._rev:
                    sent = self._rev
                    await self._send(response, b"event: question\ndata: " + self._payload
                                     + b"\n\n")
                    continue
                if self._closing:
                    break
                try:
                    await asyncio.wait_for(self._changed.wait(), self.limits.heartbeat_s)
                except asyncio.TimeoutError:
                    await self._send(response, b": still here\n\n")
            await asyncio.wait_for(response.write_eof(), self.limits.write_timeout_s)
        except (ConnectionError, asyncio.TimeoutError):
            pass  # the phone went away or stopped reading: its stream ends here
        finally:
            self._streams.discard(response)
            if self._closing and not self._streams:
                self._drained.set()
        return response

    async def _send(self, response: web.StreamResponse, data: bytes) -> None:
        await asyncio.wait_for(response.write(data), self.limits.write_timeout_s)

    async def _body(self, request: web.Request) -> bytes:
        """A small JSON body that arrives in time, unread beyond MAX_BODY, or Refused."""
        if request.content_type != "application/json":
            raise Refused(415, "media_type")
        length = request.content_length
        if length is not None and length > MAX_BODY:
            raise Refused(413, "too_large")
        try:
            return await asyncio.wait_for(request.read(), self.limits.read_timeout_s)
        except asyncio.TimeoutError:
            raise Refused(408, "too_slow") from None

    def _check_room(self, request: web.Request, room: str) -> None:
        """Refused(403) for a wrong room code; Refused(429) for a peer that guessed too many."""
        peer = peer_key(self._secret, request.remote)
        if self._wrong_room.level(peer) < 1:
            raise Refused(429, "too_fast", retry_after=6)
        if not hmac.compare_digest(room.encode(), self.room.encode()):
            self._wrong_room.take(peer)
            raise Refused(403, "room")

    async def _join(self, request: web.Request) -> web.Response:
        """A phone joins with a room code: 200 if it is this poll's, before any tap needs it
        (guesses count against the same limit as a tap's)."""
        self._check_room(request, parse_join(await self._body(request)))
        return web.json_response({"joined": True})

    async def _answer(self, request: web.Request) -> web.Response:
        """One tap: checked in full before anything is counted; 200 says it was counted."""
        answer = parse_answer(await self._body(request))
        self._check_room(request, answer.room)
        if not self._everyone.take(None) or not self._devices.take(answer.device):
            raise Refused(429, "too_fast", retry_after=1)
        question, tally = self._question, self._tally
        if question is None or tally is None or answer.scene != question.scene:
            raise Refused(409, "changed")
        outcome = tally.answer(answer.device, answer.choice)
        if outcome is Outcome.FROZEN:
            raise Refused(409, "frozen")
        if outcome is Outcome.FULL:
            raise Refused(503, "full")
        if outcome is Outcome.NO_SUCH_CHOICE:
            raise Refused(400, "malformed")
        if outcome in (Outcome.COUNTED, Outcome.CHANGED):
            self._mark(tally.scene)
        return web.json_response({"scene": question.scene, "choice": answer.choice})
