"""Owns the scoring functions: the registry and the validated entry points, re-exported here so
callers import from `app.model.scoring` whatever module a piece lives in."""

from app.model.scoring.registry import (
    SCORERS,
    UNDEFINED_ZERO,
    Compared,
    Scorer,
    ScorerParams,
    Undefined,
    as_vectors,
    get_scorer,
    register,
    score_matrix,
    score_pair,
    unregister,
)

# isort: split
from app.model.scoring import builtin  # noqa: F401  registers the six, after the names above

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
