"""Owns the numbers a drag step shows in the teaching view, for the benchmark's reference and
peer: both redraw the same edits as the app, so their times compare with its drag step.

The view is the 4-D teaching world's: a 5×5 score matrix, the selected pair's four terms
q_i·k_i and the sum written out. Each step moves one key by the app's drag tick, so one
column of scores changes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

T, D = 5, 4
KEY = 2
"""The dragged key; the selected pair is (query 0, this key)."""
QUERY = 0
TICK = 0.1
SEED = 7


@dataclass(frozen=True)
class Frame:
    """What one step shows: the scores, the cells whose score changed, the pair's terms and
    the equation's text."""

    scores: np.ndarray
    changed: list[tuple[int, int]]
    terms: np.ndarray
    equation: str


class TeachingDrag:
    """Deterministic drag steps (never back to the previous value, like the app's)."""

    def __init__(self) -> None:
        rng = np.random.default_rng(SEED)
        self.q = rng.normal(size=(T, D))
        self.k = rng.normal(size=(T, D))
        self._base = self.k[KEY].copy()
        self._pattern = np.resize(np.array([1.0, -1.0]), D)
        self._count = 0
        self.scores = self.q @ self.k.T

    def frame(self) -> Frame:
        """The current numbers, every cell counted as changed (a first paint)."""
        cells = [(row, col) for row in range(T) for col in range(T)]
        return self._frame(cells)

    def step(self) -> Frame:
        """Move the key one tick and return what changed."""
        self.k[KEY] = self._base + TICK * (self._count % 20 - 10) * self._pattern
        self._count += 1
        previous, self.scores = self.scores, self.q @ self.k.T
        rows, cols = np.nonzero(previous != self.scores)
        return self._frame(list(zip(rows.tolist(), cols.tolist(), strict=True)))

    def _frame(self, changed: list[tuple[int, int]]) -> Frame:
        terms = self.q[QUERY] * self.k[KEY]
        pairs = zip(self.q[QUERY], self.k[KEY], strict=True)
        written = " + ".join(f"{a:.2f}×{b:.2f}" for a, b in pairs)
        return Frame(self.scores, changed, terms, f"q·k = {written} = {terms.sum():.2f}")
