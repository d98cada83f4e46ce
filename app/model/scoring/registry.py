"""Owns the registry of query–key scoring functions and the validated entry points to them."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, get_args, get_type_hints

import numpy as np

from app.model.scoring.additive import AdditiveWeights
from app.model.scoring.qknorm import QKNormWeights

__all__ = [
    "SCORERS",
    "UNDEFINED_ZERO",
    "Compared",
    "Scorer",
    "ScorerParams",
    "Undefined",
    "as_vectors",
    "get_scorer",
    "register",
    "score_matrix",
    "score_pair",
    "unregister",
]


@dataclass(frozen=True)
class Undefined:
    """A score that has no value (and why), returned instead of a silent NaN."""

    reason: str


UNDEFINED_ZERO = Undefined("zero-length vector")


@dataclass(frozen=True)
class ScorerParams:
    """Learned weights some scorers need; a scorer's `needs` names the field it reads."""

    additive: AdditiveWeights | None = None
    qk_norm: QKNormWeights | None = None


MatrixFn = Callable[[np.ndarray, np.ndarray, "ScorerParams | None"], Any]
PairFn = Callable[[np.ndarray, np.ndarray, "ScorerParams | None"], "float | Undefined"]
StepsFn = Callable[[str, np.ndarray, np.ndarray, Any, "float | Undefined | None", "float | None"],
                   Any]
"""(name, q, k, checked weights, the matrix's cell, its q·k cell) → a `worked.Worked`."""


@dataclass(frozen=True)
class Compared:
    """Catalogue keys of a scorer the landscapes and match docks set beside the others: its
    plot's title, what its contour shape means (and the shape alone, for before Reveal), and
    its match-table column's tip. The column's names are `match.col[.short].<name>`."""

    title: str
    shape: str
    shape_only: str
    tip: str


@dataclass(frozen=True)
class Scorer:
    """One scoring function and everything the model and the panels ask about it.

    `matrix` and `pair` validate their inputs (ValueError). `signed`: scores take both signs, so
    a colour scale should centre on 0. `bounded`: fixed (lo, hi) range or None. `needs`: the
    ScorerParams field that must be set. `formula`: the math, not prose (never translated).
    `steps`: its calculation for one pair (None: no panel can explain it). `written`: the form
    the term-by-term panel and the playground write it out in ("sum" fits any `SumWork`).
    `compared`: set for the scorers whose contour shapes and ranks the lesson compares.
    """

    name: str
    matrix: MatrixFn
    pair: PairFn
    signed: bool
    bounded: tuple[float, float] | None
    needs: str | None
    formula: str
    steps: StepsFn | None = None
    written: str = "sum"
    compared: Compared | None = None


SCORERS: dict[str, Scorer] = {}


def _limit(d: int, dtype: np.dtype) -> float:
    """Largest |component| for which no scorer can overflow: then |q|², |k|², q·k stay finite."""
    return math.sqrt(float(np.finfo(dtype).max) / max(d, 1)) / 4.0


def _float_dtype(*arrays: np.ndarray) -> np.dtype:
    dt = np.result_type(*(a.dtype for a in arrays))
    return dt if dt.kind == "f" else np.dtype(np.float64)


def as_vectors(Q: Any, K: Any, ndim: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Validate Q, K as ndim-D real arrays of equal width d, in one float dtype (no copy if
    they already are): float32 stays float32 so a big float32 matrix is not doubled in size.
    """
    what = "matrices (T, d)" if ndim == 2 else "vectors (d,)"
    arrs = []
    for name, x in (("Q" if ndim == 2 else "q", Q), ("K" if ndim == 2 else "k", K)):
        a = np.asarray(x)
        if a.dtype.kind not in "biuf":
            raise ValueError(f"{name} must hold real numbers, got dtype {a.dtype}")
        if a.ndim != ndim:
            raise ValueError(f"{name} must be {what}; got shape {a.shape}")
        if a.shape[-1] == 0:
            raise ValueError(f"{name} has d = 0; vectors need at least one dimension")
        arrs.append(a)
    a, b = arrs
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"dimension mismatch: query d = {a.shape[-1]}, key d = {b.shape[-1]}")
    dt = _float_dtype(a, b)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    lim = _limit(a.shape[-1], dt)
    for name, x in (("queries", a), ("keys", b)):
        if x.size and not max(float(x.max()), -float(x.min())) <= lim:
            raise ValueError(f"{name} contain NaN, inf or values beyond ±{lim:.3g}")
    return a, b


def checked_weights(scorer: Scorer, params: ScorerParams | None, d: int, dtype: np.dtype
                    ) -> Any:
    """The weights `scorer.needs` from `params`, checked against the vectors by the weights
    themselves; a missing one is named."""
    if scorer.needs is None:
        return None
    w = getattr(params, scorer.needs, None) if params is not None else None
    if w is None:
        kind = next(t for t in get_args(get_type_hints(ScorerParams)[scorer.needs])
                    if t is not type(None))
        names = ", ".join(field.name for field in fields(kind))
        raise ValueError(f"scorer '{scorer.name}' needs {scorer.needs.replace('_', '-')} weights "
                         f"{names} (ScorerParams.{scorer.needs}); none given")
    w.check_fits(d, dtype)
    return w


def register(
    name: str,
    *,
    formula: str,
    pair: Callable[[np.ndarray, np.ndarray, Any], float | Undefined],
    signed: bool = True,
    bounded: tuple[float, float] | None = None,
    needs: str | None = None,
    steps: StepsFn | None = None,
    written: str = "sum",
    compared: Compared | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a matrix function (Q, K, weights) to add a scorer: one call holds all of it,
    and the order of the calls is the order of the menus.

    The raw functions receive validated arrays of one float dtype and the checked weights
    (or None); the registered Scorer wraps them with the validation.
    """
    if needs not in (None, "additive", "qk_norm"):
        raise ValueError(f"unknown needs {needs!r}; add a field to ScorerParams first")

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in SCORERS:
            raise ValueError(f"scorer {name!r} is already registered")

        def matrix(Q: Any, K: Any, params: ScorerParams | None = None) -> Any:
            A, B = as_vectors(Q, K, 2)
            return fn(A, B, checked_weights(SCORERS[name], params, A.shape[1], A.dtype))

        def pair_checked(q: Any, k: Any, params: ScorerParams | None = None) -> float | Undefined:
            a, b = as_vectors(q, k, 1)
            return pair(a, b, checked_weights(SCORERS[name], params, a.shape[0], a.dtype))

        SCORERS[name] = Scorer(name, matrix, pair_checked, signed, bounded, needs, formula,
                               steps, written, compared)
        return fn

    return deco


def unregister(name: str) -> None:
    """Remove a scorer registered at run time (a plug-in, or a test's), by name."""
    get_scorer(name)
    del SCORERS[name]


def get_scorer(name: str) -> Scorer:
    """Look a scorer up, raising ValueError (which the UI reports) rather than KeyError."""
    try:
        return SCORERS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown scorer {name!r}; known: {', '.join(SCORERS)}") from None


def score_matrix(
    name: str, Q: Any, K: Any, params: ScorerParams | None = None
) -> np.ma.MaskedArray:
    """All Tq×Tk scores; masked cells are undefined (only cosine, for zero-length vectors)."""
    S = get_scorer(name).matrix(Q, K, params)
    if isinstance(S, np.ma.MaskedArray):
        return S
    return np.ma.MaskedArray(S, mask=np.ma.nomask)


def score_pair(name: str, q: Any, k: Any, params: ScorerParams | None = None) -> float | Undefined:
    """One score as a Python float, or Undefined (cosine of a zero-length vector); never NaN."""
    return get_scorer(name).pair(q, k, params)
