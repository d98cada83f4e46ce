"""Round scale ends: they cover the data, stay close to it, and hold still inside a step."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from app.model.nice import SMALLEST_STEP, SNAP_PARTS, HeldRange, nice_step, snap_out

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(finite, finite)
@example(0.0, 5e-324)  # span / parts underflowed to 0: nice_step took log10(0)
@example(-1e-310, 1e-310)  # a subnormal raw step
def test_snapped_range_covers_the_values_and_widens_by_under_two_steps(a, b):
    low, high = min(a, b), max(a, b)
    snapped = snap_out(low, high)
    if high - low <= 0:
        assert snapped == (low, high)
        return
    step = nice_step((high - low) / SNAP_PARTS)
    assert snapped[0] <= low and snapped[1] >= high
    assert (snapped[1] - snapped[0]) - (high - low) < 2 * step * (1 + 1e-9)


def test_round_ranges_stay_and_a_drag_inside_one_step_keeps_the_ends():
    assert snap_out(-5.0, 5.0) == (-5.0, 5.0)
    assert snap_out(0.0, 3.76) == (0.0, 4.0)
    assert snap_out(0.0, 3.61) == snap_out(0.0, 3.99)  # 0.4 steps: the bar holds still


@given(st.floats(min_value=1e-6, max_value=1e9))
def test_steps_are_one_two_two_and_a_half_or_five_times_a_power_of_ten(raw):
    step = nice_step(raw)
    assert step >= raw * (1 - 1e-9) and step < 5 * raw
    mantissa = step / 10.0 ** math.floor(math.log10(step) + 1e-12)
    assert any(math.isclose(mantissa, m, rel_tol=1e-9) for m in (1.0, 2.0, 2.5, 5.0, 10.0))


def test_a_step_that_underflowed_gets_the_finest_step_and_a_bad_one_is_named():
    assert nice_step(0.0) == SMALLEST_STEP
    assert nice_step(5e-325) == SMALLEST_STEP
    assert snap_out(0.0, 5e-324) == (0.0, 5e-324)
    for bad in (-1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="step"):
            nice_step(bad)


def test_a_held_range_only_widens_and_lets_go_when_released_or_when_its_meaning_changes():
    scale = HeldRange()
    assert scale.fit((-4.0, 4.0), "dot", hold=True) == (-4.0, 4.0)  # nothing held yet
    assert scale.fit((-6.0, 2.0), "dot", hold=True) == (-6.0, 4.0)
    assert scale.fit((-1.0, 1.0), "dot", hold=True) == (-6.0, 4.0)
    assert scale.fit((-1.0, 1.0), "cosine", hold=True) == (-1.0, 1.0)  # another quantity
    assert scale.fit((-0.5, 0.5), "cosine", hold=False) == (-0.5, 0.5)
