"""Owns how much of the imported world is computed per edit: a capture may have T = 4096.

Every scorer's full T×T matrix on every drag step would cost seconds there (additive alone is
T²·d_a), so past FULL_CELLS only the active scorer and dot get full matrices (the heatmap and
the pair's sum need them); the other scorers are computed on the selected row alone, which is
all the match table and the rank reasons read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from app.model.attention import softmax
from app.model.capture import Capture
from app.model.lesson.data import MAX_TOKENS
from app.model.reasons import RowReasons, explain_row, key_norms
from app.model.scoring import SCORERS, ScorerParams, score_matrix
from app.model.state import LabState

FULL_CELLS = 128 * 128
"""Up to this many query×key cells every available scorer gets its full matrix, as in the
lesson's worlds; above it, only the active scorer and dot."""


def available_scorers(capture: Capture) -> tuple[str, ...]:
    """Scorers this capture can show, in display order (learned ones need the file's weights)."""
    return tuple(name for name in SCORERS if capture.available(name))


def imported_scores(capture: Capture, active: str, q: np.ndarray,
                    k: np.ndarray) -> dict[str, np.ma.MaskedArray]:
    """Full matrices of the imported world: all available scorers when small, else the
    active one and dot."""
    names = available_scorers(capture)
    if len(q) * len(k) > FULL_CELLS:
        names = tuple(name for name in names if name in (active, "dot"))
    return {name: score_matrix(name, q, k, capture.params) for name in names}


def edited_vector(before: LabState, after: LabState) -> tuple[str, int] | None:
    """("q", i) or ("k", j) when `after` is `before` with one captured vector edited and
    nothing else changed (a drag step): then only that row or column of every matrix moves."""
    old, new = before.imported, after.imported
    if (before.world != "imported" or after.world != "imported" or old is None or new is None
            or old.queries.shape != new.queries.shape or old.keys.shape != new.keys.shape
            or replace(after, imported=old) != before):
        return None
    if ((old.query_names, old.key_names, old.source, old.head, old.heads)
            != (new.query_names, new.key_names, new.source, new.head, new.heads)
            or old.weights.keys() != new.weights.keys()
            or not all(w is new.weights[n] or np.array_equal(w, new.weights[n])
                       for n, w in old.weights.items())):
        return None
    known = new.edited_from(old)
    if known is not None:
        return known if new != old else None
    rows = {role: np.zeros(0, dtype=np.intp) if a is b  # an edit keeps the other half
            else np.flatnonzero(np.any(a != b, axis=1))
            for role, a, b in (("q", old.queries, new.queries), ("k", old.keys, new.keys))}
    if len(rows["q"]) + len(rows["k"]) != 1:
        return None
    role = "q" if len(rows["q"]) else "k"
    return role, int(rows[role][0])


def patched_matrix(name: str, before: np.ma.MaskedArray, q: np.ndarray, k: np.ndarray,
                   params: ScorerParams, edit: tuple[str, int],
                   in_place: bool = False) -> np.ma.MaskedArray:
    """`before` with the edited query's row or key's column scored again: a T = 4096 drag
    step costs T·d work instead of the T²·d of the whole matrix (`in_place`: `before`
    itself, not a copy)."""
    role, index = edit
    out: np.ma.MaskedArray = before if in_place else before.copy()
    if role == "q":
        out[index] = score_matrix(name, q[index:index + 1], k, params)[0]
    else:
        out[:, index] = score_matrix(name, q, k[index:index + 1], params)[:, 0]
    return out


def selected_row(scores: Mapping[str, np.ma.MaskedArray], name: str, q: np.ndarray,
                 k: np.ndarray, row: int, capture: Capture | None) -> np.ma.MaskedArray:
    """The selected query's row of scorer `name`: taken from its full matrix where there is
    one (one number path), worked out for that row alone where there is not (an import)."""
    if name in scores or capture is None:
        stored: np.ma.MaskedArray = scores[name][row]
        return stored
    scored: np.ma.MaskedArray = score_matrix(name, q[row:row + 1], k, capture.params)[0]
    return scored


SWAP_KEYS = 512
"""Rank swaps (dot against cosine) are looked for among at most this many keys: the search is
pairwise (Tk² work), and a 4096-key row has far more swaps than anyone reads."""
REASON_KEYS = 8
"""Past MAX_TOKENS keys (the most a lesson's world has), rank swaps are explained among the
dot product's top keys only: the rows a class reads first, and a handful of sentences instead
of thousands (all 256 keys of an import gave 7,306 sentences, seconds to lay out)."""


def explain_top(K: np.ndarray, rows: dict[str, np.ma.MaskedArray]) -> RowReasons:
    """`explain_row` for a long row: every key's |k|, reasons among the top REASON_KEYS keys
    by q·k (indices mapped back to the whole row)."""
    if len(K) <= MAX_TOKENS:
        return explain_row(K, rows)
    dot = np.ma.filled(rows["dot"].astype(np.float64), -np.inf)
    top = np.sort(np.argsort(-dot, kind="stable")[:REASON_KEYS])
    part = explain_row(K[top], {name: row[top] for name, row in rows.items()})
    reasons = tuple(replace(reason, dot_winner=int(top[reason.dot_winner]),
                            other_winner=int(top[reason.other_winner]))
                    for reason in part.reasons)
    return RowReasons(norms=key_norms(K), reasons=reasons)


def row_weights_only(state: LabState, shape: tuple[int, int]) -> bool:
    """A large import whose heatmap shows scores: only the selected row's weights are read
    (the match table, the timeline), and a full softmax of 16 million cells is a second."""
    return (state.world == "imported" and state.options.heatmap_mode == "scores"
            and shape[0] * shape[1] > FULL_CELLS)


def selected_row_weights(row_logits: np.ndarray, shape: tuple[int, int], row: int,
                         sink: float | None) -> np.ndarray:
    """softmax of the selected row's logits (1, Tk) alone; every other row is NaN (not
    computed, never a number that could pass for a weight)."""
    data = np.ma.getdata(row_logits)
    out = np.full(shape, np.nan, dtype=np.result_type(data.dtype, np.float32))
    out[row] = softmax(row_logits, sink_logit=sink)[0]
    return out


TERMS_SHOWN = 8
"""Past this d (an imported capture), term by term writes out the largest products only."""


def largest_terms(products: np.ndarray) -> np.ndarray | None:
    """Indices of the TERMS_SHOWN products of largest |q_i·k_i|, largest first (lower index
    first on ties), or None when d is small enough to write every term."""
    products = np.asarray(products, dtype=np.float64)
    if len(products) <= TERMS_SHOWN:
        return None
    return np.argsort(-np.abs(products), kind="stable")[:TERMS_SHOWN]
