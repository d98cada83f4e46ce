"""Owns the shapes panel's figure: the numbers beside the picture as a table under the head's
title, the scale, T and dₐ, so an export states the sizes the panel shows, not its controls."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from app.i18n import tr
from app.ui.figure_table import TableFigure, TableRow

SUBSCRIPTS = str.maketrans("0123456789ai", "₀₁₂₃₄₅₆₇₈₉ₐᵢ")
SUPERSCRIPTS = str.maketrans("0123456789T", "⁰¹²³⁴⁵⁶⁷⁸⁹ᵀ")
"""Unicode's small letters that the bundled font draws (most letters have no subscript)."""


def plain(rich: str) -> str:
    """A label's rich text as one line of a figure: sub- and superscripts as Unicode's own
    small letters ("d<sub>a</sub>" → "dₐ"), other tags dropped, entities decoded."""
    text = re.sub(r"<sub>(.*?)</sub>", lambda m: m.group(1).translate(SUBSCRIPTS), rich)
    text = re.sub(r"<sup>(.*?)</sup>", lambda m: m.group(1).translate(SUPERSCRIPTS), text)
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def number_names() -> dict[str, str]:
    """The names of the numbers beside the picture (rich text), for the panel and its figure."""
    return {"pairs": tr("shapes.pairs"), "scores": tr("shapes.score_bytes"),
            "additive": tr("shapes.additive_bytes")}


def shapes_figure(setting: str, numbers: Sequence[tuple[str, str]], note: str) -> TableFigure:
    """The head's title over `setting` (its scale, T and dₐ as the panel states them), one
    row per (name, value) the panel shows, and `note` (the bytes per number) under them."""
    rows = [TableRow((plain(name), value)) for name, value in numbers]
    return TableFigure(tr("shapes.head_title"), (tr("shapes.col_what"), tr("shapes.col_value")),
                       rows, (False, True), subtitle=setting, notes=(plain(note),))
