"""Measuring additive against dot: real numbers, bounded sizes, cancellable between blocks."""

from __future__ import annotations

import tracemalloc

import pytest

from app.model.measure import MAX_D_A, MAX_T, Cancelled, measure


def test_measures_both_scorers_and_the_naive_size() -> None:
    steps: list[tuple[int, int]] = []
    result = measure(128, 32, progress=lambda done, total: steps.append((done, total)))
    assert result.additive.seconds > 0 and result.dot.seconds > 0
    assert result.dot.peak_bytes >= 128 * 128 * 4  # at least its own T × T float32 output
    assert result.additive.peak_bytes > result.dot.peak_bytes
    assert result.memory_ratio == result.additive.peak_bytes / result.dot.peak_bytes
    assert result.time_ratio == result.additive.seconds / result.dot.seconds
    assert result.naive_bytes == 128 * 128 * 32 * 4
    assert [done for done, _ in steps] == sorted(done for done, _ in steps)
    assert steps[-1][0] == steps[-1][1]


def test_cancel_is_honoured_between_blocks() -> None:
    calls = 0

    def cancelled() -> bool:
        nonlocal calls
        calls += 1
        return calls > 1

    with pytest.raises(Cancelled):
        measure(MAX_T, MAX_D_A, cancelled=cancelled)
    assert calls == 2
    assert not tracemalloc.is_tracing()


def test_tracing_started_by_someone_else_is_left_running() -> None:
    tracemalloc.start()
    try:
        measure(16, 4)
        assert tracemalloc.is_tracing()
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("T", "d_a"), [(1, 8), (MAX_T + 1, 8), (64, 0), (64, MAX_D_A + 1),
                                         (64.0, 8), (True, 8)])
def test_out_of_bounds_sizes_are_refused(T: object, d_a: object) -> None:
    with pytest.raises(ValueError):
        measure(T, d_a)  # type: ignore[arg-type]
