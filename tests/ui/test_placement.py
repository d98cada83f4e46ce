"""Where the plane's labels go, as pure geometry: a label takes its first place that covers no
label already placed and crosses no arrow, stays inside the plot, and an optional one (a
contour value) is left out where it fits nowhere clear."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app.ui.panels.playground.placement import (
    Label,
    _clear,
    along,
    around,
    beside,
    crosses,
    inside,
    overlaps,
    place,
)

BOUNDS = ((-4.0, 4.0), (-4.0, 4.0))
SIZE = (1.0, 0.5)


def test_rectangles_and_segments() -> None:
    assert overlaps((0, 0, 1, 1), (0.5, 0.5, 1, 1))
    assert not overlaps((0, 0, 1, 1), (1, 0, 1, 1))  # sharing an edge is not covering
    assert crosses((0, 0, 1, 1), (-1, 0.5, 2, 0.5))  # straight through
    assert crosses((0, 0, 1, 1), (0.5, 0.5, 0.5, 0.5))  # a point inside
    assert not crosses((0, 0, 1, 1), (-1, 2, 2, 2))  # above it
    assert not crosses((0, 0, 1, 1), (2, -1, 3, 3))  # beside it


def test_a_label_sits_beside_its_point_facing_it_and_slides_back_inside() -> None:
    right = beside(1.0, 1.0, 0.0, SIZE, 0.25)
    assert right == pytest.approx((1.25, 0.75, 1.0, 0.5))
    above = beside(1.0, 1.0, math.pi / 2, SIZE, 0.25)
    assert above == pytest.approx((0.5, 1.25, 1.0, 0.5))
    assert inside((3.8, 3.9, 1.0, 0.5), BOUNDS) == pytest.approx((3.0, 3.5, 1.0, 0.5))
    first, *rest = around(3.9, 0.0, 0.0, SIZE, 0.25, BOUNDS)
    assert first[0] + first[2] <= 4.0 and len(rest) > 30
    assert along(0, 0, 0.0, SIZE, [0.5, 1.0], BOUNDS)[1][0] == pytest.approx(1.0)


def test_labels_avoid_each_other_then_arrows_and_optional_ones_give_way() -> None:
    tip = (2.0, 2.0)
    arrow = (0.0, 0.0, *tip)
    first = Label(around(*tip, math.pi / 4, SIZE, 0.2, BOUNDS))
    second = Label(around(*tip, math.pi / 4, SIZE, 0.2, BOUNDS))  # the same point: a key on q
    blocked = Label(((1.0, 1.0, 1.0, 0.5),), required=False)  # on the arrow, nowhere else
    a, b, c = place([first, second, blocked], [arrow])
    assert a == first.candidates[0]  # outward and clear: the first choice
    assert b is not None and not overlaps(a, b) and not crosses(b, arrow)
    assert c is None
    crowded = Label(((0.0, 3.0, 1.0, 0.5),))
    only, = place([crowded], [], placed=[(0.0, 3.0, 1.0, 0.5)])
    assert only == crowded.candidates[0]  # a required label is shown even where it must cover


def test_the_clearance_check_says_what_overlaps_and_the_padded_crosses_say() -> None:
    """Placement asks `_clear` of every candidate at every drag step, in plain loops over
    `overlaps` and `crosses` on the rectangle padded by `pad`; on many random rectangles,
    labels and shafts (axis-parallel ones and points included) it must say exactly that."""
    rng = np.random.default_rng(7)
    for _ in range(3000):
        rect = tuple(rng.uniform(-2, 2, 2)) + tuple(rng.uniform(0.1, 1.5, 2))
        taken = [tuple(rng.uniform(-2, 2, 2)) + tuple(rng.uniform(0.1, 1.5, 2))
                 for _ in range(rng.integers(0, 3))]
        shafts = [tuple(rng.choice([0.0, 0.5, *rng.uniform(-3, 3, 2)], 4))
                  for _ in range(rng.integers(0, 4))]
        pad = float(rng.choice([0.0, 0.05, 0.3]))
        free = not any(overlaps(rect, other) for other in taken)
        wide = (rect[0] - pad, rect[1] - pad, rect[2] + 2 * pad, rect[3] + 2 * pad)
        expected = (free, free and not any(crosses(wide, shaft) for shaft in shafts))
        assert _clear(rect, taken, shafts, pad) == expected


def test_the_candidates_read_in_order_are_those_read_one_by_one() -> None:
    """A drag step reads the candidates around a point in order, worked out inline; each
    must be the rectangle `inside(beside(...))` gives for its side and gap, as reading one
    by index gives it, near the plot's edges (slid back) too."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        x, y = rng.uniform(-5, 5, 2)
        size = tuple(rng.uniform(0.2, 3.0, 2))
        candidates = around(x, y, rng.uniform(-math.pi, math.pi), size,
                            rng.uniform(0.05, 0.6), BOUNDS)
        in_order = list(candidates)
        assert len(in_order) == len(candidates)
        for index, rect in enumerate(in_order):
            assert rect == candidates[index]  # the same arithmetic: the same floats
            (x_low, x_high), _ = BOUNDS
            assert rect[2] > x_high - x_low or x_low <= rect[0] <= x_high - rect[2] + 1e-12
