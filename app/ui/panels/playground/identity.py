"""Owns the playground's line on the selected key: the chosen scorer's own calculation for q and
that key, with the model's numbers (q·k = |q| × |k|cos θ only for the dot product)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from app.i18n import tr
from app.model.plane import Plane
from app.model.scoring import get_scorer
from app.model.scoring.worked import (
    AdditiveWork,
    CosineWork,
    DistanceWork,
    DotWork,
    NormedWork,
    SumWork,
    Worked,
)
from app.ui.format import UNDEFINED_TEXT, as_factor, format_score

NBSP = "\u00a0"


def short_number(value: float) -> str:
    """A coordinate without trailing zeros: 2, −0.5, 1.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def vector_text(vector: np.ndarray, comma: str = ", ") -> str:
    """(2, −0.5): the table's coordinates; inside a line that may wrap, pass `WHOLE` so a
    vector never wraps inside."""
    return "(" + comma.join(short_number(float(v)) for v in vector) + ")"


WHOLE = f",{NBSP}"
"""A comma and a no-break space: the vector's parts stay on one line."""


def _scaled_dot(work: DotWork, token: str, plane: Plane) -> str:
    return tr("playground.worked.scaled_dot", token=token, dot=format_score(work.pair.total),
              d=len(work.terms), score=format_score(work.total))


def _dot(work: DotWork, token: str, plane: Plane) -> str:
    return tr("playground.identity", token=token, dot=format_score(work.pair.total),
              norm_q=format_score(plane.norm_q),
              projection=as_factor(format_score(plane.projection)))


def _cosine(work: CosineWork, token: str, plane: Plane) -> str:
    return tr("playground.worked.cosine", token=token, dot=format_score(work.pair.total),
              norm_q=format_score(work.pair.norm_q), norm_k=format_score(work.pair.norm_k),
              score=format_score(work.total))


def _distance(work: DistanceWork, token: str, plane: Plane) -> str:
    return tr("playground.worked.neg_euclidean", token=token, diff=vector_text(work.diff, WHOLE),
              score=format_score(work.total))


def _additive(work: AdditiveWork, token: str, plane: Plane) -> str:
    return tr("playground.worked.additive", token=token,
              hidden=vector_text(work.steps.hidden, WHOLE), score=format_score(work.total))


def _normed(work: NormedWork, token: str, plane: Plane) -> str:
    gain = work.uniform_gain
    return tr("playground.worked.qk_norm", token=token, q_hat=vector_text(work.q_hat, WHOLE),
              k_hat=vector_text(work.k_hat, WHOLE),
              gain=vector_text(work.gain, WHOLE) if gain is None else short_number(gain),
              score=format_score(work.total))


def _sum(work: SumWork, token: str, plane: Plane) -> str:
    return tr("playground.worked.sum", token=token, formula=get_scorer(work.scorer).formula,
              score=format_score(work.total))


WRITERS: dict[str, Callable[..., str]] = {
    "dot": _dot, "scaled_dot": _scaled_dot, "cosine": _cosine, "distance": _distance,
    "additive": _additive, "normed": _normed, "sum": _sum,
}
"""One line per written form (`Scorer.written`)."""


def identity_text(work: Worked | None, token: str, plane: Plane) -> str:
    """The selected key's line: `work`'s own steps ending on its score, or a dash when this
    world cannot work the scorer out."""
    if work is None:
        return tr("playground.worked.none", token=token, score=UNDEFINED_TEXT)
    return WRITERS[get_scorer(work.scorer).written](work, token, plane)
