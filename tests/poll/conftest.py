"""A poll on loopback for each test (stopped after it), and a phone to talk to it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from poll_helpers import QUESTION, Phone

from app.poll.classpoll import ClassPoll
from app.poll.guard import Limits
from app.poll.network import LOOPBACK
from app.poll.questions import Question


@pytest.fixture
def start_poll(qtbot) -> Iterator[Callable[..., ClassPoll]]:
    started: list[ClassPoll] = []

    def start(limits: Limits | None = None, question: Question | None = QUESTION) -> ClassPoll:
        poll = ClassPoll(limits=limits)
        poll.start(LOOPBACK, 0)
        poll.set_question(question)
        started.append(poll)
        return poll

    yield start
    for poll in started:
        poll.stop()


@pytest.fixture
def poll(start_poll) -> ClassPoll:
    return start_poll()


@pytest.fixture
def phone(poll) -> Phone:
    return Phone(poll)
