"""Owns writing out each scorer's own calculation for the term-by-term panel: the heading, the
equation's lines with the pair's real numbers ending on the score, a tick per bar and the line
under the bars (the additive scorer's steps are in additive.py)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from app.i18n import tr
from app.model.capture.view import largest_terms
from app.model.scoring import Undefined, get_scorer
from app.model.scoring.breakdown import Breakdown
from app.model.scoring.worked import (
    CosineWork,
    DistanceWork,
    DotWork,
    NormedWork,
    SumWork,
    Worked,
)
from app.ui.format import UNDEFINED_TEXT, as_factor, format_score

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
NBSP = "\u00a0"
WORD_JOINER = "\u2060"
BAR = re.compile(r"\|(?=\S)")


def number(value: float) -> str:
    """A factor or term as a class writes it: two decimals at most, no trailing zeros, and
    two significant digits for tiny values rather than a misleading 0 or scientific form."""
    value = float(value)
    if value != 0 and abs(value) < 0.005:
        return np.format_float_positional(value, precision=2, fractional=False).replace("-", "−")
    text = format_score(value, 2)
    if "." in text and "e" not in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "−0" else text


def operand(value: float) -> str:
    """A number that follows × or +: negative ones get parentheses, "(−0.5)"."""
    return as_factor(number(value))


def unbroken(line: str) -> str:
    """A line that breaks only at its operators' spaces: Unicode lets a line break after
    every "|", which would split |q| or |q − k|² between its bars."""
    return BAR.sub("|" + WORD_JOINER, line)


def result(value: float | Undefined) -> str:
    """A calculation's end, bold: the score the heatmap shows for this pair."""
    return f"<b>{UNDEFINED_TEXT if isinstance(value, Undefined) else number(value)}</b>"


def vector(values: np.ndarray) -> str:
    """(2, −0.5), its parts held together by no-break spaces."""
    return "(" + f",{NBSP}".join(number(v) for v in values) + ")"


@dataclass(frozen=True)
class Styles:
    """Format strings for the term that decides and for the rest (faded in spotlight)."""

    mark: str
    rest: str


@dataclass(frozen=True)
class Written:
    """What the panel shows of one calculation. `shown`: the terms drawn and written (all,
    or for a large d the largest); `note` stands in for the largest-term line."""

    heading: str
    lines: tuple[str, ...]
    shown: np.ndarray
    labels: tuple[str, ...]
    polar: str
    note: str | None = None


def shown_terms(terms: np.ndarray) -> tuple[np.ndarray, bool]:
    """(indices of the terms written out, whether that is all of them)."""
    order = largest_terms(terms)
    return (np.arange(len(terms)), True) if order is None else (order, False)


def terms_sum(parts: list[str], work: Worked, styles: Styles, shown: np.ndarray,
              whole: bool) -> tuple[str, str]:
    """The written terms joined by " + " (the decisive one marked) and the line of their
    values, each followed by the rest when only the largest are written."""
    values = [operand(work.terms[i]) for i in shown]
    for written in (parts, values):
        for at, i in enumerate(shown):
            style = styles.mark if i == work.dominant else styles.rest
            written[at] = style.format(html.escape(written[at]))
            if not whole:  # which dimension each term is
                written[at] += f"<sub>{i + 1}</sub>"
    tail = sum_tail = ""
    if not whole:
        others = float(np.sum(work.terms) - np.sum(work.terms[shown]))
        tail = " + " + html.escape(tr("expansion.more_terms", count=len(work.terms) - len(shown)))
        sum_tail = f" + {operand(others)}"
    return " + ".join(parts) + tail, " + ".join(values) + sum_tail


def _pair_lines(work: DotWork | CosineWork, q: np.ndarray, k: np.ndarray, styles: Styles,
                end: str) -> tuple[list[str], np.ndarray]:
    shown, whole = shown_terms(work.terms)
    terms, values = terms_sum([f"{operand(q[i])}×{operand(k[i])}" for i in shown], work,
                              styles, shown, whole)
    return [f"q·k = {terms}", f"= {values} = {end}"], shown


def polar(pair: Breakdown) -> str:
    """q·k = |q| × |k| × cos θ with the pair's numbers (a zero vector: why θ has none)."""
    if isinstance(pair.cos, Undefined):
        return tr("expansion.polar_undefined", total=number(pair.total))
    return tr("expansion.polar", nq=number(pair.norm_q), nk=number(pair.norm_k),
              cos=as_factor(format_score(pair.cos, 3)), total=number(pair.total),
              angle=f"{pair.angle_deg:.1f}")


def products(shown: np.ndarray) -> tuple[str, ...]:
    return tuple(f"q{i + 1}k{i + 1}".translate(SUBSCRIPTS) for i in shown)


def _dot_lines(work: DotWork, q: np.ndarray, k: np.ndarray, pair: str, styles: Styles,
               heading: str, scaled: bool) -> Written:
    end = number(work.pair.total) if scaled else result(work.total)
    lines, shown = _pair_lines(work, q, k, styles, end)
    if scaled:
        lines.append(f"q·k / √d = {number(work.pair.total)} / √{len(q)} = {result(work.total)}")
    return Written(heading, tuple(lines), shown, products(shown), polar(work.pair))


def write_dot(work: DotWork, q: np.ndarray, k: np.ndarray, pair: str,
              styles: Styles) -> Written:
    return _dot_lines(work, q, k, pair, styles, tr("expansion.heading", pair=pair), False)


def write_scaled_dot(work: DotWork, q: np.ndarray, k: np.ndarray, pair: str,
                     styles: Styles) -> Written:
    """q·k term by term, then the division by √d."""
    return _dot_lines(work, q, k, pair, styles,
                      tr("expansion.heading.scaled_dot", pair=pair), True)


def write_cosine(work: CosineWork, q: np.ndarray, k: np.ndarray, pair: str,
                 styles: Styles) -> Written:
    lines, shown = _pair_lines(work, q, k, styles, number(work.pair.total))
    nq, nk = number(work.pair.norm_q), number(work.pair.norm_k)
    lines += [f"|q| = {nq},  |k| = {nk}",
              f"cos θ = q·k ÷ |q| ÷ |k| = {number(work.pair.total)} ÷ {nq} ÷ {nk}"
              f" = {result(work.total)}"]
    return Written(tr("expansion.heading.cosine", pair=pair), tuple(lines), shown,
                   products(shown), polar(work.pair))


def write_distance(work: DistanceWork, q: np.ndarray, k: np.ndarray, pair: str,
                   styles: Styles) -> Written:
    shown, whole = shown_terms(work.terms)
    squares, values = terms_sum([f"{operand(work.diff[i])}²" for i in shown], work, styles,
                                shown, whole)
    differences = (vector(work.diff) if whole else
                   ", ".join(f"{number(work.diff[i])}<sub>{i + 1}</sub>" for i in shown) + ", …")
    items = ("(" + f",{NBSP}".join(f"{number(q[i])}−{operand(k[i])}" for i in shown) + ") = "
             if whole else "")
    lines = (f"q − k = {items}{differences}",
             f"|q − k|² = {squares}",
             f"= {values} = {number(work.squared)}",
             f"−|q − k| = −√{number(work.squared)} = {result(work.total)}")
    line = tr("expansion.polar_distance", sq=number(work.square_q), sk=number(work.square_k),
              dot=operand(work.dot), squared=number(work.squared))
    labels = tuple(f"(q{i + 1}−k{i + 1})²".translate(SUBSCRIPTS) for i in shown)
    return Written(tr("expansion.heading.neg_euclidean", pair=pair), lines, shown, labels,
                   line)


def write_normed(work: NormedWork, q: np.ndarray, k: np.ndarray, pair: str,
                 styles: Styles) -> Written:
    """q′ = g ⊙ q ÷ rms(q) and k′ likewise with their numbers, then q′·k′ term by term."""
    shown, whole = shown_terms(work.terms)
    gain = work.uniform_gain
    lines = ["q′ = g ⊙ q ÷ rms(q),  k′ = g ⊙ k ÷ rms(k),  rms(x) = √(mean(x²) + ε)"]
    if whole:  # g = 1 goes without saying
        scale = "" if gain == 1.0 else (f"{number(gain)} × " if gain is not None
                                        else f"{vector(work.gain)} ⊙ ")
        lines += [f"{name} = {scale}{vector(raw)} ÷ {number(rms)} = {vector(normed)}"
                  for name, raw, rms, normed in (("q′", q, work.rms_q, work.q_hat),
                                                 ("k′", k, work.rms_k, work.k_hat))]
    else:
        lines.append(f"rms(q) = {number(work.rms_q)},  rms(k) = {number(work.rms_k)}")
    terms, values = terms_sum([f"{operand(work.q_hat[i])}×{operand(work.k_hat[i])}"
                               for i in shown], work, styles, shown, whole)
    lines += [f"q′·k′ = {terms}", f"= {values} = {result(work.total)}"]
    normed = work.pair
    if isinstance(normed.cos, Undefined):
        line = tr("expansion.polar_normed_undefined", total=number(normed.total))
    else:
        line = tr("expansion.polar_normed", nq=number(normed.norm_q),
                  nk=number(normed.norm_k), cos=as_factor(format_score(normed.cos, 3)),
                  total=number(normed.total), angle=f"{normed.angle_deg:.1f}")
    labels = tuple(f"q′{i + 1}k′{i + 1}".translate(SUBSCRIPTS) for i in shown)
    return Written(tr("expansion.heading.qk_norm", pair=pair), tuple(lines), shown, labels,
                   line)


def write_sum(work: SumWork, q: np.ndarray, k: np.ndarray, pair: str,
              styles: Styles) -> Written:
    """Any scorer that is scale × Σ terms: the terms, their sum, then the scale."""
    formula = get_scorer(work.scorer).formula
    shown, whole = shown_terms(work.terms)
    labels = tuple(f"t{i + 1}".translate(SUBSCRIPTS) for i in shown)
    terms, values = terms_sum(list(labels), work, styles, shown, whole)
    total = float(np.sum(work.terms))
    scaled = "" if work.scale == 1.0 else f"{operand(work.scale)} × {number(total)} = "
    lines = (f"Σ = {terms}", f"= {values} = {number(total)}",
             f"{html.escape(formula)} = {scaled}{result(work.total)}")
    return Written(tr("expansion.heading.sum", pair=pair, formula=formula), lines, shown,
                   labels, tr("expansion.sum_note", scale=number(work.scale)))


WRITERS: dict[str, Callable[..., Written]] = {
    "dot": write_dot, "scaled_dot": write_scaled_dot, "cosine": write_cosine,
    "distance": write_distance, "normed": write_normed, "sum": write_sum,
}
"""One writer per written form (`Scorer.written`); additive.py writes its own."""
