"""Owns the kinds of calculation for one pair, which each scorer's `steps` returns: the steps a
class writes out, from q and k to the very score the model's matrix holds (pure NumPy), so no
panel explains q·k beside another scorer's number."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from app.model.scoring.additive import AdditiveSteps, AdditiveWeights, additive_steps
from app.model.scoring.breakdown import Breakdown, breakdown, dominant_term
from app.model.scoring.qknorm import QKNormWeights, rms_norm
from app.model.scoring.registry import (
    UNDEFINED_ZERO,
    ScorerParams,
    Undefined,
    as_vectors,
    checked_weights,
    get_scorer,
    score_pair,
)


class PairSource(Protocol):
    """What `pair_work` reads of a view (app.model.view.View has all of it)."""

    @property
    def scorer(self) -> str: ...

    @property
    def q(self) -> np.ndarray: ...

    @property
    def k(self) -> np.ndarray: ...

    @property
    def params(self) -> ScorerParams | None: ...

    @property
    def active(self) -> np.ma.MaskedArray: ...

    @property
    def scores(self) -> Mapping[str, np.ma.MaskedArray]: ...

__all__ = [
    "AdditiveWork",
    "CosineWork",
    "DistanceWork",
    "DotWork",
    "NormedWork",
    "SumWork",
    "Worked",
    "additive_work",
    "cosine_work",
    "distance_work",
    "dot_work",
    "normed_work",
    "pair_work",
    "scaled_dot_work",
    "sum_work",
    "worked",
]


ALL_TERMS_ZERO = Undefined("all terms are zero")


@dataclass(frozen=True, eq=False)
class Worked:
    """One pair's score as its scorer computes it. `terms` are the parts of the sum the score
    is built on (the bars a panel draws); `total` is the score itself, the matrix's cell when
    the caller passed it (one number path), else where the steps arrive."""

    scorer: str
    terms: np.ndarray
    total: float | Undefined

    @property
    def dominant(self) -> int:
        """The term of largest magnitude (the first on ties)."""
        return dominant_term(self.terms, ALL_TERMS_ZERO)[0]

    @property
    def dominant_share(self) -> float | Undefined:
        """The dominant term's part of Σ|terms| (Undefined when every term is 0)."""
        return dominant_term(self.terms, ALL_TERMS_ZERO)[1]

    @property
    def reached(self) -> float | Undefined:
        """Where these steps arrive on their own (a test compares it with the matrix)."""
        raise NotImplementedError


@dataclass(frozen=True, eq=False)
class DotWork(Worked):
    """q·k = Σ qᵢkᵢ = |q||k|cos θ, divided by `divisor` (1 for the dot product, √d scaled)."""

    pair: Breakdown
    divisor: float

    @property
    def reached(self) -> float:
        return self.pair.total / self.divisor


@dataclass(frozen=True, eq=False)
class CosineWork(Worked):
    """q·k ÷ |q| ÷ |k|: the products and lengths of `pair`, Undefined for a zero vector."""

    pair: Breakdown
    quotient: float | Undefined
    """The quotient as the registry works it out, from the unit vectors: q·k itself
    underflows for tiny vectors, whose cosine is as defined as any other's."""

    @property
    def reached(self) -> float | Undefined:
        return self.quotient


@dataclass(frozen=True, eq=False)
class DistanceWork(Worked):
    """−|q − k|: the difference vector, its squares (`terms`), their sum and its root; and
    the same square as |q|² + |k|² − 2q·k, the lengths and the dot product."""

    diff: np.ndarray
    squared: float
    distance: float
    square_q: float
    square_k: float
    dot: float

    @property
    def reached(self) -> float:
        return -self.distance


@dataclass(frozen=True, eq=False)
class AdditiveWork(Worked):
    """vᵀtanh(W₁q + W₂k): the additive scorer's steps (`terms` = v ⊙ tanh(…))."""

    steps: AdditiveSteps

    @property
    def reached(self) -> float:
        return float(np.sum(self.steps.terms))


@dataclass(frozen=True, eq=False)
class SumWork(Worked):
    """`scale` × Σ `terms`: the calculation of a scorer that needs no form of its own."""

    scale: float

    @property
    def reached(self) -> float:
        return self.scale * float(np.sum(self.terms))


@dataclass(frozen=True, eq=False)
class NormedWork(Worked):
    """QK-Norm: q′ = g ⊙ q ÷ rms(q), k′ likewise, then q′·k′ = Σ q′ᵢk′ᵢ (`terms`); `pair` takes
    q′·k′ apart as |q′||k′|cos θ′."""

    pair: Breakdown
    rms_q: float
    rms_k: float
    gain: np.ndarray
    eps: float
    q_hat: np.ndarray
    k_hat: np.ndarray

    @property
    def reached(self) -> float:
        return float(np.sum(self.terms))

    @property
    def uniform_gain(self) -> float | None:
        """The gain's one value when every dimension has the same (written as one number)."""
        first = float(self.gain[0])
        return first if bool(np.all(self.gain == first)) else None


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.asarray(array, dtype=np.float64)
    array.setflags(write=False)
    return array


def _cell(total: float | Undefined | None, fallback: float | Undefined) -> float | Undefined:
    if total is None:
        return fallback
    return total if isinstance(total, Undefined) else float(total)


def _weighted_cell(total: float | Undefined | None) -> float | None:
    return None if total is None or isinstance(total, Undefined) else float(total)


def dot_work(scorer: str, a: np.ndarray, b: np.ndarray, _w: None,
             total: float | Undefined | None, dot: float | None) -> DotWork:
    """q·k term by term."""
    pair = breakdown(a, b, total=dot)
    return DotWork(scorer, pair.products, _cell(total, pair.total), pair, 1.0)


def scaled_dot_work(scorer: str, a: np.ndarray, b: np.ndarray, _w: None,
                    total: float | Undefined | None, dot: float | None) -> DotWork:
    """q·k term by term, then ÷ √d."""
    pair = breakdown(a, b, total=dot)
    divisor = math.sqrt(a.shape[0])
    return DotWork(scorer, pair.products, _cell(total, pair.total / divisor), pair, divisor)


def cosine_work(scorer: str, a: np.ndarray, b: np.ndarray, _w: None,
                total: float | Undefined | None, dot: float | None) -> CosineWork:
    """q·k term by term, then ÷ |q| ÷ |k| (the quotient as the registry works it out)."""
    pair = breakdown(a, b, total=dot)
    own = score_pair(scorer, a, b)
    return CosineWork(scorer, pair.products, _cell(total, own), pair, own)


def distance_work(scorer: str, a: np.ndarray, b: np.ndarray, _w: None,
                  total: float | Undefined | None, dot: float | None) -> DistanceWork:
    """q − k, its squares, their sum and its root, with a minus sign."""
    diff = _frozen(a - b)
    squares = _frozen(diff * diff)
    squared = float(np.dot(diff, diff))
    distance = math.sqrt(squared)
    product = float(np.dot(a, b)) if dot is None else float(dot)
    return DistanceWork(scorer, squares, _cell(total, -distance), diff, squared, distance,
                        float(np.dot(a, a)), float(np.dot(b, b)), product)


def additive_work(scorer: str, a: np.ndarray, b: np.ndarray, weights: AdditiveWeights,
                  total: float | Undefined | None, _dot: float | None) -> AdditiveWork:
    """W₁q, W₂k, their sum, tanh and the terms v ⊙ tanh(…)."""
    steps = additive_steps(a, b, weights, total=_weighted_cell(total))
    return AdditiveWork(scorer, steps.terms, steps.total, steps)


def normed_work(scorer: str, a: np.ndarray, b: np.ndarray, norm: QKNormWeights,
                total: float | Undefined | None, _dot: float | None) -> NormedWork:
    """q′ and k′ through RMSNorm, then q′·k′ term by term."""
    q_hat, k_hat = (_frozen(rms_norm(x, norm.gain, norm.eps)) for x in (a, b))
    pair = breakdown(q_hat, k_hat, total=_weighted_cell(total))
    rms_q, rms_k = (math.sqrt(float(np.mean(x * x)) + norm.eps) for x in (a, b))
    return NormedWork(scorer, pair.products, _cell(total, float(np.sum(pair.products))),
                      pair, rms_q, rms_k, norm.gain, norm.eps, q_hat, k_hat)


def sum_work(scorer: str, terms: Any, total: float | Undefined | None,
             scale: float = 1.0) -> SumWork:
    """A score that is `scale` × Σ terms: the steps any such scorer returns, and the panels
    write out without a form of their own."""
    parts = _frozen(terms)
    return SumWork(scorer, parts, _cell(total, scale * float(np.sum(parts))), scale)


def worked(scorer: str, q: Any, k: Any, params: ScorerParams | None = None,
           total: float | Undefined | None = None, dot: float | None = None) -> Worked:
    """`scorer`'s calculation for the pair (q, k) (vectors of one width d).

    `total`: the score the model's matrix holds for this pair, and `dot`: its q·k cell; pass
    them so the steps end on the numbers every table shows (a sum of products is a second
    float path that can differ in the last bit). None: the steps' own results. Raises
    ValueError for an unknown scorer, one without steps, missing weights or vectors that do
    not fit, as `score_pair` does."""
    found = get_scorer(scorer)
    if found.steps is None:
        raise ValueError(f"scorer {scorer!r} has no worked-out steps; register it with steps=")
    a, b = (x.astype(np.float64, copy=False) for x in as_vectors(q, k, 1))
    weights = checked_weights(found, params, a.shape[0], a.dtype)
    work: Worked = found.steps(scorer, a, b, weights, total, dot)
    return work


def pair_work(view: PairSource, query: int, key: int) -> Worked | None:
    """The active scorer's calculation for one pair of `view`, ending on the cells of the
    view's matrices (the score and its q·k); None when this world cannot work it out (the
    scorer's weights do not fit the vectors)."""
    cell = view.active[query, key]
    total: float | Undefined = UNDEFINED_ZERO if cell is np.ma.masked else float(cell)
    dots = view.scores.get("dot")
    dot = None if dots is None or dots[query, key] is np.ma.masked else float(dots[query, key])
    try:
        return worked(view.scorer, view.q[query], view.k[key], view.params, total, dot)
    except ValueError:
        return None
