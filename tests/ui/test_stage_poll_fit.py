"""The stage with the class poll running, as a teacher uses it: the poll started, then every
scene stepped through with the clicker's key at 1024×768 and 150 %, in Chinese and English.
In every build, with the join card, with live bars that have answers and with the frozen bars
after Reveal: the window stays the projector's size, every text is readable and in view, and
PageDown always reaches the reveal. Loopback only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from legibility import lesson_tokens, problems, report
from PySide6.QtWidgets import QApplication

from app.startup import build_window, make_application
from app.ui.language import apply_language
from app.ui.presentation import restore_base_style
from tests.ui.staging import project

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "poll"))

from poll_helpers import Phone, device, wait_counts

pytestmark = pytest.mark.slow

PROJECTOR = (1024, 768)


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _answer(qtbot, poll) -> None:
    """Three phones answer the current question, each a different choice."""
    question = poll.question
    choices = len(question.choices)
    phone = Phone(poll)
    for n in range(3):
        assert phone.answer(n % choices, device(n + 1)).status == 200
    expected = [0] * choices
    for n in range(3):
        expected[n % choices] += 1
    wait_counts(qtbot, poll, question.scene, tuple(expected))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_scene_reads_and_reveals_with_the_class_poll_running(qtbot, lang) -> None:
    make_application()
    window = build_window(lang)
    qtbot.addWidget(window)
    window.resize(*PROJECTOR)
    window.show()
    qtbot.waitExposed(window)
    run, slides, polls = window.lesson, window.slides, window.parts.polls
    stage = window.arrangement.stage
    tokens = lesson_tokens(window.document.data)
    failures: list[str] = []

    def check(where: str, shown=stage) -> None:
        _settle()
        if window.width() > PROJECTOR[0] or window.height() > PROJECTOR[1]:
            failures.append(f"{where}: the window grew to {window.width()}×{window.height()}")
        for kind, items in problems(shown, tokens).items():
            if items:
                failures.append(report(items, f"{where}: {kind}"))

    try:
        window.arrangement.open_scene(0, set_up=True)
        project(window)
        window.presentation.set_scale(1.5)
        polls.start_at("127.0.0.1", 0)
        _settle()
        assert stage.card.isVisible()
        check("the join card", stage.card)  # opaque, over the panels: what the class reads
        window.slides.next()  # the lesson goes on: the card steps aside
        _settle()
        assert not stage.card.isVisible() and stage.join.isVisible()
        for index in range(run.count):
            run.go(index)
            window.document.flush()
            _settle()
            scene = run.scene
            asks = scene.poll is not None
            if asks:
                _answer(qtbot, polls.poll)
                assert stage.poll_bars.isVisible() and stage.poll_bars.counts.total == 3
            states = ("before", "after") if scene.hides_answer else ("shown",)
            for state in states:
                for build in range(slides.builds):
                    check(f"scene {index + 1} ({scene.id}) {state} build {build + 1}")
                    if state == "before" or build + 1 < slides.builds:
                        slides.next()  # the clicker's PageDown
                        window.document.flush()
                        _settle()
                if state == "before":
                    assert run.index == index and run.is_revealed(), (
                        f"scene {index + 1}: PageDown through its builds never revealed")
                    if asks:
                        qtbot.waitUntil(lambda: stage.poll_bars.counts is not None
                                        and stage.poll_bars.counts.frozen, timeout=5000)
    finally:
        polls.poll.stop()
        window.presentation.set_presenting(False)
        restore_base_style()
        apply_language("zh")
    heads = "; ".join(failure.splitlines()[0] for failure in failures)
    assert not failures, "\n\n".join(failures[:12]) + f"\n\n({len(failures)} in all: {heads})"
