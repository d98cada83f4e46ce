"""The legibility contract of the projector's stage, checked on what it really shows: every
scene at 1024×768 and 1280×720, in Chinese and English, at 100, 150 and 200 %, before and
after its reveal and in every build. Every text at least 18 px (the question 28 px), painted
text included; no label on another; every result in view, no scroll bar; no number or token
broken inside itself; and nothing that answers the question before Reveal."""

from __future__ import annotations

import html
import re

import pytest
from legibility import (
    lesson_tokens,
    problems,
    report,
    seen_texts,
)
from PySide6.QtWidgets import QApplication

from app.i18n import strings
from app.startup import build_window, make_application
from app.ui.fonts import STAGE_QUESTION_PX
from app.ui.language import apply_language
from app.ui.lesson_values import scene_values
from app.ui.presentation import restore_base_style
from tests.ui.staging import project

pytestmark = pytest.mark.slow

SIZES = ((1024, 768), (1280, 720))
ZOOMS = (1.0, 1.5, 2.0)
TAGS = re.compile(r"<[^>]+>")


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _plain(text: str) -> str:
    return html.unescape(TAGS.sub("", text))


def _walks(window):
    """Every scene, before and after its reveal, every build: yields a label for each."""
    run = window.lesson
    for index in range(run.count):
        run.go(index)
        window.document.flush()
        _settle()
        for state in (("before", "after") if run.scene.hides_answer else ("shown",)):
            if state == "after":
                run.reveal()
                window.document.flush()
                _settle()
            slides = window.slides
            for build in range(slides.builds):
                while slides.build < build:
                    slides.next()
                    _settle()
                yield f"scene {index + 1} ({run.scene.id}) {state} build {build + 1}"


def _answers(window, values: dict[str, str]) -> list[str]:
    """What answers the current scene's question: its answer text, marked values and marked
    words (in every language: a caption left in the other one answers too)."""
    scene = window.lesson.scene
    if scene.answer is None:
        return []
    text = _plain(strings("en")[scene.answer.key].format(**values))
    words = [strings(code)[word.key] for word in scene.answer_words for code in ("en", "zh")]
    return [text, *(values[name] for name in scene.answer_values), *words]


@pytest.mark.parametrize("zoom", ZOOMS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_scene_on_the_stage_is_readable_from_the_last_row(qtbot, lang, size, zoom):
    make_application()
    window = build_window(lang)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    data = window.document.data
    tokens = lesson_tokens(data)
    _bold, plain = scene_values(window.document.figures, data, window.lesson.lesson)
    failures: list[str] = []
    try:
        window.arrangement.open_scene(0, set_up=True)
        project(window)
        window.presentation.set_scale(zoom)
        _settle()
        stage = window.arrangement.stage
        for where in _walks(window):
            seen = seen_texts(stage)
            found = problems(stage, tokens, seen)
            question = [s for s in seen if s.owner is stage.question]
            if any(s.px < STAGE_QUESTION_PX for s in question):
                found["question under 28 px"] = question
            if not window.lesson.is_revealed():
                answers = _answers(window, plain)
                found["an answer before Reveal"] = [
                    s for s in seen for answer in answers if answer and answer in s.text]
            for kind, items in found.items():
                if items:
                    failures.append(report(items, f"{where}: {kind}"))
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()
        apply_language("zh")
    assert not failures, "\n\n".join(failures[:12])
