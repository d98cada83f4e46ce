"""Bounds a classroom network needs: connections and event streams are capped, a client that
sends its request slowly or not at all is closed, and a phone that stops reading its event
stream is dropped without holding up anyone else."""

from __future__ import annotations

import socket

from poll_helpers import QUESTION, TIMEOUT_S, Phone, device, wait_counts

from app.poll.guard import Limits
from app.poll.questions import Question


def _connect(phone: Phone) -> socket.socket:
    return socket.create_connection((phone.host, phone.port), timeout=TIMEOUT_S)


def _closed_by_server(raw: socket.socket) -> bool:
    try:
        return raw.recv(65536) == b""
    except ConnectionResetError:
        return True


def _serves(phone: Phone) -> bool:
    try:
        return phone.get("/question").status == 200
    except (ConnectionError, OSError):
        return False


def _stream(phone: Phone) -> socket.socket:
    raw = _connect(phone)
    raw.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    assert raw.recv(65536).startswith(b"HTTP/1.1 200")
    return raw


def test_connections_beyond_the_cap_are_closed_at_once(qtbot, start_poll) -> None:
    poll = start_poll(Limits(max_connections=3))
    phone = Phone(poll)
    held = [_stream(phone) for _ in range(3)]  # each answered, so each surely counted
    try:
        with _connect(phone) as fourth:
            assert _closed_by_server(fourth)
    finally:
        for raw in held:
            raw.close()
    qtbot.waitUntil(lambda: _serves(phone), timeout=TIMEOUT_S * 1000)


def test_event_streams_beyond_the_cap_get_503(start_poll) -> None:
    poll = start_poll(Limits(max_streams=2))
    phone = Phone(poll)
    streams = [_stream(phone) for _ in range(2)]
    try:
        reply = phone.get("/events")
        assert (reply.status, reply.json()) == (503, {"error": "full"})
        assert reply.headers["Retry-After"]
        assert phone.get("/question").status == 200  # the rest still works
    finally:
        for raw in streams:
            raw.close()


def test_a_slow_or_silent_client_is_closed_and_stalls_no_one(qtbot, start_poll) -> None:
    poll = start_poll(Limits(keepalive_s=0.3))
    phone = Phone(poll)
    silent, slow = _connect(phone), _connect(phone)
    slow.sendall(b"POST /answer HT")
    try:
        assert phone.answer(1).status == 200
        wait_counts(qtbot, poll, "s1", (0, 1, 0))
        assert _closed_by_server(silent) and _closed_by_server(slow)
    finally:
        silent.close()
        slow.close()


def _big(n: int) -> Question:
    words = "很长的题目" * 110
    return Question(f"big{n % 2}", words, tuple(f"{words}{i}" for i in range(5)), 0, "zh")


def test_a_phone_that_stops_reading_is_dropped_and_the_others_go_on(qtbot,
                                                                      start_poll) -> None:
    poll = start_poll(Limits(write_timeout_s=0.2, heartbeat_s=0.05))
    phone = Phone(poll)
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.settimeout(TIMEOUT_S)
    stuck.connect((phone.host, phone.port))
    stuck.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    qtbot.waitUntil(lambda: poll.connected == 1, timeout=TIMEOUT_S * 1000)
    try:
        n = 0

        def dropped() -> None:
            nonlocal n
            for _ in range(20):  # questions of some 20 kB each, until its buffers are full
                n += 1
                poll.set_question(_big(n))
            assert poll.connected == 0

        qtbot.waitUntil(dropped, timeout=TIMEOUT_S * 1000)
        poll.set_question(QUESTION)
        assert phone.get("/question").json()["scene"] == "s1"
        assert phone.answer(0, who=device(7)).status == 200
        wait_counts(qtbot, poll, "s1", (1, 0, 0))
    finally:
        stuck.close()
