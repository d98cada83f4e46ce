"""The shapes panel's T, dₐ and scale as the document's options (so a scene sets them up and a
scenario keeps them), and its answer kept back: while withheld, no size that answers "how
large is the T×T×dₐ tensor?" is in any of its texts, widgets' or painted; after, they are."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from app.model.errors import ScenarioError
from app.model.lesson.data import load_lesson_data
from app.model.lesson.figures import EXAMPLE
from app.model.memory import additive_intermediate_bytes, score_matrix_bytes
from app.model.scenario import dumps, loads
from app.model.state import MAX_SHAPES_D_A, MAX_SHAPES_T, Options, option_problem
from app.model.view import initial_state
from app.state.document import Document
from app.ui.format import format_bytes, format_number
from app.ui.panels.shapes.panel import ShapesPanel
from tests.ui.legibility import seen_texts

T, D_A = EXAMPLE["rnn_T"], EXAMPLE["additive_d_a"]
"""The lesson's question: how large is the tensor at T = 4,096, dₐ = 256?"""


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


@pytest.fixture
def panel(open_panel):
    return open_panel(ShapesPanel, (1200, 700))


def texts(panel: ShapesPanel) -> str:
    """Everything the panel shows, as one text: its labels' and what it paints (the square's
    and the cube's sizes, the ratio between them)."""
    labels = [label.text() for label in panel.findChildren(QLabel) if label.isVisibleTo(panel)]
    return "\n".join([*labels, *(seen.text for seen in seen_texts(panel))]).replace(
        "\u00a0", " ")


def answers(panel: ShapesPanel) -> list[str]:
    item = panel.itemsize
    additive = additive_intermediate_bytes(T, D_A, item)
    scores = score_matrix_bytes(T, item)
    return [format_bytes(additive), format_bytes(scores), f"× {format_number(additive // scores)}"]


def test_t_d_a_and_the_scale_are_the_documents_options(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_options(shapes_T=T, shapes_d_a=D_A, shapes_scale="anchor")
    assert (panel.T, panel.d_a, panel.d_h) == (T, D_A, panel.anchor.head_dim)
    assert panel.spin.value() == T and panel.d_a_spin.value() == D_A
    assert panel.anchor_button.isChecked() and not panel.lesson_button.isChecked()
    assert panel.numbers["additive"][1].text() == format_bytes(
        additive_intermediate_bytes(T, D_A, panel.itemsize))
    assert panel.diagram.edge_labels()[0] == f"T = {format_number(T)}"


def test_the_controls_edit_through_the_document_one_undo_step_each(qtbot, panel):
    document = panel.document
    panel.d_a_spin.setFocus()
    panel.d_a_spin.selectAll()
    qtbot.keyClicks(panel.d_a_spin, "64")
    qtbot.keyClick(panel.d_a_spin, Qt.Key.Key_Return)
    assert document.state.options.shapes_d_a == 64
    qtbot.mouseClick(panel.anchor_button, Qt.MouseButton.LeftButton,
                     pos=panel.anchor_button.rect().center())
    assert document.state.options.shapes_scale == "anchor"
    assert document.state.options.shapes_T is None  # the anchor's own context
    assert panel.anchor.max_position_embeddings == panel.T
    document.undo_stack.undo()
    assert document.state.options.shapes_scale == "lesson" and panel.d_a == 64
    settle()
    assert panel.lesson_button.isChecked() and panel.lesson_T == panel.T
    document.undo_stack.undo()
    assert document.state.options.shapes_d_a is None and panel.d_a == panel.anchor.head_dim


def test_the_options_are_checked_and_kept_in_a_scenario():
    assert option_problem(replace(Options(), shapes_T=MAX_SHAPES_T + 1))[0] == "shapes_T"
    assert option_problem(replace(Options(), shapes_T=1))[0] == "shapes_T"
    assert option_problem(replace(Options(), shapes_d_a=MAX_SHAPES_D_A + 1))[0] == "shapes_d_a"
    assert option_problem(replace(Options(), shapes_scale="huge"))[0] == "shapes_scale"
    assert option_problem(replace(Options(), shapes_T=T, shapes_d_a=D_A,
                                  shapes_scale="anchor")) is None
    template = initial_state(load_lesson_data())
    state = replace(template, options=replace(template.options, shapes_T=T, shapes_d_a=D_A,
                                              shapes_scale="anchor"))
    text = dumps(state)
    assert loads(text, template) == state
    with pytest.raises(ScenarioError, match=r"options\.shapes_T"):
        loads(text.replace(f'"shapes_T": {T}', '"shapes_T": 2.5'), template)


def test_a_scene_sets_the_panel_up_for_its_question(open_panel):
    """Scene 5's options, as the lesson's scene file gives them: the panel opens at the
    question's T and dₐ, not at the lesson's five tokens."""
    document = Document(load_lesson_data())
    document.set_options(shapes_T=T, shapes_d_a=D_A, shapes_scale="anchor")
    document.flush()
    panel = open_panel(ShapesPanel, (1200, 700), document=document)
    assert (panel.T, panel.d_a) == (T, D_A)
    assert panel.cube.labels.depth == f"dₐ = {format_number(D_A)}"


def test_withheld_no_text_answers_the_question_and_after_every_answer_shows(
        open_panel, on_stage):
    document = Document(load_lesson_data())
    document.set_scorer("additive")
    document.set_options(shapes_T=T, shapes_d_a=D_A, shapes_scale="anchor")
    document.flush()
    panel = open_panel(ShapesPanel, (1024, 650), document=document)
    on_stage(panel, 1.0)
    panel.withhold(True)
    settle()
    shown = texts(panel)
    assert not [answer for answer in answers(panel) if answer in shown], shown
    assert f"T = {format_number(T)}" in shown and f"dₐ = {format_number(D_A)}" in shown
    assert "T × T × dₐ" in shown  # the shapes themselves stay, as symbols
    panel.withhold(False)
    settle()
    shown = texts(panel)
    assert all(answer in shown for answer in answers(panel)), shown
