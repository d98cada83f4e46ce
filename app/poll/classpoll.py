"""Owns the class's poll as the window sees it: start and stop the server, ask the current
scene's question, freeze it on Reveal, and the counts of every scene, delivered as Qt signals
on the UI thread and kept for the session (saved with the scenario and the autosave through
`kept` and `bring_back`, or as CSV).

Usage, from the stage or the window:

    poll = ClassPoll(parent=window)
    poll.counts_changed.connect(bars.on_counts_changed)
    address = poll.start()                  # or poll.start("127.0.0.1", 0)
    card.show_poll(poll.join_url, address, poll.room)
    poll.set_question(scene_question(scene, values, figures))
    poll.freeze()                           # on Reveal
    poll.stop()                             # also done when the application quits
    poll.start()                            # the same port and room code: phones come back

A poll keeps its port and room code for the window's life, so a restart (a slip of P, a
network chosen again) is one the phones that joined ride out by themselves.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.i18n import language, tr
from app.model.answers.tally import PollBook, SceneCounts, counts_csv, record_of
from app.poll.guard import Limits, new_room, new_session

if TYPE_CHECKING:
    from app.poll.page import Page
    from app.poll.questions import Question
    from app.poll.server import ServerThread
    from app.poll.service import PollService

__all__ = ["ClassPoll", "PollError"]


class PollError(OSError):
    """The poll could not start; the message is for the teacher, in the current language."""


class _Relay(QObject):
    """Lives on the UI thread; the server's thread emits through it, so every slot runs on
    the UI thread (a queued connection) and never while the server holds anything."""

    counted = Signal(object)
    failed = Signal(str)


SWITCH_S = 0.001
"""While the poll runs, the interpreter hands the server's thread's turn over after this
long instead of Python's 5 ms: answering phones, the server holds the interpreter in a
row of 5 ms turns that the UI thread queued behind for 40-60 ms on a busy 2-core machine."""


def _freeze_heap() -> None:
    """Collect once, then leave everything alive now out of later collections. The server's
    requests keep the collector busy, and a full collection walks every object of the window
    while holding the interpreter: 50-90 ms in which the UI thread cannot paint. Done when
    the teacher starts the poll, not while the phones answer."""
    gc.collect()
    gc.freeze()


class ClassPoll(QObject):
    """One window's poll: off until started, one question at a time, counts per scene."""

    counts_changed = Signal(str, list)
    """(scene id, counts per choice): a scene's counts moved (at most every 50 ms)."""
    frozen = Signal(str)
    """The scene's poll was frozen (Reveal); its final counts were sent just before."""
    kept_changed = Signal()
    """What `kept` returns changed (the session saves it with the scenario)."""
    running_changed = Signal(bool)
    failed = Signal(str)
    """The server stopped by itself; the text says why (the poll is off now)."""

    def __init__(self, parent: QObject | None = None, limits: Limits | None = None) -> None:
        super().__init__(parent)
        self.limits = limits or Limits()
        self._book = PollBook(self.limits.max_devices)
        self._counts: dict[str, SceneCounts] = {}
        self._question: Question | None = None
        self._frozen_now = False
        self._thread: ServerThread | None = None
        self.address = ""
        self.host = ""
        self.room = ""
        self._room = self._session = ""
        """The room code and the page's session, the same for every start of this poll (made
        when it first starts)."""
        self._switch_s = sys.getswitchinterval()
        """The interpreter's switch interval before the poll started (`SWITCH_S`)."""
        self._port: int | None = None
        """The port the poll last listened on; a restart asks for it first."""
        self._relay = _Relay(self)
        self._relay.counted.connect(self._on_counted)
        self._relay.failed.connect(self._on_failed)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop)

    # ---- running ------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._thread is not None

    @property
    def connected(self) -> int:
        """Phones with the page open now (their event streams), for the presenter's console."""
        service = self._thread.service if self._thread is not None else None
        return service.streams if service is not None else 0

    @property
    def join_url(self) -> str:
        """What the QR code holds: the address with the room code after '#', which the page
        reads and the browser never sends."""
        return f"{self.address}/#{self.room}" if self.running else ""

    def start(self, host: str | None = None, port: int | None = None) -> str:
        """Listen on `host` (default: the LAN's address; 0.0.0.0: every interface) and `port`
        (default: the port this poll listened on before, else 8423, or any free port if that
        one is taken; 0: any free port); returns the address a phone opens, e.g.
        http://192.168.1.23:8423. The room code is the one this poll always had. Raises
        PollError."""
        if self._thread is not None:
            return self.address
        from app.poll.network import DEFAULT_PORT, default_address, shown_host
        from app.poll.page import load_page
        from app.poll.server import ServerThread  # aiohttp: loaded when a poll first starts

        if not self._room:
            self._room, self._session = new_room(), new_session()
        bind = host or default_address()
        ports = [self._port or DEFAULT_PORT, 0] if port is None else [port]
        page = load_page()
        _freeze_heap()
        for attempt, number in enumerate(ports):
            thread = ServerThread(lambda: self._service(page), self.limits,
                                  self._relay.failed.emit)
            try:
                bound_host, bound_port = thread.start(bind, number)
            except OSError as error:
                if attempt + 1 < len(ports):
                    continue
                reason = os.strerror(error.errno) if error.errno else str(error)
                raise PollError(tr("poll.error.bind", host=bind, port=number,
                                   reason=reason)) from None
            break
        self._thread, self.room, self.host = thread, self._room, bound_host
        self._switch_s = sys.getswitchinterval()
        sys.setswitchinterval(min(SWITCH_S, self._switch_s))
        self._port = bound_port
        self.address = f"http://{shown_host(bound_host)}:{bound_port}"
        self.running_changed.emit(True)
        return self.address

    def stop(self) -> None:
        """Stop the server (the phones are told the poll ended, and wait for it to come
        back); the counts stay in the session."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        thread.stop()
        sys.setswitchinterval(self._switch_s)
        self.address = self.room = self.host = ""
        self.running_changed.emit(False)

    def _service(self, page: Page) -> PollService:
        """Built on the server's thread; the book passes to it while the server runs."""
        from app.poll.service import PollService

        service = PollService(page, self._book, self._room, self._relay.counted.emit,
                              self.limits, lang=self._question.lang if self._question
                              else language(), session=self._session)
        service.set_question(self._question)
        if self._frozen_now:
            service.freeze()
        return service

    # ---- the question --------------------------------------------------------------------

    def set_question(self, question: Question | None) -> None:
        """Ask this scene's question (None: the phones wait for the next one). Answers given
        to the scene earlier in the session stay counted."""
        self._question, self._frozen_now = question, False
        if self._thread is not None:
            self._post("set_question", question, language())
        elif question is not None:
            tally = self._book.open(question.scene, question.choices, question.right)
            self._on_counted(tally.summary())

    def freeze(self) -> None:
        """Reveal: no more answers to the current question; phones show the right one."""
        if self._question is None:
            return
        self._frozen_now = True
        if self._thread is not None:
            self._post("freeze")
        else:
            tally = self._book.get(self._question.scene)
            if tally is not None and tally.freeze():
                self._on_counted(tally.summary())

    def _post(self, name: str, *args: Any) -> None:
        """Call the service's method `name` on the server's thread, in the order posted."""
        thread = self._thread
        if thread is not None:
            thread.call(lambda: thread.service and getattr(thread.service, name)(*args))

    @property
    def question(self) -> Question | None:
        return self._question

    # ---- counts ------------------------------------------------------------------------

    def counts(self, scene: str) -> SceneCounts | None:
        """The scene's counts as last delivered (None: never asked this session)."""
        return self._counts.get(scene)

    def answered(self, scene: str) -> bool:
        """True once the class answered the scene's question this session (or a file said so)."""
        counts = self._counts.get(scene)
        return counts is not None and counts.total > 0

    def kept(self) -> tuple[SceneCounts, ...]:
        """What a scenario keeps: every scene the class answered, its question and counts."""
        return tuple(counts for counts in self._counts.values() if counts.total)

    def record(self) -> dict[str, Any]:
        """What `kept` keeps, JSON-ready, as the scenario saves it."""
        return record_of(self.kept())

    def restore(self, record: Any) -> None:
        """Bring saved counts back (all frozen); RecordError if the record is not valid."""
        self._adopt(PollBook.from_json(record, self.limits.max_devices))

    def bring_back(self, scenes: tuple[SceneCounts, ...]) -> None:
        """Counts a scenario kept, now the session's (all frozen: no device was kept)."""
        self._adopt(PollBook.restored(scenes, self.limits.max_devices))

    def _adopt(self, book: PollBook) -> None:
        """`book` replaces the session's counts; the current question is asked again, frozen
        still if it was revealed."""
        self._book = book
        self._counts.clear()
        for counts in book.summaries():
            self._on_counted(counts)
        if self._thread is not None:
            self._post("adopt", book)
        elif self._question is not None:
            question = self._question
            self._on_counted(book.open(question.scene, question.choices,
                                       question.right).summary())
        if self._frozen_now:
            self.freeze()
        self.kept_changed.emit()

    def new_class(self) -> tuple[SceneCounts, ...]:
        """Start a new class with no answers; returns what the class before kept."""
        kept = self.kept()
        # a new session: the phones forget which choice they tapped for the class before
        self._session = new_session()
        self._post("renew", self._session)
        self._adopt(PollBook(self.limits.max_devices))
        return kept

    def clear_scene(self, scene: str) -> SceneCounts | None:
        """Forget one scene's answers (asked again, it starts from none); returns them."""
        counts = self._counts.get(scene)
        if counts is None or not counts.total:
            return None
        self._change_book(lambda book: book.drop(scene))
        self._counts.pop(scene, None)
        if self._question is not None and self._question.scene == scene:
            # none at once, before the server (if it runs) counts the question again
            self._on_counted(replace(counts, counts=(0,) * len(counts.counts)))
        self._ask_again(scene)
        return counts

    def put_back(self, counts: SceneCounts) -> None:
        """A scene's cleared answers back, frozen (which device gave which is forgotten)."""
        self._change_book(lambda book: book.put(counts))
        self._on_counted(replace(counts, frozen=True))
        self._ask_again(counts.scene)

    def _change_book(self, change: Callable[[PollBook], None]) -> None:
        """Change the book where it lives: here, or on the server's thread while it runs."""
        thread = self._thread
        if thread is None:
            change(self._book)
            return
        book = self._book

        def there() -> None:
            change(book)
            if thread.service is not None:
                thread.service.adopt(book)
        thread.call(there)

    def _ask_again(self, scene: str) -> None:
        """The current question, if it is `scene`'s, from the book as it is now."""
        if self._question is not None and self._question.scene == scene:
            self.set_question(self._question)
            if self._frozen_now:
                self.freeze()
        self.kept_changed.emit()

    def csv_text(self) -> str:
        """The counts of every scene as CSV text (one row per choice)."""
        return counts_csv(self._counts.values())

    def _on_counted(self, counts: SceneCounts) -> None:
        before = self._counts.get(counts.scene)
        self._counts[counts.scene] = counts
        self.counts_changed.emit(counts.scene, list(counts.counts))
        if counts.frozen and not (before is not None and before.frozen):
            self.frozen.emit(counts.scene)
        if counts.total or (before is not None and before.total):
            self.kept_changed.emit()

    def _on_failed(self, reason: str) -> None:
        self.stop()
        self.failed.emit(tr("poll.error.stopped", reason=reason))
