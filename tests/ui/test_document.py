"""The document: one recompute per burst of edits, exact undo, one undo step per drag."""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace

import numpy as np
import pytest

from app.model.lesson.data import load_lesson_data
from app.model.view import compute_view, initial_state
from app.state.document import Document


@pytest.fixture
def document(qtbot):
    document = Document(load_lesson_data())
    yield document
    document.shutdown()  # no job of this test runs on into a later test's collection


def test_edits_in_one_turn_coalesce_into_one_recompute(qtbot, document):
    before = document.recompute_count
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", 3, [1.0, 2.0, 3.0, 4.0])
        document.set_vector("k", 2, [0.5, 0.5, 0.5, 0.5])
        document.select(key=1)
    assert document.recompute_count == before + 1
    assert np.allclose(document.view.q[3], [1, 2, 3, 4])
    assert document.view.pair.total == pytest.approx(np.dot([1, 2, 3, 4], document.view.k[1]))


def test_undo_restores_exact_previous_values(qtbot, document):
    original = document.state
    document.set_vector("k", 0, [9.0, 9.0, 9.0, 9.0])
    assert document.state != original
    document.undo_stack.undo()
    assert document.state == original
    document.undo_stack.redo()
    assert np.array_equal(document.state.teaching_k[0], [9, 9, 9, 9])


def test_a_drag_is_one_undo_step(qtbot, document):
    original = document.state
    document.begin_drag()
    for step in range(10):
        document.set_vector("q", 3, [step, 0.0, 0.0, 0.0])
    document.end_drag()
    document.set_vector("q", 3, [5.0, 5.0, 5.0, 5.0])
    assert document.undo_stack.count() == 2
    document.undo_stack.undo()
    assert np.array_equal(document.state.teaching_q[3], [9, 0, 0, 0])
    document.undo_stack.undo()
    assert document.state == original


@pytest.mark.parametrize("bad", [[np.nan, 0, 0, 0], [np.inf, 0, 0, 0], "text", [1, 2]])
def test_bad_vector_input_changes_nothing_and_says_why(qtbot, document, bad):
    original = document.state
    with qtbot.waitSignal(document.notice, timeout=1000) as message:
        assert not document.set_vector("q", 3, bad)
    assert message.args[0]
    assert document.state == original
    assert document.undo_stack.count() == 0


def test_huge_input_is_clamped_with_a_note(qtbot, document):
    with qtbot.waitSignal(document.notice, timeout=1000):
        document.set_vector("q", 3, [1e308, 0, 0, 0])
    assert document.state.teaching_q[3][0] == 100.0


def test_reset_to_lesson_is_undoable(qtbot, document):
    document.set_world("dialogue")
    document.set_vector("q", 0, [1.0, 1.0])
    edited = document.state
    document.reset_to_lesson()
    assert document.state == initial_state(document.data)
    document.undo_stack.undo()
    assert document.state == edited


def test_view_equals_a_from_scratch_recompute(qtbot, document):
    document.set_scorer("cosine")
    document.set_options(causal=True, heads=2)
    fresh = compute_view(document.state, document.data)
    shown = document.view
    assert np.array_equal(shown.weights, fresh.weights)
    assert len(shown.heads) == 2
    assert np.array_equal(shown.active.filled(0), fresh.active.filled(0))


def test_selecting_is_not_an_undo_step_and_keeps_redo(qtbot, document):
    document.set_vector("k", 0, [9.0, 9.0, 9.0, 9.0])
    document.undo_stack.undo()
    assert document.undo_stack.canRedo()
    steps = document.undo_stack.count()
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.select(query=0, key=2)
    assert (document.state.query, document.state.key) == (0, 2)
    assert document.undo_stack.count() == steps and document.undo_stack.canRedo()
    document.undo_stack.redo()
    assert np.array_equal(document.state.teaching_k[0], [9, 9, 9, 9])
    assert (document.state.query, document.state.key) == (0, 2)  # redo keeps the selection


def test_undoing_an_edit_keeps_the_selected_pair(qtbot, document):
    original = document.state
    document.set_vector("q", 3, [1.0, 2.0, 3.0, 4.0])
    document.select(query=1, key=4)
    document.undo_stack.undo()
    assert np.array_equal(document.state.teaching_q, original.teaching_q)
    assert (document.state.query, document.state.key) == (1, 4)
    assert not document.undo_stack.canUndo()  # the selection left nothing to undo


def test_undoing_a_world_switch_brings_back_that_worlds_pair(qtbot, document):
    document.select(query=1, key=4)
    document.set_world("dialogue")
    document.select(key=0)
    document.undo_stack.undo()
    assert document.state.world == "teaching"
    assert (document.state.query, document.state.key) == (1, 4)


def test_an_opened_state_keeps_its_own_pair(qtbot, document):
    opened = replace(document.state, query=0, key=1)
    document.select(query=2, key=3)
    document.load_state(opened)
    assert (document.state.query, document.state.key) == (0, 1)


def _imported(document: Document, count: int = 300) -> None:
    from app.model.capture import capture_from_arrays

    rng = np.random.default_rng(3)
    arrays = {"q": rng.standard_normal((count, 8)).astype(np.float32),
              "k": rng.standard_normal((count, 8)).astype(np.float32)}
    document.import_capture(capture_from_arrays(arrays, [f"w{i}" for i in range(count)]))
    document.finish_import()
    document.flush()


def test_a_drag_keeps_no_steps_vectors_but_its_first_and_last(qtbot, document):
    """Every step of a drag on an import builds its own matrix of vectors; once merged into
    the drag's one undo step, the steps in between are let go (a minute's drag on a
    4,096-token import kept gigabytes)."""
    _imported(document)
    before = document.state.imported
    document.begin_drag()
    steps = []
    for step in range(12):
        document.set_vector("k", 0, np.full(8, 0.1 * step))
        document.flush()
        steps.append(weakref.ref(document.state.imported))
    document.end_drag()
    gc.collect()
    assert [step() is not None for step in steps] == [False] * 11 + [True]
    document.undo_stack.undo()
    document.flush()
    assert document.state.imported == before
    document.undo_stack.redo()
    document.flush()
    assert np.array_equal(document.state.imported.keys[0], np.full(8, 1.1, np.float32))

