"""Owns "measure it here": time and peak memory of additive scoring against the dot product.

Both scorers run on the same random Q and K (T × d_a, float32) in blocks of query rows, so a
cancel request is honoured between blocks and the progress can be reported. The additive
blocks materialise rows × T × d_a, exactly what the naive formula does, bounded by a chunk
size; the dot product needs nothing beyond its T × T output. Peak memory comes from
tracemalloc, which sees NumPy's buffers.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from app.model.errors import AttentionLabError
from app.model.scoring.additive import AdditiveWeights, additive_matrix, naive_intermediate_bytes

__all__ = [
    "CHUNK_BYTES",
    "DTYPE",
    "MAX_D_A",
    "MAX_T",
    "MIN_T",
    "RUNS",
    "Cancelled",
    "Comparison",
    "Measurement",
    "Repeated",
    "measure",
    "measure_repeated",
]

MIN_T, MAX_T = 2, 4096
MAX_D_A = 256
"""Bounds that keep a run to a few hundred MiB (the additive blocks never hold more than
CHUNK_BYTES, so the lesson's T = 4,096, dₐ = 256 never builds its 8 GiB tensor) and to
seconds, or about twenty at that largest size, on a student laptop."""

DTYPE = np.float32
CHUNK_BYTES = 64 * 1024 * 1024
"""The largest rows × T × d_a block the additive scorer holds at once."""

RUNS = 5
"""Runs per measurement: one run on a shared machine can be off by 20× (12×, 21×, 44× and
259× came out of four single runs), the median of five is not."""

Progress = Callable[[int, int], None]
Clock = Callable[[], float]


class Cancelled(AttentionLabError):
    """The user stopped the measurement; nothing was measured."""


@dataclass(frozen=True)
class Measurement:
    """Wall-clock seconds and the tracemalloc peak (bytes above the start) of one scorer."""

    seconds: float
    peak_bytes: int


@dataclass(frozen=True)
class Comparison:
    """Both scorers on the same input, and what holding every pair at once would cost."""

    T: int
    d_a: int
    additive: Measurement
    dot: Measurement
    naive_bytes: int  # the full T × T × d_a tensor in this dtype, never allocated here

    @property
    def time_ratio(self) -> float:
        return self.additive.seconds / max(self.dot.seconds, 1e-9)

    @property
    def memory_ratio(self) -> float:
        return self.additive.peak_bytes / max(self.dot.peak_bytes, 1)


def _check(T: int, d_a: int) -> None:
    for name, value, low, high in (("T", T, MIN_T, MAX_T), ("d_a", d_a, 1, MAX_D_A)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        if not low <= value <= high:
            raise ValueError(f"{name} must be between {low} and {high}, got {value}")


def _rows_per_block(T: int, d_a: int) -> int:
    per_row = T * d_a * np.dtype(DTYPE).itemsize
    return max(1, min(T, CHUNK_BYTES // per_row))


def _run(T: int, blocks: list[tuple[int, int]], work: Callable[[np.ndarray, int, int], None],
         step: Callable[[], None], clock: Clock) -> Measurement:
    """Time `work` over all row blocks, T × T output included, and record the memory peak."""
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    start = clock()
    out = np.empty((T, T), dtype=DTYPE)
    for r0, r1 in blocks:
        step()
        work(out, r0, r1)
    seconds = clock() - start
    peak = tracemalloc.get_traced_memory()[1] - base
    return Measurement(seconds=seconds, peak_bytes=max(0, peak))


def measure(T: int, d_a: int, cancelled: Callable[[], bool] = lambda: False,
            progress: Progress | None = None, seed: int = 0,
            clock: Clock = time.perf_counter) -> Comparison:
    """Score a T-token sequence both ways and compare; raises Cancelled between blocks.
    `clock` is injectable so a test can hand it known times."""
    _check(T, d_a)
    rng = np.random.default_rng(seed)
    Q = rng.standard_normal((T, d_a)).astype(DTYPE)
    K = rng.standard_normal((T, d_a)).astype(DTYPE)
    scale = 1.0 / np.sqrt(d_a)
    weights = AdditiveWeights(
        W1=rng.standard_normal((d_a, d_a)) * scale,
        W2=rng.standard_normal((d_a, d_a)) * scale,
        v=rng.standard_normal(d_a) * scale,
    )
    rows = _rows_per_block(T, d_a)
    blocks = [(r0, min(r0 + rows, T)) for r0 in range(0, T, rows)]
    total = 2 * len(blocks)
    done = 0

    def step() -> None:
        nonlocal done
        if cancelled():
            raise Cancelled("measurement cancelled")
        if progress is not None:
            progress(done, total)
        done += 1

    def additive_block(out: np.ndarray, r0: int, r1: int) -> None:
        out[r0:r1] = additive_matrix(Q[r0:r1], K, weights, max_chunk_bytes=CHUNK_BYTES)

    def dot_block(out: np.ndarray, r0: int, r1: int) -> None:
        np.matmul(Q[r0:r1], K.T, out=out[r0:r1])

    started_here = not tracemalloc.is_tracing()
    if started_here:
        tracemalloc.start()
    try:
        additive = _run(T, blocks, additive_block, step, clock)
        dot = _run(T, blocks, dot_block, step, clock)
    finally:
        if started_here:
            tracemalloc.stop()
    if cancelled():
        raise Cancelled("measurement cancelled")
    if progress is not None:
        progress(total, total)
    return Comparison(
        T=T,
        d_a=d_a,
        additive=additive,
        dot=dot,
        naive_bytes=naive_intermediate_bytes(T, T, d_a, np.dtype(DTYPE).itemsize),
    )


@dataclass(frozen=True)
class Repeated:
    """The same comparison run several times: the median says what this machine does, the
    spread how far one run can stray from it."""

    runs: tuple[Comparison, ...]

    @property
    def T(self) -> int:
        return self.runs[0].T

    @property
    def d_a(self) -> int:
        return self.runs[0].d_a

    @property
    def naive_bytes(self) -> int:
        return self.runs[0].naive_bytes

    @property
    def time_ratios(self) -> tuple[float, ...]:
        return tuple(run.time_ratio for run in self.runs)

    def median(self, value: Callable[[Comparison], float]) -> float:
        return float(statistics.median(value(run) for run in self.runs))

    def spread(self, value: Callable[[Comparison], float]) -> tuple[float, float]:
        """(lowest, highest) over the runs."""
        values = [value(run) for run in self.runs]
        return min(values), max(values)

    @property
    def time_ratio(self) -> float:
        """The ratio of the two median times the table shows, so a student who divides them
        gets this number (the median of the runs' own ratios can differ)."""
        return (self.median(lambda run: run.additive.seconds)
                / max(self.median(lambda run: run.dot.seconds), 1e-9))

    @property
    def memory_ratio(self) -> float:
        return (self.median(lambda run: run.additive.peak_bytes)
                / max(self.median(lambda run: run.dot.peak_bytes), 1))


def measure_repeated(T: int, d_a: int, runs: int = RUNS,
                     cancelled: Callable[[], bool] = lambda: False,
                     progress: Progress | None = None, seed: int = 0,
                     clock: Clock = time.perf_counter) -> Repeated:
    """`runs` measurements on the same input, one after another. Progress counts the blocks
    of every run, so done · runs // total is the number of runs finished."""
    _check(T, d_a)
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise ValueError(f"runs must be a whole number ≥ 1, got {runs!r}")
    results: list[Comparison] = []
    for index in range(runs):

        def part(done: int, total: int, index: int = index) -> None:
            if progress is not None:
                progress(index * total + done, runs * total)

        results.append(measure(T, d_a, cancelled=cancelled, progress=part, seed=seed,
                               clock=clock))
    return Repeated(tuple(results))
