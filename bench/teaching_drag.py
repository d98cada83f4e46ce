"""Owns the numbers a drag step shows in the teaching view, for the benchmark's reference and
peer: both redraw the same edits as the app, so their times compare with its drag step.

The view is the 4-D teaching world's: a 5×5 score matrix, the selected pair's four terms
q_i·k_i and the sum written out, and, for the reference, the dragged key's four values and
the lines of text the default layout reads out about the pair (`Frame.lines`). Each step
moves one key by the app's drag tick, so one column of scores changes.
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


TOKENS = ("小明", "把", "苹果", "给了", "小王")
"""The teaching world's tokens, which the lines name."""


@dataclass(frozen=True)
class Frame:
    """What one step shows: the scores, the cells whose score changed, the pair's terms and
    the equation's text; the dragged key's values, and the other lines of text that change
    with the pair's score (the sum's second line, the dominant term, the polar form, the
    heatmap's readout and note, the status line)."""

    scores: np.ndarray
    changed: list[tuple[int, int]]
    terms: np.ndarray
    equation: str
    key: np.ndarray
    lines: tuple[str, ...]


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
        q, k = self.q[QUERY], self.k[KEY]
        terms = q * k
        total = float(terms.sum())
        written = " + ".join(f"{a:.2f}×{b:.2f}" for a, b in zip(q, k, strict=True))
        top = int(np.argmax(np.abs(terms)))
        share = abs(terms[top]) / float(np.abs(terms).sum())
        norms = float(np.linalg.norm(q)), float(np.linalg.norm(k))
        cosine = total / (norms[0] * norms[1])
        query, key = TOKENS[QUERY], TOKENS[KEY]
        rank = 1 + int(np.sum(self.scores[QUERY] > self.scores[QUERY, KEY]))
        lines = (
            "= " + " + ".join(f"{term:.2f}" for term in terms) + f" = {total:.2f}",
            f"最大的一项 q{top + 1}k{top + 1} = {terms[top]:.2f}，占所有项绝对值之和的 "
            f"{share:.0%}",
            f"|q| × |k| × cos θ = {norms[0]:.2f} × {norms[1]:.2f} × {cosine:.3f} = {total:.2f}"
            f"  (θ = {np.degrees(np.arccos(np.clip(cosine, -1, 1))):.1f}°)",
            f"q「{query}」·k「{key}」 = {total:.2f}",
            f"投影后的 Q、K，打分方式：点积 q·k。「{query}」这一行里，「{key}」得 {total:.2f}，"
            f"排第 {rank}（共 {T} 个）。",
            f"查询「{query}」→ 键「{key}」  点积 = {total:.2f}",
        )
        return Frame(self.scores, changed, terms, f"q·k = {written} = {total:.2f}", k.copy(),
                     lines)
