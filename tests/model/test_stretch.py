"""Stretching q for the landscapes: its direction kept, its length a multiple of the lesson's,
exactly for half, once and twice; which multiple a length is."""

from __future__ import annotations

import numpy as np
import pytest

from app.model.stretch import Q_LENGTHS, length_factor, stretched

LESSON = np.array([2.0, 3.0])


@pytest.mark.parametrize("factor", Q_LENGTHS)
def test_the_lessons_q_stretches_exactly_and_back(factor) -> None:
    longer = stretched(LESSON, LESSON, factor)
    assert np.array_equal(longer, factor * LESSON)  # exact: the maps can be compared
    assert length_factor(longer, LESSON) == factor
    assert np.array_equal(stretched(longer, LESSON, 1.0), LESSON)


def test_another_direction_keeps_its_direction_at_the_lessons_length() -> None:
    turned = stretched(np.array([3.0, 0.0]), LESSON, 2.0)
    assert turned == pytest.approx([2 * np.hypot(2, 3), 0.0])
    assert length_factor(np.array([1.0, 1.0]), LESSON) is None


def test_a_zero_vector_has_no_direction_to_stretch() -> None:
    assert stretched(np.zeros(2), LESSON, 2.0) is None
    assert stretched(LESSON, np.zeros(2), 2.0) is None
    assert length_factor(LESSON, np.zeros(2)) is None
