"""A poll stopped and started again in the same window: it listens on the same port with the
same room code and the same session, so a phone that joined simply goes on; a phone joins
with the room code checked at once."""

from __future__ import annotations

import json

import pytest
from poll_helpers import Phone, device, wait_counts

from app.poll.network import LOOPBACK


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


def test_a_restarted_poll_keeps_its_port_room_and_session(qtbot, poll, phone) -> None:
    phone.answer(1)
    wait_counts(qtbot, poll, "s1", (0, 1, 0))
    address, room = poll.address, poll.room
    session = phone.get("/question").json()["session"]
    poll.stop()
    assert poll.start(LOOPBACK) == address and poll.room == room
    again = Phone(poll)
    assert again.get("/question").json()["session"] == session
    assert again.answer(2).status == 200
    wait_counts(qtbot, poll, "s1", (0, 0, 1))  # the same device: its vote moved


def test_a_restart_on_another_network_keeps_the_room_and_asks_for_the_port(qtbot,
                                                                          poll) -> None:
    room, port = poll.room, _port(poll.address)
    poll.stop()
    poll.start("0.0.0.0")
    assert poll.room == room and _port(poll.address) == port
    assert Phone(poll).answer(0, who=device(2)).status == 200  # reached on loopback too


def test_a_taken_port_moves_the_restarted_poll_to_a_free_one(qtbot, poll,
                                                             start_poll) -> None:
    room, port = poll.room, _port(poll.address)
    poll.stop()
    other = start_poll()
    other.stop()
    other.start(LOOPBACK, port)  # someone else listens there now
    address = poll.start(LOOPBACK)
    assert _port(address) != port and poll.room == room
    assert Phone(poll).answer(0).status == 200


def _join(phone: Phone, body: object, content_type: str = "application/json"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return phone.request("POST", "/join", data, {"Content-Type": content_type})


def test_joining_checks_the_room_code_and_counts_nothing(qtbot, poll, phone) -> None:
    wrong = f"{(int(poll.room) + 1) % 10000:04d}"
    reply = _join(phone, {"room": wrong})
    assert (reply.status, reply.json()) == (403, {"error": "room"})
    reply = _join(phone, {"room": poll.room})
    assert (reply.status, reply.json()) == (200, {"joined": True})
    wait_counts(qtbot, poll, "s1", (0, 0, 0))


@pytest.mark.parametrize(("body", "content_type", "status"), [
    ({"room": "12"}, "application/json", 400),
    ({"room": 1234}, "application/json", 400),
    ({"room": "1234", "device": device(1)}, "application/json", 400),
    (b"[]", "application/json", 400),
    (b'{"room": "1234"}', "text/plain", 415),
])
def test_a_malformed_join_is_refused(phone, body, content_type, status) -> None:
    assert _join(phone, body, content_type).status == status


def test_guessing_at_join_shares_the_limit_with_taps(qtbot, poll, phone) -> None:
    wrong = [f"{n:04d}" for n in range(10000) if f"{n:04d}" != poll.room][:10]
    assert [_join(phone, {"room": code}).status for code in wrong] == [403] * 10
    assert _join(phone, {"room": poll.room}).status == 429
    assert phone.answer(0).status == 429
