"""Owns the benchmark's records: timed samples, their median and p95, and the targets.

`python3 dev.py bench` (`python -m bench`, see `bench.run`) fills these from six measurements:
UI latency through the real main window (beside a plain QPainter reference and a matplotlib
peer), model speed against bare NumPy, start-up in a subprocess beside a bare window,
additive against dot-product scoring in time and peak memory, the class's poll with
simulated phones on loopback, and real-sized checkpoints (full run only).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["SECTIONS", "Result", "Target", "p95", "time_interleaved"]

SECTIONS = ("start-up", "model", "additive", "ui", "poll", "checkpoint")
"""The benchmark's sections, in the order they run (`--only` picks one)."""


def p95(samples: list[float]) -> float:
    """The 95th percentile, linearly interpolated (NumPy's default), so 20 samples suffice."""
    ordered = sorted(samples)
    if not ordered:
        return math.nan
    position = 0.95 * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass
class Result:
    """One measured row: what, at which size, its samples (ms) and anything else it reports."""

    group: str
    name: str
    size: str
    samples_ms: list[float]
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ms) if self.samples_ms else math.nan

    @property
    def p95_ms(self) -> float:
        return p95(self.samples_ms)

    def to_json(self) -> dict[str, object]:
        return {
            "group": self.group,
            "name": self.name,
            "size": self.size,
            "runs": len(self.samples_ms),
            "median_ms": self.median_ms,
            "p95_ms": self.p95_ms,
            "samples_ms": self.samples_ms,
            **self.extra,
        }


@dataclass
class Target:
    """A stated goal `value ≤ limit` (`value ≥ limit` when `at_least`), most of them a ratio
    to a reference measured in the same run; `value` is None when this run did not measure
    it. `reference` names what the value was divided by, `reference_ms` its time."""

    key: str
    text: str
    limit: float
    unit: str
    value: float | None = None
    reference: str | None = None
    reference_ms: float | None = None
    at_least: bool = False

    @property
    def met(self) -> bool | None:
        if self.value is None or math.isnan(self.value):
            return None
        return self.value >= self.limit if self.at_least else self.value <= self.limit

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "text": self.text,
            "limit": self.limit,
            "unit": self.unit,
            "direction": "at least" if self.at_least else "at most",
            "value": self.value,
            "reference": self.reference,
            "reference_ms": self.reference_ms,
            "met": self.met,
        }


def time_interleaved(calls: dict[str, Callable[[], object]], repeat: int,
                     warmup: int = 2) -> dict[str, list[float]]:
    """Milliseconds per call of each function, taking turns so drift hits all of them alike."""
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for round_number in range(warmup + repeat):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            elapsed = (time.perf_counter() - start) * 1000.0
            if round_number >= warmup:
                samples[name].append(elapsed)
    return samples
