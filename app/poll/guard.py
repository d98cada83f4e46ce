"""Owns what the poll accepts from a phone: the one answer body it reads, field by field, and
the limits that keep a flood, a guesser of room codes or a stuck client from costing the class.

Nothing here remembers a student: a device is a random token its page made, and a peer's
address is kept only as a keyed hash in memory, for the few seconds a limit needs it.
"""

from __future__ import annotations

import json
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from app.model.answers.tally import MAX_DEVICES

__all__ = ["DEVICE_PATTERN", "MAX_BODY", "Answer", "Buckets", "Limits", "Refused",
           "new_room", "new_session", "parse_answer", "parse_join", "peer_key"]

MAX_BODY = 2048
"""An answer is about a hundred bytes; anything over 2 KiB is refused unread (413)."""
ROOM_DIGITS = 4
MAX_SCENE_ID = 64
MAX_CHOICE = 16
DEVICE_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""The page's token: 16 random bytes in base64url is 22 characters."""
ROOM_PATTERN = re.compile(rf"[0-9]{{{ROOM_DIGITS}}}")
_FIELDS = frozenset({"room", "scene", "choice", "device"})
_JOIN_FIELDS = frozenset({"room"})


class Refused(Exception):
    """A request the poll turns down: its HTTP status and one word the page understands."""

    def __init__(self, status: int, word: str, retry_after: int | None = None) -> None:
        super().__init__(f"{status} {word}")
        self.status = status
        self.word = word
        self.retry_after = retry_after


@dataclass(frozen=True)
class Answer:
    """One tap, as the page sends it: the room code, the question, the choice, the device."""

    room: str
    scene: str
    choice: int
    device: str


def new_room() -> str:
    """A random room code of four digits, shown on the stage beside the QR code."""
    import secrets  # with hmac and OpenSSL's hashes: loaded when a poll first starts

    return f"{secrets.randbelow(10**ROOM_DIGITS):0{ROOM_DIGITS}d}"


def new_session() -> str:
    """A random name for one poll's run of questions: the page keys the answers it remembers
    by it, so a poll that restarts keeps it and a new window's poll starts afresh."""
    import secrets

    return secrets.token_urlsafe(6)


def _text(value: object, pattern: re.Pattern[str] | None, most: int) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= most:
        raise Refused(400, "malformed")
    if pattern is not None and not pattern.fullmatch(value):
        raise Refused(400, "malformed")
    return value


def _fields(body: bytes, fields: frozenset[str]) -> dict[str, object]:
    """`body` as a JSON object with exactly `fields`, or Refused(400)."""
    try:
        node = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "malformed") from None
    if not isinstance(node, dict) or set(node) != fields:
        raise Refused(400, "malformed")
    return node


def parse_join(body: bytes) -> str:
    """The room code a phone joins with, or Refused(400): UTF-8 JSON holding only `room`,
    four ASCII digits."""
    return _text(_fields(body, _JOIN_FIELDS)["room"], ROOM_PATTERN, ROOM_DIGITS)


def parse_answer(body: bytes) -> Answer:
    """The answer in `body`, or Refused(400): UTF-8 JSON, exactly the four fields, each of
    its type and shape (a room code of four ASCII digits, a whole choice, a token)."""
    node = _fields(body, _FIELDS)
    choice = node["choice"]
    if type(choice) is not int or not 0 <= choice < MAX_CHOICE:
        raise Refused(400, "malformed")
    return Answer(
        room=_text(node["room"], ROOM_PATTERN, ROOM_DIGITS),
        scene=_text(node["scene"], None, MAX_SCENE_ID),
        choice=choice,
        device=_text(node["device"], DEVICE_PATTERN, 64),
    )


def peer_key(secret: bytes, remote: str | None) -> bytes:
    """A peer's address as a keyed hash: enough to tell peers apart for a minute, useless to
    anyone who reads the memory for who was there."""
    import hashlib

    return hashlib.blake2b((remote or "").encode(), key=secret, digest_size=12).digest()


class Buckets:
    """A token bucket per key (`rate` tokens a second, at most `burst`), for at most
    `most_keys` keys: the least recently seen key is forgotten first."""

    def __init__(self, rate: float, burst: float, most_keys: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.most_keys = rate, burst, most_keys
        self._clock = clock
        self._buckets: OrderedDict[object, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def level(self, key: object) -> float:
        """Tokens `key` has now (a full bucket for a key not seen)."""
        tokens, last = self._buckets.get(key, (self.burst, self._clock()))
        return min(self.burst, tokens + (self._clock() - last) * self.rate)

    def take(self, key: object) -> bool:
        """Spend one token of `key`; False (and nothing spent) when it has none."""
        tokens = self.level(key)
        ok = tokens >= 1
        self._buckets[key] = (tokens - 1 if ok else tokens, self._clock())
        self._buckets.move_to_end(key)
        while len(self._buckets) > self.most_keys:
            self._buckets.popitem(last=False)
        return ok


@dataclass(frozen=True)
class Limits:
    """How much the poll takes; the defaults are a lecture hall's, and tests may lower them."""

    max_devices: int = MAX_DEVICES
    max_connections: int = 1200
    """Two per device (the event stream and a request) with room to spare."""
    max_streams: int = 600
    device_rate: float = 3.0
    device_burst: float = 6.0
    """A student taps a few times a second at most; a script tapping faster gets 429."""
    total_rate: float = 2000.0
    """Answers a second from everyone together, before any is counted."""
    wrong_room_burst: float = 10.0
    wrong_room_rate: float = 1 / 6
    """Ten wrong room codes, then one every six seconds: one peer needs most of a day to try
    every code."""
    keepalive_s: float = 10.0
    """A connection idle this long (or sending its request this slowly) is closed."""
    read_timeout_s: float = 5.0
    """An answer's body must arrive this fast once its headers have (else 408)."""
    write_timeout_s: float = 5.0
    """An event stream whose phone does not take the next event this fast is ended."""
    heartbeat_s: float = 15.0
