"""Owns why two scorers rank two keys oppositely, as numbers a panel can put into words.

Along one query row |q| is the same for every key, so q·k = |q|·|k|·cos θ orders keys by
|k|·cos θ. Cosine drops |k|; negative distance −|q−k| = −√(|q|² + |k|² − 2q·k) charges |k|²
against the key. Every disagreement with the dot product is therefore a story about |k|,
and the ratio of the two keys' lengths is the number that tells it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from app.model.scoring.breakdown import Swap, disagreements

__all__ = [
    "COMPARED",
    "ReasonKind",
    "RowReasons",
    "SwapReason",
    "explain_row",
    "explain_swap",
    "explain_swaps",
    "key_norms",
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


def _value(row: Any, key: int, name: str) -> float:
    """One computed score as a float; a masked (undefined) score has no place in a swap."""
    value = row[key]
    if value is None or value is np.ma.masked:
        raise ValueError(f"the {name} score of key {key} is undefined, so it is not a swap")
    return float(value)


def explain_swap(swap: Swap, other: str, dot_row: Any, other_row: Any,
                 norms: Any) -> SwapReason:
    """The reason for one swap between q·k and `other` ("cosine" or "neg_euclidean").

    Winner, loser and every quoted score are read from the rows the model computed
    (`dot_row`, `other_row`: one query's scores against every key), never recomputed: a
    second float path can break a tie the other way and contradict the table. `norms` are
    the keys' |k|, as the table shows them.
    """
    if other not in COMPARED:
        raise ValueError(f"no reason is defined for dot against {other!r}")
    a, b = swap.key_a, swap.key_b
    dots = {j: _value(dot_row, j, "dot") for j in (a, b)}
    if dots[a] == dots[b]:
        raise ValueError(f"keys {a} and {b} tie on q·k, so they are not a swap")
    winner, loser = (a, b) if dots[a] > dots[b] else (b, a)
    others = {j: _value(other_row, j, other) for j in (a, b)}
    if not others[loser] > others[winner]:
        raise ValueError(f"keys {a} and {b} are in the same order under {other}, "
                         "so they are not a swap")
    norm_w, norm_l = float(norms[winner]), float(norms[loser])
    if norm_l == 0.0:
        kind: ReasonKind = "zero_length"
        ratio = math.inf
    elif norm_w >= norm_l or other == "neg_euclidean" or norm_w == 0.0:
        # −|q−k|² = 2q·k − |q|² − |k|²: a dot winner that loses the distance is the longer
        # key. Only rounding of two near-equal lengths can say otherwise; the ratio is then 1.
        kind, ratio = "longer", max(norm_w / norm_l, 1.0)
    else:
        kind, ratio = "shorter", norm_l / norm_w
    return SwapReason(
        other=other,
        kind=kind,
        dot_winner=winner,
        other_winner=loser,
        ratio=ratio,
        dot=(dots[winner], dots[loser]),
        other_scores=(others[winner], others[loser]),
        norms=(norm_w, norm_l),
    )


def plain_row(row: Any) -> list[float | None]:
    """One query's scores as Python floats, None where one is masked (undefined): the same
    numbers, read from the array once instead of one masked lookup per key and swap."""
    masked = np.ma.getmaskarray(row).tolist()
    values = np.asarray(np.ma.getdata(row), dtype=np.float64).tolist()
    return [None if hidden else value for value, hidden in zip(values, masked, strict=True)]


def explain_swaps(swaps: Iterable[Swap], other: str, dot_row: Any, other_row: Any,
                  norms: Any) -> tuple[SwapReason, ...]:
    """One reason per swap, in the order given (view.swaps is sorted by key)."""
    swaps = tuple(swaps)
    if not swaps:
        return ()
    dots, others, lengths = plain_row(dot_row), plain_row(other_row), np.asarray(norms).tolist()
    return tuple(explain_swap(swap, other, dots, others, lengths) for swap in swaps)


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


def key_norms(K: Any) -> np.ndarray:
    """Each key's |k| (read-only), the one set of lengths the reasons and the table quote.

    Scaled by each row's largest entry first, so a key of subnormal entries (which cosine
    still scores) never comes out as length 0, which would make it a "zero_length" key.
    """
    K = np.asarray(K, dtype=np.float64)
    if not len(K):
        norms = np.zeros(0)
    else:
        top = np.abs(K).max(axis=1, initial=0.0)
        scaled = K / np.where(top > 0, top, 1.0)[:, None]
        norms = top * np.sqrt(np.einsum("ij,ij->i", scaled, scaled))
    norms.setflags(write=False)
    return norms


def explain_row(K: Any, rows: Mapping[str, Any]) -> RowReasons:
    """Reasons for every swap of q·k against each scorer in COMPARED that `rows` holds.

    `rows` maps scorer names to one query's computed scores ("dot" is required); the swaps
    are found in those same rows, so a reason can never meet a tie its swap did not see.
    """
    norms = key_norms(K)
    dot_row = rows["dot"]
    reasons = tuple(
        reason
        for other in COMPARED if other in rows
        for reason in explain_swaps(disagreements(dot_row, rows[other]), other,
                                    dot_row, rows[other], norms)
    )
    return RowReasons(norms=norms, reasons=reasons)
