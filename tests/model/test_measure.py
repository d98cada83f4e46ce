"""Measuring additive against dot: real numbers, bounded sizes, cancellable between blocks."""

from __future__ import annotations

import tracemalloc

import pytest

from app.model.measure import MAX_D_A, MAX_T, Cancelled, measure, measure_repeated


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


def _clock(durations: list[tuple[float, float]]):
    """A clock that makes run i's additive pass take durations[i][0] seconds and its dot
    pass durations[i][1]: each pass reads the clock once at its start and once at its end."""
    ticks, now = [], 0.0
    for additive, dot in durations:
        for length in (additive, dot):
            ticks += [now, now + length]
            now += length + 1.0
    return iter(ticks).__next__


def test_repeated_runs_report_the_median_and_the_spread_of_the_ratio() -> None:
    durations = [(12.0, 1.0), (21.0, 1.0), (44.0, 1.0), (259.0, 1.0), (30.0, 1.0)]
    result = measure_repeated(16, 4, runs=5, clock=_clock(durations))
    assert len(result.runs) == 5
    assert result.time_ratios == pytest.approx((12.0, 21.0, 44.0, 259.0, 30.0))
    assert result.time_ratio == pytest.approx(30.0)  # the medians' ratio, not the mean (73.2)
    assert result.spread(lambda run: run.time_ratio) == pytest.approx((12.0, 259.0))
    assert result.median(lambda run: run.additive.seconds) == pytest.approx(30.0)
    assert (result.T, result.d_a, result.naive_bytes) == (16, 4, 16 * 16 * 4 * 4)


def test_repeated_progress_counts_runs_done() -> None:
    steps: list[tuple[int, int]] = []
    measure_repeated(16, 4, runs=3, progress=lambda done, total: steps.append((done, total)))
    total = steps[-1][1]
    assert steps[-1] == (total, total) and total % 3 == 0
    assert [done for done, _ in steps] == sorted(done for done, _ in steps)
    finished = sorted({done * 3 // total for done, _ in steps})
    assert finished == [0, 1, 2, 3]


def test_a_cancel_in_any_run_stops_the_whole_measurement() -> None:
    calls = 0

    def cancelled() -> bool:
        nonlocal calls
        calls += 1
        return calls > 10

    with pytest.raises(Cancelled):
        measure_repeated(64, 8, runs=50, cancelled=cancelled)
    assert calls == 11


@pytest.mark.parametrize("runs", [0, -1, 2.0, True])
def test_a_run_count_below_one_is_refused(runs: object) -> None:
    with pytest.raises(ValueError):
        measure_repeated(16, 4, runs=runs)  # type: ignore[arg-type]


def test_the_reported_ratio_is_the_ratio_of_the_medians_the_table_shows() -> None:
    """The runs' own ratios are 10, 20 and 6 (median 10); the table shows 30 s and 2 s."""
    result = measure_repeated(16, 4, runs=3, clock=_clock([(10.0, 1.0), (40.0, 2.0),
                                                           (30.0, 5.0)]))
    assert result.median(lambda run: run.additive.seconds) == pytest.approx(30.0)
    assert result.median(lambda run: run.dot.seconds) == pytest.approx(2.0)
    assert result.time_ratio == pytest.approx(15.0)
