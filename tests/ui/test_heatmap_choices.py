"""The heatmap's lesson choices through real widgets: weights follow the selected scorer, the
length of q sharpens the dot product's weights but not cosine's, and the teaching world's
rows compared before projection (the embeddings' cosine) and after (Q·Kᵀ)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from app.i18n import tr
from app.model.lesson.scenes import load_scenes
from app.model.state import Q_SCALES
from app.ui.panels.heatmap.panel import HeatmapPanel
from app.ui.widgets.stage_text import WORD_JOINER


@pytest.fixture
def panel(open_panel):
    panel = open_panel(HeatmapPanel, (560, 640))
    yield panel
    panel.worker.shutdown()


def click(qtbot, panel, widget) -> None:
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def slide_to(qtbot, panel, scale: float) -> None:
    """Move the q-length slider with the keyboard, as a student would."""
    slider = panel.choices.slider
    slider.setFocus()
    while Q_SCALES[slider.value()] != scale:
        key = Qt.Key.Key_Right if Q_SCALES[slider.value()] < scale else Qt.Key.Key_Left
        with qtbot.waitSignal(panel.document.changed, timeout=2000):
            qtbot.keyClick(slider, key)


def row_weights(panel) -> np.ndarray:
    """The selected query's row as the cell grid shows it (percent)."""
    return np.asarray(panel.cells.grid.values)[panel.document.state.query]


def test_the_length_of_q_shows_only_with_weights_and_says_whose_subject_it_is(qtbot, panel):
    choices = panel.choices
    assert not choices.slider.isVisible() and not choices.note.isVisible()
    click(qtbot, panel, panel.weights_button)
    assert choices.slider.isVisible() and choices.note.isVisible()
    lesson = load_scenes(data=panel.document.data).lesson_numbers["weights"]
    assert choices.note.text() == tr("heatmap.weights_note", lesson=lesson)


def test_a_longer_q_sharpens_the_dot_products_weights(qtbot, panel):
    document = panel.document
    document.set_scorer("dot")
    click(qtbot, panel, panel.weights_button)
    before = row_weights(panel).max()
    np.testing.assert_array_equal(panel.cells.grid.values, 100 * document.view.weights)
    slide_to(qtbot, panel, 4.0)
    assert document.state.options.q_scale == 4.0
    assert panel.choices.value_label.text() == "×4"
    assert row_weights(panel).max() > before + 20  # percent: one key takes over
    assert "4q[" in panel.readout.text()  # q with its token: 4q[给了], no underscore
    document.undo_stack.undo()  # the whole slide is undone step by step, one per stop
    assert document.state.options.q_scale == 2.0


def test_a_longer_q_leaves_cosines_weights_as_they_were(qtbot, panel):
    document = panel.document
    document.set_scorer("cosine")
    click(qtbot, panel, panel.weights_button)
    before = row_weights(panel).copy()
    slide_to(qtbot, panel, 4.0)
    np.testing.assert_allclose(row_weights(panel), before, rtol=0, atol=1e-12)
    assert row_weights(panel).max() < 50  # squeezed into [−1, 1]: no key takes over


def test_weights_follow_the_scorer_chosen(qtbot, panel):
    document = panel.document
    click(qtbot, panel, panel.weights_button)
    shown = {}
    for name in ("scaled_dot", "cosine", "dot"):  # the panel starts on dot: a change first
        with qtbot.waitSignal(document.changed, timeout=2000):
            document.set_scorer(name)
        shown[name] = row_weights(panel).copy()
    assert not np.allclose(shown["dot"], shown["scaled_dot"])
    assert not np.allclose(shown["scaled_dot"], shown["cosine"])


def _read(label) -> str:
    """A label's text as a reader reads it: the word joiners that hold a token's name
    whole on a wrapped line are invisible."""
    return label.text().replace(WORD_JOINER, "")


def test_the_caption_speaks_of_the_highlighted_cell_and_its_computed_score(qtbot, panel):
    document = panel.document
    data = document.data
    state = document.state
    row, col = state.query, state.key
    assert row != col  # the lesson's pair: 给了 against 苹果
    scores = data.teaching.Q @ data.teaching.K.T  # the matrix, computed here again
    order = np.argsort(-scores[row], kind="stable")
    rank = int(np.flatnonzero(order == col)[0]) + 1
    value = panel.cells.grid.labels[row][col]  # the number the highlighted cell prints
    assert value == f"{scores[row, col]:.2f}"
    expected = tr("heatmap.cell_rank", shows=tr("heatmap.shows_qk", scorer=tr("scorer.dot")),
                  token=data.teaching.tokens[row], key=data.teaching.tokens[col],
                  value=value, rank=rank, count=len(scores))
    assert _read(panel.info) == expected
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.select(key=row)  # the query's own cell: the caption says so
    assert _read(panel.info) == tr(
        "heatmap.self_rank", shows=tr("heatmap.shows_qk", scorer=tr("scorer.dot")),
        token=data.teaching.tokens[row], rank=len(scores), count=len(scores))


def test_the_query_ranks_itself_first_by_embeddings_and_last_after_projection(qtbot, panel):
    document, choices = panel.document, panel.choices
    data = document.data
    row, count = document.state.query, len(data.teaching.tokens)
    token = data.teaching.tokens[row]
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.select(key=row)  # the query's own cell
    assert not choices.e_button.isChecked() and choices.e_button.isVisible()
    assert tr("heatmap.self_rank", shows=tr("heatmap.shows_qk", scorer=tr("scorer.dot")),
              token=token, rank=count, count=count) == _read(panel.info)
    click(qtbot, panel, choices.e_button)
    assert document.state.options.heatmap_source == "embeddings"
    E = data.teaching.E
    unit = E / np.linalg.norm(E, axis=1, keepdims=True)
    np.testing.assert_allclose(panel.cells.grid.values, unit @ unit.T, atol=1e-12)
    assert _read(panel.info) == tr("heatmap.self_rank", shows=tr("heatmap.shows_e"),
                                   token=token, rank=1, count=count)
    assert panel.readout.text().startswith(f"cos(e_{token}, e_")
    assert not panel.weights_button.isEnabled()
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.undo_stack.undo()
    assert document.state.options.heatmap_source == "qk"
    assert not choices.e_button.isChecked()


def test_the_dialogue_world_has_no_embeddings_to_compare(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_world("dialogue")
    assert not panel.choices.e_button.isVisible()
