"""Owns the additive scorer's own term-by-term text: W₁q, W₂k, their sum, tanh and v·tanh with
the pair's real numbers, how many tanh one score matrix needs (this world and the lesson's
scale), and the note that these weights are hand-picked, not trained."""

from __future__ import annotations

import html

import numpy as np

from app.i18n import tr
from app.model.lesson.figures import EXAMPLE
from app.model.scoring.additive import AdditiveSteps, tanh_evaluations
from app.model.scoring.worked import AdditiveWork
from app.model.view import View
from app.ui.format import format_in_words, format_number, shown_name
from app.ui.panels.expansion.written import (
    SUBSCRIPTS,
    Styles,
    Written,
    operand,
    result,
    vector,
)


def count_text(count: int) -> str:
    """A count as the class reads it: 43 亿 in Chinese, digits grouped in English."""
    if large := format_in_words(count, 2):
        return large
    return format_number(count)


def term_label(index: int) -> str:
    """The tick under term i: v_i·t_i."""
    sub = str(index).translate(SUBSCRIPTS)
    return f"v{sub}t{sub}"


def write_additive(work: AdditiveWork, view: View, pair: str, styles: Styles) -> Written:
    """The two projections, their sum, tanh, and v·t written out to the score; a bar per
    term vᵢtᵢ; the tanh count under them, and the note that these weights are made up in
    place of the largest term."""
    steps = work.steps
    terms = [f"{operand(a)}×{operand(b)}" for a, b in zip(steps.v, steps.activated, strict=True)]
    values = [operand(p) for p in steps.terms]
    for parts in (terms, values):
        for i, part in enumerate(parts):
            parts[i] = (styles.mark if i == work.dominant else styles.rest).format(
                html.escape(part))
    lines = (f"W₁q = {vector(steps.w1q)}",
             f"W₂k = {vector(steps.w2k)}",
             f"W₁q + W₂k = {vector(steps.hidden)}",
             f"t = tanh(W₁q + W₂k) = {vector(steps.activated)}",
             "v·t = " + " + ".join(terms),
             "= " + " + ".join(values) + f" = {result(work.total)}")
    shown = np.arange(steps.d_a)
    return Written(tr("expansion.additive_heading", pair=pair), lines, shown,
                   tuple(term_label(i + 1) for i in shown), count_sentence(view, steps),
                   untrained_note(view))


def count_sentence(view: View, steps: AdditiveSteps) -> str:
    """What factors (the two projections) and what does not (add and tanh per pair), with the
    tanh count of this world and of the lesson's example, both computed."""
    tq, tk = len(view.q), len(view.k)
    here = tanh_evaluations(tq, tk, steps.d_a)
    length, width = EXAMPLE["rnn_T"], EXAMPLE["additive_d_a"]
    lesson = tanh_evaluations(length, length, width)
    return tr("expansion.additive_count", tq=tq, tk=tk, d_a=steps.d_a, here=count_text(here),
              t=length, lesson_d_a=width, lesson=count_text(lesson))


def untrained_note(view: View) -> str:
    """The additive weights are made up: say which key they put first on this row."""
    ranks = view.row_ranks.get("additive")
    if ranks is None:
        return tr("expansion.additive_untrained_plain")
    top = shown_name(view.key_names[int(np.argmin(ranks))])
    return tr("expansion.additive_untrained", top=top)
