"""The lesson in its docks is what a single screen projects when the teacher leaves the
stage: before each Reveal no dock shows the scene's answer (its text, the values and the
words it marks), and after Reveal the answer is there. Out of the lesson the desk shows
everything again."""

from __future__ import annotations

import html
import re

import pytest
from legibility import seen_texts
from PySide6.QtWidgets import QApplication

from app.i18n import language, strings, tr
from app.startup import build_window, make_application
from app.ui.language import apply_language
from app.ui.lesson_values import scene_values
from app.ui.widgets.stage_text import WORD_JOINER

TAGS = re.compile(r"<[^>]+>")


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _answers(window, values: dict[str, str]) -> list[str]:
    scene = window.lesson.scene
    text = html.unescape(TAGS.sub("", tr(scene.answer.key, **values)))
    words = [strings(code)[word.key] for word in scene.answer_words for code in (language(), "zh")]
    return [text, *(values[name] for name in scene.answer_values), *words]


def _shown(window) -> str:
    return "\n".join(s.text for s in seen_texts(window)  # a joiner only holds a name whole
                     if s.visible).replace(WORD_JOINER, "")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_dock_answers_a_scene_before_its_reveal(qtbot, lang) -> None:
    make_application()
    window = build_window(lang)
    qtbot.addWidget(window)
    window.resize(1366, 706)
    window.show()
    qtbot.waitExposed(window)
    _bold, plain = scene_values(window.document.figures, window.document.data,
                                window.lesson.lesson)
    run, failures, asked = window.lesson, [], 0
    try:
        window.arrangement.open_scene(0, set_up=True)
        for index in range(run.count):
            run.go(index)
            window.document.flush()
            _settle()
            if run.scene.answer is None or not run.scene.hides_answer:
                continue
            asked += 1
            answers = [a for a in _answers(window, plain) if a]
            shown = _shown(window)
            failures += [f"scene {index + 1} ({run.scene.id}) before Reveal: {a!r}"
                         for a in answers if a in shown]
            run.reveal()
            window.document.flush()
            _settle()
            after = _shown(window)
            if not any(a in after for a in answers):
                failures.append(f"scene {index + 1} ({run.scene.id}): no answer after Reveal")
        assert asked >= 5, "the lesson asks its questions"
        window.arrangement.set_lesson(False)
        _settle()
        assert not window.panels["guide"]._withheld, "the desk is the teacher's: all shows"
    finally:
        apply_language("zh")
    assert not failures, "\n".join(failures)
