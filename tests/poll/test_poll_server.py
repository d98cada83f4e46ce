"""The poll served on loopback, as a phone uses it: the page and the question load, answers
are counted one per device and move when changed, Reveal freezes, and the next question
reaches an open event stream."""

from __future__ import annotations

import http.client
import json
import re

from poll_helpers import NEXT, QUESTION, TIMEOUT_S, Phone, device, wait_counts

from app.poll.page import PAGE_DIR, PAGE_KEYS
from app.poll.service import SECURITY_HEADERS


def test_the_page_its_script_and_style_load_with_strict_headers(phone) -> None:
    for path, kind, marker in (("/", "text/html", b"<main>"),
                               ("/student.js", "text/javascript", b"EventSource"),
                               ("/student.css", "text/css", b".choice")):
        reply = phone.get(path)
        assert reply.status == 200, path
        assert reply.headers["Content-Type"] == f"{kind}; charset=utf-8"
        assert marker in reply.body
        for name, value in SECURITY_HEADERS.items():
            assert reply.headers[name] == value


def test_the_question_is_json_in_the_teachers_language_without_its_answer(phone) -> None:
    question = phone.get("/question").json()
    assert question["scene"] == QUESTION.scene
    assert question["prompt"] == QUESTION.prompt
    assert question["choices"] == list(QUESTION.choices)
    assert question["lang"] == "en" and question["strings"]["join"] == "Join"
    assert question["frozen"] is False and question["right"] is None
    assert phone.poll.room not in json.dumps(question)


def test_the_page_shows_exactly_the_words_the_catalogue_gives_it() -> None:
    """The page's words are the `poll_page.*` keys of each language's catalogue."""
    script = (PAGE_DIR / "student.js").read_text(encoding="utf-8")
    asked = {f"poll_page.{name}" for name in re.findall(r'\btext\("([a-z_]+)"\)', script)}
    named = {key for key in PAGE_KEYS if f'"{key.partition(".")[2]}"' in script}
    assert asked <= set(PAGE_KEYS), "words the page asks for that the server never sends"
    assert named == set(PAGE_KEYS), "words the server sends that the page never shows"


def test_answers_are_counted_and_a_change_moves_one_vote(qtbot, poll, phone) -> None:
    assert phone.answer(0).status == 200
    wait_counts(qtbot, poll, "s1", (1, 0, 0))
    assert phone.answer(2).json() == {"scene": "s1", "choice": 2}
    wait_counts(qtbot, poll, "s1", (0, 0, 1))
    assert phone.answer(2, who=device(2)).status == 200
    assert phone.answer(1, who=device(3)).status == 200
    wait_counts(qtbot, poll, "s1", (0, 1, 2))
    assert phone.answer(2, who=device(2)).status == 200  # the same answer again
    assert phone.answer(0, who=device(4)).status == 200
    wait_counts(qtbot, poll, "s1", (1, 1, 2))


def test_reveal_freezes_and_shows_the_right_answer(qtbot, poll, phone) -> None:
    phone.answer(2)
    with qtbot.waitSignal(poll.frozen, timeout=TIMEOUT_S * 1000) as frozen:
        poll.freeze()
    assert frozen.args == ["s1"]
    assert poll.counts("s1").counts == (0, 0, 1) and poll.counts("s1").frozen
    reply = phone.answer(0)
    assert (reply.status, reply.json()) == (409, {"error": "frozen"})
    assert phone.answer(0, who=device(9)).status == 409
    question = phone.get("/question").json()
    assert question["frozen"] is True and question["right"] == QUESTION.right
    phone.answer(1, who=device(5), scene="s1")
    poll.set_question(NEXT)
    phone.answer(1, who=device(6))
    wait_counts(qtbot, poll, "s2", (0, 1))
    assert poll.counts("s1").counts == (0, 0, 1)


def test_a_scene_keeps_its_counts_when_the_class_returns(qtbot, poll, phone) -> None:
    phone.answer(1)
    wait_counts(qtbot, poll, "s1", (0, 1, 0))
    poll.set_question(NEXT)
    assert phone.answer(0, scene="s1").status == 409  # a tap on the old question
    phone.answer(0)
    wait_counts(qtbot, poll, "s2", (1, 0))
    poll.set_question(QUESTION)
    phone.answer(2)
    wait_counts(qtbot, poll, "s1", (0, 0, 1))  # the same device, its vote moved
    assert poll.counts("s2").counts == (1, 0)


def _events(phone: Phone) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection(phone.host, phone.port, timeout=TIMEOUT_S)
    connection.request("GET", "/events")
    response = connection.getresponse()
    assert response.status == 200
    assert response.headers["Content-Type"] == "text/event-stream; charset=utf-8"
    return connection, response


def _next_question(response: http.client.HTTPResponse) -> dict:
    """Read lines until one whole `question` event has come."""
    event = None
    while True:
        line = response.readline().decode()
        assert line, "the stream ended"
        if line.startswith("event: "):
            event = line[len("event: "):].strip()
        elif line.startswith("data: ") and event == "question":
            return json.loads(line[len("data: "):])


def test_the_next_question_reaches_the_page_by_its_event_stream(poll, phone) -> None:
    connection, response = _events(phone)
    try:
        first = _next_question(response)
        assert first["scene"] == "s1"
        poll.set_question(NEXT)
        assert _next_question(response)["scene"] == "s2"
        poll.freeze()
        frozen = _next_question(response)
        assert (frozen["scene"], frozen["frozen"], frozen["right"]) == ("s2", True, 0)
        poll.set_question(None)
        assert _next_question(response)["scene"] is None
    finally:
        connection.close()


def test_stopping_tells_the_streams_the_poll_ended_and_keeps_the_counts(qtbot, poll,
                                                                        phone) -> None:
    phone.answer(1)
    wait_counts(qtbot, poll, "s1", (0, 1, 0))
    connection, response = _events(phone)
    live = _next_question(response)
    assert live["ended"] is False
    poll.stop()
    last = _next_question(response)
    assert last["ended"] is True and last["scene"] == "s1" and last["session"] == live["session"]
    assert response.read() in (b"", b"\n")  # then the stream ends
    connection.close()
    assert not poll.running and poll.counts("s1").counts == (0, 1, 0)
def test_a_saved_record_comes_back_frozen(qtbot, poll, phone) -> None:
    phone.answer(1)
    wait_counts(qtbot, poll, "s1", (0, 1, 0))
    record = poll.record()
    assert device(1) not in json.dumps(record)
    assert poll.csv_text().splitlines()[2] == "s1,2,green,1,yes,"
    poll.restore(record)
    qtbot.waitUntil(lambda: phone.get("/question").json()["frozen"] is True,
                    timeout=TIMEOUT_S * 1000)
    assert phone.get("/question").json()["right"] is None, "frozen by the file, not revealed"
    assert phone.answer(0).status == 409
    assert poll.counts("s1").counts == (0, 1, 0)
    poll.freeze()  # Reveal
    qtbot.waitUntil(lambda: phone.get("/question").json()["right"] == 1,
                    timeout=TIMEOUT_S * 1000)


def test_an_address_that_cannot_be_used_is_one_clear_error(poll) -> None:
    from app.poll.classpoll import ClassPoll, PollError

    taken = int(poll.address.rsplit(":", 1)[1])
    other = ClassPoll()
    for host, port in (("127.0.0.1", taken), ("203.0.113.7", 0)):
        try:
            other.start(host, port)
        except PollError as error:
            text = str(error)
            assert host in text and str(port) in text and "\n" not in text
        else:
            raise AssertionError(f"{host}:{port} should not be usable")
        assert not other.running and other.join_url == ""
