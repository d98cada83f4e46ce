"""Owns the additive scorer's own term-by-term text: W₁q, W₂k, their sum, tanh and v·tanh with
the pair's real numbers, how many tanh one score matrix needs (this world and the lesson's
scale), and the note that these weights are hand-picked, not trained."""

from __future__ import annotations

import html

import numpy as np

from app.i18n import language, tr
from app.model.additive import AdditiveSteps, additive_steps, tanh_evaluations
from app.model.figures import EXAMPLE
from app.model.view import View
from app.ui.format import format_chinese_large, format_number, shown_name

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def pair_steps(view: View, query: int, key: int) -> AdditiveSteps | None:
    """The selected pair's additive steps, ending on the matrix cell the heatmap shows; None
    when this world has no additive weights or the cell has no value."""
    weights = view.params.additive if view.params is not None else None
    matrix = view.scores.get("additive")
    if weights is None or matrix is None or view.q.shape[1] != weights.d:
        return None
    cell = matrix[query, key]
    if cell is np.ma.masked:
        return None
    return additive_steps(view.q[query], view.k[key], weights, total=float(cell))


def count_text(count: int) -> str:
    """A count as the class reads it: 43 亿 in Chinese, digits grouped in English."""
    if language() == "zh" and (large := format_chinese_large(count, 2)):
        return large
    return format_number(count)


def term_label(index: int) -> str:
    """The tick under term i: v_i·t_i."""
    sub = str(index).translate(SUBSCRIPTS)
    return f"v{sub}t{sub}"


def equation_html(steps: AdditiveSteps, number, operand, mark: str, rest: str) -> str:
    """Five lines: the two projections, their sum, tanh, and v·t written out to the total.
    `number` / `operand` write one value; `mark` / `rest` wrap the largest term and the others."""
    def vector(values: np.ndarray) -> str:
        return html.escape("(" + ", ".join(number(x) for x in values) + ")")

    terms = [f"{operand(a)}×{operand(b)}" for a, b in zip(steps.v, steps.activated, strict=True)]
    products = [operand(p) for p in steps.terms]
    largest = int(np.argmax(np.abs(steps.terms)))
    for parts in (terms, products):
        for i, part in enumerate(parts):
            parts[i] = (mark if i == largest else rest).format(html.escape(part))
    return "<br>".join([
        f"W₁q = {vector(steps.w1q)}",
        f"W₂k = {vector(steps.w2k)}",
        f"W₁q + W₂k = {vector(steps.hidden)}",
        f"t = tanh(W₁q + W₂k) = {vector(steps.activated)}",
        "v·t = " + " + ".join(terms),
        "= " + " + ".join(products) + f" = <b>{number(steps.total)}</b>",
    ])


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
