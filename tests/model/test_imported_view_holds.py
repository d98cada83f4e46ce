"""An import's view is computed off the UI thread while the class may go on editing: it still
holds for the state the import lands on exactly when that state differs only in the lesson's
worlds, and then it equals a recompute of that state."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from app.model.capture import Capture
from app.model.lesson.data import load_lesson_data
from app.model.view import compute_view, imported_view_holds, initial_state

RNG = np.random.default_rng(11)


def _imported(state, capture: Capture):
    return replace(state, imported=capture, scorer="scaled_dot").with_world(
        "imported", (len(capture.queries) - 1, 0))


def _capture(t: int = 9, d: int = 6) -> Capture:
    names = tuple(f"w{i}" for i in range(t))
    return Capture(RNG.standard_normal((t, d)), RNG.standard_normal((t, d)), names, names,
                   "c.npz")


def test_edits_to_the_lesson_worlds_leave_the_imported_view_as_it_is() -> None:
    data = load_lesson_data()
    capture = _capture()
    start = initial_state(data)
    computed = _imported(start, capture)
    edited = start.with_vector("k", 1, start.teaching_k[1] + 0.5)
    edited = replace(edited.with_world("dialogue"), positions=start.positions + 1)
    landed = _imported(edited, capture)
    assert imported_view_holds(computed, landed)
    before, after = compute_view(computed, data), compute_view(landed, data)
    for name, matrix in after.scores.items():
        np.testing.assert_allclose(before.scores[name], matrix, rtol=0, atol=0)
    np.testing.assert_allclose(before.weights, after.weights, rtol=0, atol=0)
    assert before.query_names == after.query_names and before.embeddings is None


def test_an_option_or_the_scorer_changed_meanwhile_needs_a_new_view() -> None:
    data = load_lesson_data()
    capture = _capture()
    start = initial_state(data)
    computed = _imported(start, capture)
    causal = replace(start, options=replace(start.options, causal=not start.options.causal))
    assert not imported_view_holds(computed, _imported(causal, capture))
    assert not imported_view_holds(computed, replace(computed, scorer="dot"))
    assert not imported_view_holds(computed, _imported(start, _capture()))
