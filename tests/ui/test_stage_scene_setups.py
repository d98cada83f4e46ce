"""Each scene set for its question, on the projector's stage at 1024×768: no caption answers a
scene before Reveal (the words its file marks), a Reveal that selects the answer's pair shows
it term by term and is one Ctrl+Z, the closing scenes ask their questions on the stage, and
the notes band leaves the row the notes speak of in view."""

from __future__ import annotations

import numpy as np
import pytest
from legibility import seen_texts
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from app.i18n import tr
from app.startup import build_window, make_application
from app.ui.language import apply_language
from app.ui.layout.stage import Stage
from app.ui.panels.expansion.written import number, operand
from app.ui.presentation import restore_base_style
from tests.ui.test_expansion import plain

PROJECTOR = (1024, 768)


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


@pytest.fixture
def staged(qtbot):
    """The lesson on the stage of one 1024×768 screen, in a language."""
    windows = []

    def open_(lang: str):
        make_application()
        window = build_window(lang)
        qtbot.addWidget(window)
        window.resize(*PROJECTOR)
        window.show()
        qtbot.waitExposed(window)
        window.arrangement.open_scene(0, set_up=True)
        window.presentation.set_presenting(True)
        _settle()
        windows.append(window)
        return window

    yield open_
    for window in windows:
        window.presentation.set_presenting(False)
    restore_base_style()
    apply_language("zh")


def _go(window, index: int) -> Stage:
    window.lesson.go(index)
    window.document.flush()
    _settle()
    return window.arrangement.stage


def _shown(stage: Stage) -> str:
    return "\n".join(s.text for s in seen_texts(stage) if s.visible)


def _every_build(window):
    slides = window.slides
    for build in range(slides.builds):
        while slides.build < build:
            slides.next()
            _settle()
        yield build


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_caption_on_the_stage_answers_its_scene_before_reveal(staged, lang) -> None:
    window = staged(lang)
    run, marked, failures = window.lesson, 0, []
    for index, scene in enumerate(run.lesson.scenes):
        if not scene.answer_words:
            continue
        marked += 1
        words = [tr(word.key) for word in scene.answer_words]
        stage = _go(window, index)
        for build in _every_build(window):
            shown = _shown(stage)
            failures += [f"scene {index + 1} build {build + 1}: {word!r}"
                         for word in words if word in shown]
        run.reveal()
        window.document.flush()
        _settle()
        after = "\n".join(_shown(stage) for _build in _every_build(window))
        assert any(word in after for word in words), (index, words)  # the answer may show now
    assert marked, "no scene marks the words of its answer"
    assert not failures, "\n".join(failures)


def test_reveal_shows_the_answers_pair_term_by_term_and_ctrl_z_turns_back(staged) -> None:
    window = staged("en")
    run, document = window.lesson, window.document
    index = next(i for i, s in enumerate(run.lesson.scenes)
                 if s.reveal_select is not None and "expansion" in s.panels)
    _go(window, index)
    before = (document.state.query, document.state.key)
    expansion = window.panels["expansion"]
    run.reveal()
    document.flush()
    _settle()
    state = document.state
    assert (state.query, state.key) != before
    q, k = state.vectors[0][state.query], state.vectors[1][state.key]
    total = float(np.dot(q, k))
    assert total < 0  # the answer's key, whose score the question asks about
    text = plain(expansion.equation.text())
    terms = " + ".join(f"{operand(a)}×{operand(b)}" for a, b in zip(q, k, strict=True))
    products = " + ".join(operand(p) for p in q * k)
    assert f"q·k = {terms}" in text
    assert f"= {products} = {number(total)}" in text
    assert document.view.key_names[state.key] in expansion.heading.text()
    document.undo_stack.undo()
    document.flush()
    assert (document.state.query, document.state.key) == before
    document.undo_stack.redo()
    document.flush()
    assert (document.state.query, document.state.key) == (state.query, state.key)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_closing_scenes_ask_their_questions_on_the_stage(staged, lang) -> None:
    window = staged(lang)
    asking = [i for i, s in enumerate(window.lesson.lesson.scenes) if s.question is not None]
    assert len(asking) >= 3
    for index in asking:
        stage = _go(window, index)
        asked = window.lesson.scene.question.key
        assert stage.question.isVisible(), index
        assert stage.question.text() == tr(asked, **stage.values)
        assert not stage.reveal_button.isVisible()  # nothing is held back: no Reveal


def _rect_in(stage: Stage, panel, rect: QRect) -> QRect:
    return QRect(panel.mapTo(stage, rect.topLeft()), rect.size())


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_notes_band_leaves_the_row_it_discusses_in_view(staged, lang) -> None:
    window = staged(lang)
    window.actions["notes"].trigger()  # N: one screen, the band over the stage
    checked = 0
    for index, scene in enumerate(window.lesson.lesson.scenes):
        if not {"heatmap", "match"} & set(scene.panels):
            continue
        stage = _go(window, index)
        for _build in _every_build(window):
            assert stage.band.isVisible()
            for name in ("heatmap", "match"):
                panel = window.panels[name]
                rect = panel.focus_rect() if panel.isVisibleTo(stage) else None
                if rect is None:
                    continue
                checked += 1
                row = _rect_in(stage, panel, rect)
                assert not stage.band.geometry().intersects(row), (index, name, row,
                                                                   stage.band.geometry())
    assert checked >= 4
