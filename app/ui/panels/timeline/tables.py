"""Owns the timeline's live text: the weights tables (a bar and a percentage per key) of the
stages that drive no widget of their own, and the frameless scroll area each live page
sits in."""

from __future__ import annotations

import html

import numpy as np
from PySide6.QtWidgets import QScrollArea, QWidget

from app.i18n import tr
from app.model.timeline import Stage
from app.model.view import View
from app.ui.format import format_number, shown_name
from app.ui.look import OKABE_ITO

BAR_COLOUR = OKABE_ITO[0]
HEAD_NAMES = "ABCDEFGH"


def scrolled(widget: QWidget) -> QScrollArea:
    """A frameless scroll area around `widget`, so a small dock scrolls instead of clipping."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    return area


def percent(weight: float) -> str:
    """A weight in percent, as the cards quote it (a table's cells never wrap; the stage
    keeps the sign with its number in running text)."""
    return f"{format_number(100 * weight, 1)} %"


def weights_table(names: tuple[str, ...], weights: np.ndarray, allowed: np.ndarray,
                  width: float, extra: tuple[str, float] | None = None) -> str:
    """Token | bar | percentage rows, the largest weight bold; masked keys say so. Names
    and percentages never wrap (a narrow column read "小/明", "89" for 89.5 %)."""
    rows = list(zip(names, weights, allowed, strict=True))
    if extra is not None:
        rows.append((extra[0], extra[1], True))
    top = max((w for _, w, ok in rows if ok), default=0.0)
    out = []
    for name, weight, ok in rows:
        if not ok:
            value, bar = f"<i>{html.escape(tr('timeline.weights.masked'))}</i>", ""
        else:
            value = percent(weight)
            value = f"<b>{value}</b>" if weight == top else value
            bar = (f"<table cellspacing=0 cellpadding=0><tr><td bgcolor='{BAR_COLOUR}' "
                   f"width={max(1, round(weight * width))} height=12></td></tr></table>")
        out.append(f"<tr><td nowrap>{html.escape(shown_name(name))}&nbsp;</td><td>{bar}</td>"
                   f"<td nowrap align=right>&nbsp;{value}</td></tr>")
    return "<table cellspacing=2>" + "".join(out) + "</table>"


def live_text(chosen: Stage | None, view: View, row: int, causal: bool, width: float) -> str:
    """The live view of a stage that drives no widget of its own: the scorer it sets, or
    the query row's weights (one table per head for the heads stage)."""
    if chosen is None or chosen.panel == "none":
        if chosen is None or chosen.scorer is None:
            return html.escape(tr("timeline.live.none"))
        return html.escape(tr("timeline.live.scorer", scorer=tr(f"scorer.{chosen.scorer}")))
    if view.world != "teaching":
        return html.escape(tr("timeline.need_teaching"))
    names = view.key_names
    if chosen.panel == "weights":
        key = "timeline.weights.caption_causal" if causal else "timeline.weights.caption"
        caption = tr(key, query=names[row], d=format_number(view.q.shape[1]))
        return (f"<p><b>{html.escape(caption)}</b></p>"
                + weights_table(names, view.weights[row], view.allowed[row], width))
    if not view.heads:
        return html.escape(tr("timeline.heads.none"))
    head_d = view.heads[0].columns[1] - view.heads[0].columns[0] + 1
    caption = tr("timeline.heads.caption", query=names[row], count=len(view.heads),
                 d=format_number(head_d))
    parts = [f"<p><b>{html.escape(caption)}</b></p>"]
    for index, head in enumerate(view.heads):
        first, last = head.columns
        title = tr("timeline.heads.head", name=HEAD_NAMES[index], first=first, last=last)
        parts.append(f"<p>{html.escape(title)}</p>")
        parts.append(weights_table(names, head.weights[row], view.allowed[row], width))
    return "".join(parts)
