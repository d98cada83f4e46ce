"""Owns cos(E·Eᵀ) of a data file's embeddings, worked out once per embeddings array.

The heatmap's "E" source and the timeline's live figures both read it at every drag step,
and E never changes while vectors are dragged.
"""

from __future__ import annotations

import numpy as np

from app.model.scoring import score_matrix

_kept: list[tuple[np.ndarray, np.ma.MaskedArray]] = []
"""The last embeddings array with its cosines."""


def embedding_cosines(E: np.ndarray) -> np.ma.MaskedArray:
    """cos(E·Eᵀ), read-only; worked out again only for another array (the very object: a
    data file's E is read-only, so the same object always holds the same numbers)."""
    if not _kept or _kept[0][0] is not E or E.flags.writeable:
        cosines = score_matrix("cosine", E, E)
        cosines.flags.writeable = False
        _kept[:] = [(E, cosines)]
    return _kept[0][1]
