"""Owns round numbers for scales people read: contour levels, colour-bar ends, axis ranges.

A scale that ends on a round number reads at a glance, and one snapped to a grid stays put
while a dragged value moves inside a grid step, so the colour bar and axes do not twitch.
"""

from __future__ import annotations

import math

NICE_MANTISSAS = (1.0, 2.0, 2.5, 5.0, 10.0)
"""Steps are 1, 2, 2.5 or 5 times a power of ten."""
SNAP_PARTS = 10
"""`snap_out` rounds to a grid of about a tenth of the range: the ends lose at most ~20 %."""


SMALLEST_STEP = 1e-300
"""The finest step `nice_step` gives: a span that tiny has nothing left to read, and a raw step
that underflowed to 0 (span 5e-324 / 10) or a subnormal has no usable logarithm."""


def nice_step(raw: float) -> float:
    """The smallest round step at least `raw` (raw ≥ 0, finite; at least SMALLEST_STEP)."""
    if not (math.isfinite(raw) and raw >= 0):
        raise ValueError(f"a step must be a finite number ≥ 0, got {raw!r}")
    raw = max(raw, SMALLEST_STEP)
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in NICE_MANTISSAS if m * power >= raw * (1 - 1e-9))


def step_decimals(step: float) -> int:
    """Decimals needed to write multiples of `step` exactly."""
    first = max(0, -math.floor(math.log10(step)))
    return next(d for d in range(first, first + 3) if abs(round(step, d) - step) < step * 1e-6)


def snap_out(low: float, high: float, parts: int = SNAP_PARTS) -> tuple[float, float]:
    """(low, high) widened to the nearest multiples of a round step of about span / parts.

    Values already on the grid stay, so (−5, 5) is kept as it is; a flat or non-finite range
    is returned unchanged.
    """
    span = high - low
    if not (math.isfinite(span) and span > 0):
        return low, high
    step = nice_step(span / parts)
    decimals = step_decimals(step)
    snapped_low = round(math.floor(round(low / step, 9)) * step, decimals)
    snapped_high = round(math.ceil(round(high / step, 9)) * step, decimals)
    return min(snapped_low, low), max(snapped_high, high)  # float error never uncovers


class HeldRange:
    """A scale that holds still through a gesture: while held it only widens to take in new
    ranges; otherwise, or when what it measures changes (`meaning`), it takes each as it is."""

    def __init__(self) -> None:
        self._meaning: object = None
        self._range: tuple[float, float] | None = None

    def fit(self, wanted: tuple[float, float], meaning: object,
            hold: bool) -> tuple[float, float]:
        """The range to show for `wanted`; `hold` is true during a drag."""
        if hold and self._range is not None and meaning == self._meaning:
            wanted = (min(wanted[0], self._range[0]), max(wanted[1], self._range[1]))
        self._meaning, self._range = meaning, wanted
        return wanted
