"""Owns why two scorers rank two keys oppositely, as numbers a panel can put into words.

Along one query row |q| is the same for every key, so q·k = |q|·|k|·cos θ orders keys by
|k|·cos θ. Cosine drops |k|; negative distance −|q−k| = −√(|q|² + |k|² − 2q·k) charges |k|²
against the key. Every disagreement with the dot product is therefore a story about |k|,
and the ratio of the two keys' lengths is the number that tells it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from app.model.breakdown import Swap, breakdown

__all__ = [
    "COMPARED",
    "ReasonKind",
    "RowReasons",
    "SwapReason",
    "explain_row",
    "explain_swap",
    "explain_swaps",
]

COMPARED: tuple[str, ...] = ("cosine", "neg_euclidean")
"""The scorers whose disagreements with the dot product get a reason."""

ReasonKind = Literal["longer", "shorter", "zero_length"]
"""longer: the dot winner wins only by its greater |k| (cosine) or loses the distance by it;
shorter: both keys point away from q, and the shorter one's negative product is smaller;
zero_length: the key nearer by distance is the zero vector, which has no length to pay for."""


@dataclass(frozen=True)
class SwapReason:
    """Why the dot product and `other` order two keys oppositely (numbers only, no prose).

    `ratio` ≥ 1 is the longer key's |k| over the shorter key's (inf for a zero-length key);
    `dot`, `other_scores` and `norms` are given as (dot_winner, other_winner).
    """

    other: str
    kind: ReasonKind
    dot_winner: int
    other_winner: int
    ratio: float
    dot: tuple[float, float]
    other_scores: tuple[float, float]
    norms: tuple[float, float]

    @property
    def keys(self) -> tuple[int, int]:
        return (self.dot_winner, self.other_winner)


def _other_score(other: str, q: np.ndarray, k: np.ndarray) -> float:
    parts = breakdown(q, k)
    if other == "cosine":
        return float(parts.cos)
    return -float(np.linalg.norm(q - k))


def explain_swap(q: np.ndarray, K: np.ndarray, swap: Swap, other: str) -> SwapReason:
    """The reason for one swap between q·k and `other` ("cosine" or "neg_euclidean")."""
    if other not in COMPARED:
        raise ValueError(f"no reason is defined for dot against {other!r}")
    q = np.asarray(q, dtype=np.float64)
    K = np.asarray(K, dtype=np.float64)
    a, b = swap.key_a, swap.key_b
    dots = {j: float(np.dot(q, K[j])) for j in (a, b)}
    if dots[a] == dots[b]:
        raise ValueError(f"keys {a} and {b} tie on q·k, so they are not a swap")
    winner, loser = (a, b) if dots[a] > dots[b] else (b, a)
    norm_w, norm_l = (float(np.linalg.norm(K[j])) for j in (winner, loser))
    if norm_l == 0.0:
        kind: ReasonKind = "zero_length"
        ratio = math.inf
    elif norm_w >= norm_l:
        kind, ratio = "longer", norm_w / norm_l
    else:
        kind, ratio = "shorter", norm_l / norm_w
    return SwapReason(
        other=other,
        kind=kind,
        dot_winner=winner,
        other_winner=loser,
        ratio=ratio,
        dot=(dots[winner], dots[loser]),
        other_scores=(_other_score(other, q, K[winner]), _other_score(other, q, K[loser])),
        norms=(norm_w, norm_l),
    )


def explain_swaps(q: np.ndarray, K: np.ndarray, swaps: Iterable[Swap],
                  other: str) -> tuple[SwapReason, ...]:
    """One reason per swap, in the order given (view.swaps is sorted by key)."""
    return tuple(explain_swap(q, K, swap, other) for swap in swaps)


@dataclass(frozen=True, eq=False)
class RowReasons:
    """One query row explained: every key's |k| and a reason for each disagreement with q·k.

    `reasons` lists dot-against-cosine swaps first, then dot-against-distance, each by key.
    """

    norms: np.ndarray
    reasons: tuple[SwapReason, ...]

    @property
    def flagged(self) -> frozenset[int]:
        """Keys that take part in at least one disagreement (the rows a table highlights)."""
        return frozenset(key for reason in self.reasons for key in reason.keys)


def explain_row(q: np.ndarray, K: np.ndarray,
                swaps: dict[str, Iterable[Swap]]) -> RowReasons:
    """Reasons for the swaps of q·k against each scorer in COMPARED (missing names: none)."""
    K = np.asarray(K, dtype=np.float64)
    norms = np.linalg.norm(K, axis=1) if len(K) else np.zeros(0)
    norms.setflags(write=False)
    reasons = tuple(reason for other in COMPARED
                    for reason in explain_swaps(q, K, swaps.get(other, ()), other))
    return RowReasons(norms=norms, reasons=reasons)
