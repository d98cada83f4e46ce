"""A plain HTTP client that talks to a running poll as a phone would, and the questions the
poll tests ask."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from app.poll.classpoll import ClassPoll
from app.poll.network import LOOPBACK
from app.poll.questions import Question

QUESTION = Question("s1", "Which one?", ("red", "green", "blue"), 1, "en")
NEXT = Question("s2", "And now?", ("up", "down"), 0, "en")
TIMEOUT_S = 10


def device(n: int) -> str:
    return f"device-{n:016d}"


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


class Phone:
    """Requests to one running poll, each on its own connection (no keep-alive state)."""

    def __init__(self, poll: ClassPoll) -> None:
        self.poll = poll
        parts = urlsplit(poll.address)
        self.host, self.port = parts.hostname or LOOPBACK, parts.port or 80

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Reply:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return Reply(response.status, response.headers, response.read())
        finally:
            connection.close()

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def answer(self, choice: object, who: str = device(1), scene: object = None,
               room: object = None, **extra: object) -> Reply:
        body = {"room": self.poll.room if room is None else room,
                "scene": (self.poll.question.scene if self.poll.question else "")
                if scene is None else scene,
                "choice": choice, "device": who, **extra}
        return self.post(json.dumps(body).encode())

    def post(self, body: bytes, content_type: str = "application/json") -> Reply:
        return self.request("POST", "/answer", body, {"Content-Type": content_type})


def wait_counts(qtbot, poll: ClassPoll, scene: str, expected: tuple[int, ...]) -> None:
    """Wait until the UI side has the scene's counts (they arrive as queued signals)."""
    def arrived() -> None:
        counts = poll.counts(scene)
        assert counts is not None and counts.counts == expected

    qtbot.waitUntil(arrived, timeout=TIMEOUT_S * 1000)
