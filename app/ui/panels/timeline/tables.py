"""Owns the timeline's live text: the weights tables (a bar and a percentage per key) of the
stages that drive no widget of their own, the rows both those tables and the panel's figure
draw, and the frameless scroll area each live page sits in."""

from __future__ import annotations

import html

import numpy as np
from PySide6.QtWidgets import QScrollArea, QWidget

from app.i18n import tr
from app.model.timeline import Milestone
from app.model.view import View
from app.ui.figure_bars import WeightRow
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


def weight_rows(names: tuple[str, ...], weights: np.ndarray, allowed: np.ndarray,
                extra: tuple[str, float] | None = None) -> list[WeightRow]:
    """One row per key (and `extra`, the sink): its name, weight and percentage, the
    largest weight strong; a masked key has no weight and says so. The table and the
    figure both draw these."""
    rows = list(zip(names, weights.tolist(), allowed.tolist(), strict=True))
    if extra is not None:
        rows.append((extra[0], extra[1], True))
    top = max((w for _, w, ok in rows if ok), default=0.0)
    return [WeightRow(shown_name(name), weight, percent(weight), weight == top) if ok
            else WeightRow(shown_name(name), None, tr("timeline.weights.masked"))
            for name, weight, ok in rows]


def live_groups(chosen: Milestone | None, view: View, row: int,
                causal: bool) -> tuple[str, list[tuple[str, list[WeightRow]]]] | None:
    """The caption and the weight rows (one group per head) of a stage whose live view is
    the query row's weights; None for a stage that shows words only."""
    if (chosen is None or chosen.panel not in ("weights", "heads") or view.world != "teaching"
            or (chosen.panel == "heads" and not view.heads)):
        return None
    names = view.key_names
    if chosen.panel == "weights":
        key = "timeline.weights.caption_causal" if causal else "timeline.weights.caption"
        caption = tr(key, query=names[row], d=format_number(view.q.shape[1]))
        return caption, [("", weight_rows(names, view.weights[row], view.allowed[row]))]
    head_d = view.heads[0].columns[1] - view.heads[0].columns[0] + 1
    caption = tr("timeline.heads.caption", query=names[row], count=len(view.heads),
                 d=format_number(head_d))
    return caption, [
        (tr("timeline.heads.head", name=HEAD_NAMES[index], first=head.columns[0],
            last=head.columns[1]),
         weight_rows(names, head.weights[row], view.allowed[row]))
        for index, head in enumerate(view.heads)]


def rows_html(rows: list[WeightRow], width: float) -> str:
    """Weight rows as an HTML table, a weight of 1 `width` pixels long."""
    out = []
    for row in rows:
        if row.weight is None:
            value, bar = f"<i>{html.escape(row.text)}</i>", ""
        else:
            value = f"<b>{row.text}</b>" if row.strong else row.text
            bar = (f"<table cellspacing=0 cellpadding=0><tr><td bgcolor='{BAR_COLOUR}' "
                   f"width={max(1, round(row.weight * width))} height=12></td></tr></table>")
        out.append(f"<tr><td nowrap>{html.escape(row.name)}&nbsp;</td><td>{bar}</td>"
                   f"<td nowrap align=right>&nbsp;{value}</td></tr>")
    return "<table cellspacing=2>" + "".join(out) + "</table>"


def live_text(chosen: Milestone | None, view: View, row: int, causal: bool, width: float) -> str:
    """The live view of a stage that drives no widget of its own: the scorer it sets, or
    the query row's weights (one table per head for the heads stage)."""
    if chosen is None or chosen.panel == "none":
        if chosen is None or chosen.scorer is None:
            return html.escape(tr("timeline.live.none"))
        return html.escape(tr("timeline.live.scorer", scorer=tr(f"scorer.{chosen.scorer}")))
    if view.world != "teaching":
        return html.escape(tr("timeline.need_teaching"))
    groups = live_groups(chosen, view, row, causal)
    if groups is None:
        return html.escape(tr("timeline.heads.none"))
    caption, tables = groups
    parts = [f"<p><b>{html.escape(caption)}</b></p>"]
    for title, rows in tables:
        if title:
            parts.append(f"<p>{html.escape(title)}</p>")
        parts.append(rows_html(rows, width))
    return "".join(parts)
