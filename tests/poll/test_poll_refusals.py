"""Everything a stranger on the classroom network might send: each bad request gets its 4xx
(or 503 when the poll is full) and leaves the counts as they were; nothing but the listed
paths is served, whatever the path looks like."""

from __future__ import annotations

import contextlib
import json
import socket

import pytest
from poll_helpers import TIMEOUT_S, Phone, device, wait_counts

from app.poll.guard import Limits

STATUS_4XX = {f"HTTP/1.{minor} {code}".encode() for minor in (0, 1) for code in range(400, 500)}
GOOD = {"room": None, "scene": "s1", "choice": 0, "device": device(1)}


def _body(phone: Phone, **change: object) -> bytes:
    body = {**GOOD, "room": phone.poll.room, **change}
    return json.dumps({k: v for k, v in body.items() if v is not ...}).encode()


def _settle(qtbot, phone: Phone, expected: tuple[int, ...]) -> None:
    """One good answer from a fresh device: once it is counted, every request before it was
    handled, so the counts show whether any bad one changed them."""
    assert phone.answer(2, who=device(99)).status == 200
    wait_counts(qtbot, phone.poll, "s1", expected)


@pytest.mark.parametrize(("change", "status", "word"), [
    ({"room": "0000x"}, 400, "malformed"),
    ({"room": 1234}, 400, "malformed"),
    ({"room": "١٢٣٤"}, 400, "malformed"),  # digits, but not ASCII
    ({"choice": "0"}, 400, "malformed"),
    ({"choice": True}, 400, "malformed"),
    ({"choice": 0.0}, 400, "malformed"),
    ({"choice": -1}, 400, "malformed"),
    ({"choice": 3}, 400, "malformed"),  # no such choice in this question
    ({"choice": 10**30}, 400, "malformed"),
    ({"device": "short"}, 400, "malformed"),
    ({"device": "<script>alert(1)</script>"}, 400, "malformed"),
    ({"device": "d" * 65}, 400, "malformed"),
    ({"scene": ""}, 400, "malformed"),
    ({"scene": "s" * 65}, 400, "malformed"),
    ({"scene": "s2"}, 409, "changed"),
    ({"extra": 1}, 400, "malformed"),
    ({"device": ...}, 400, "malformed"),
])
def test_a_bad_field_is_refused_and_counts_nothing(qtbot, poll, phone, change, status,
                                                   word) -> None:
    reply = phone.post(_body(phone, **change))
    assert (reply.status, reply.json()) == (status, {"error": word})
    _settle(qtbot, phone, (0, 0, 1))


def test_a_wrong_room_code_is_refused(qtbot, poll, phone) -> None:
    wrong = f"{(int(poll.room) + 1) % 10000:04d}"
    reply = phone.answer(0, room=wrong)
    assert (reply.status, reply.json()) == (403, {"error": "room"})
    _settle(qtbot, phone, (0, 0, 1))


@pytest.mark.parametrize(("body", "content_type", "status"), [
    (b"", "application/json", 400),
    (b"{", "application/json", 400),
    (b"[]", "application/json", 400),
    (b"null", "application/json", 400),
    (b"\xff\xfe{}", "application/json", 400),
    (b"[" * 1000 + b"]" * 1000, "application/json", 400),
    (b'{"room": NaN}', "application/json", 400),
    (b"room=1&choice=0", "application/x-www-form-urlencoded", 415),
    (b'{"room": "1"}', "text/plain", 415),
    (b"x" * 2049, "application/json", 413),
    (json.dumps({**GOOD, "room": "0000", "pad": "p" * 3000}).encode(), "application/json",
     413),
])
def test_a_malformed_or_oversized_body_is_refused(qtbot, poll, phone, body, content_type,
                                                  status) -> None:
    assert phone.post(body, content_type).status == status
    _settle(qtbot, phone, (0, 0, 1))


def test_a_body_that_lies_about_its_length_is_refused(qtbot, poll, phone) -> None:
    reply = phone.request("POST", "/answer", b"{}", {"Content-Type": "application/json",
                                                      "Content-Length": "100000"})
    assert reply.status == 413
    _settle(qtbot, phone, (0, 0, 1))


def test_a_body_that_never_comes_is_given_up(qtbot, start_poll) -> None:
    poll = start_poll(Limits(read_timeout_s=0.2))
    phone = Phone(poll)
    head = (b"POST /answer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{")
    assert _raw_waiting(phone, head)[:13] == b"HTTP/1.1 408 "
    _settle(qtbot, phone, (0, 0, 1))


def test_guessing_room_codes_is_stopped_even_before_the_right_one(qtbot, poll, phone) -> None:
    wait_counts(qtbot, poll, "s1", (0, 0, 0))
    wrong = [f"{n:04d}" for n in range(10000) if f"{n:04d}" != poll.room][:11]
    statuses = [phone.answer(0, room=code).status for code in wrong]
    assert statuses == [403] * 10 + [429]
    reply = phone.answer(0)  # the right code, from the same peer, while it is locked out
    assert reply.status == 429 and reply.headers["Retry-After"]
    assert poll.counts("s1").counts == (0, 0, 0)


def test_tapping_too_fast_is_refused_without_changing_the_vote(qtbot, start_poll) -> None:
    poll = start_poll(Limits(device_rate=0.001, device_burst=2))
    phone = Phone(poll)
    assert [phone.answer(c).status for c in (0, 1, 2)] == [200, 200, 429]
    wait_counts(qtbot, poll, "s1", (0, 1, 0))
    assert phone.answer(1, who=device(2)).status == 200  # another device has its own limit
    wait_counts(qtbot, poll, "s1", (0, 2, 0))


def test_a_full_poll_refuses_new_devices_and_keeps_counting_old_ones(qtbot,
                                                                     start_poll) -> None:
    poll = start_poll(Limits(max_devices=2))
    phone = Phone(poll)
    assert phone.answer(0, who=device(1)).status == 200
    assert phone.answer(0, who=device(2)).status == 200
    assert (phone.answer(0, who=device(3)).status, phone.answer(1, who=device(1)).status) == \
        (503, 200)
    wait_counts(qtbot, poll, "s1", (1, 1, 0))


def test_no_question_means_nothing_to_answer(qtbot, start_poll) -> None:
    poll = start_poll(question=None)
    phone = Phone(poll)
    assert phone.get("/question").json()["scene"] is None
    assert phone.answer(0, scene="s1").status == 409
    assert poll.counts("s1") is None


@pytest.mark.parametrize("path", [
    "/index.html", "/student.js/", "/student.js?x=../../README.md", "/../README.md",
    "/%2e%2e/README.md", "/..%2FREADME.md", "/student.js%2F..%2F..%2FREADME.md",
    "/%2Fetc%2Fpasswd", "//etc/passwd", "/resources/poll/student.js", "/app/main.py",
    "/static/", "/poll/", "/data/lesson-scenes.json", "/question/..", "/events/../question/x",
    "/.git/config", "/strings.json", "/%00", "/answer/../../../etc/passwd",
])
def test_nothing_but_the_listed_paths_is_served(phone, path) -> None:
    reply = phone.get(path)
    if path.startswith("/student.js?"):
        assert reply.status == 200 and b"EventSource" in reply.body  # the query is ignored
        return
    assert 400 <= reply.status < 500, path
    assert b"schema_version" not in reply.body and b"root:" not in reply.body
    assert b"[core]" not in reply.body and b"import" not in reply.body


@pytest.mark.parametrize(("method", "path", "status"), [
    ("PUT", "/", 405), ("DELETE", "/question", 405), ("POST", "/", 405),
    ("GET", "/answer", 405), ("POST", "/events", 405), ("PROPFIND", "/", 405),
    ("TRACE", "/", 405), ("OPTIONS", "/answer", 405),
])
def test_other_methods_are_refused(phone, method, path, status) -> None:
    assert phone.request(method, path).status == status


def _raw(phone: Phone, data: bytes) -> bytes:
    """Send `data` on a raw socket and read what the server answers before it closes."""
    with socket.create_connection((phone.host, phone.port), timeout=TIMEOUT_S) as raw:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            raw.sendall(data)  # may be refused before it is all sent; the answer still waits
        reply = b""
        try:
            while chunk := raw.recv(65536):
                reply += chunk
        except ConnectionResetError:
            pass
        return reply


def _raw_waiting(phone: Phone, data: bytes) -> bytes:
    """Send `data` and keep the connection open, reading the server's first answer."""
    with socket.create_connection((phone.host, phone.port), timeout=TIMEOUT_S) as raw:
        raw.sendall(data)
        return raw.recv(65536)


def test_a_request_line_of_a_megabyte_is_refused(qtbot, poll, phone) -> None:
    reply = _raw(phone, b"GET /" + b"a" * 2**20 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert reply[:12] in STATUS_4XX, reply[:80]
    assert phone.get("/").status == 200  # and the server goes on
    _settle(qtbot, phone, (0, 0, 1))


def test_huge_or_countless_headers_are_refused(phone) -> None:
    big = _raw(phone, b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"y" * 70000 + b"\r\n\r\n")
    many = _raw(phone, b"GET / HTTP/1.1\r\n" + b"".join(
        f"X-{i}: y\r\n".encode() for i in range(500)) + b"\r\n")
    assert big[:12] in STATUS_4XX and many[:12] in STATUS_4XX


def test_garbage_instead_of_http_is_refused(phone) -> None:
    reply = _raw(phone, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64)
    assert reply[:12] in STATUS_4XX
