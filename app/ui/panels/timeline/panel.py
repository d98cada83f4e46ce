"""Owns the attention-evolution timeline panel: stage cards that set up the live views.

Choosing a stage is one undo step (a macro of document edits: world, scorer, options); the
panel then shows the stage's card and a live widget read from `document.view`. It never
touches another panel: the heatmap and friends follow the document's options.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.figures import live_teaching_figures
from app.model.reshape import role_row
from app.model.timeline import STAGES, Stage, stage
from app.state.document import Document
from app.ui.fonts import READING, emphasize
from app.ui.format import format_figure, format_number, format_score, shown_name
from app.ui.lesson_values import lesson_values
from app.ui.look import OKABE_ITO
from app.ui.panels.base import Panel
from app.ui.panels.timeline.cards import StageStrip, card_html
from app.ui.panels.timeline.kv_chart import KVChart
from app.ui.panels.timeline.rope_page import RopePage
from app.ui.widgets.reshaped_note import ReshapedNote
from app.ui.widgets.rich_label import rich_label

SINK_RANGE = (-40, 60)
"""Sink-logit slider in tenths: −4.0 … 6.0 spans "takes nothing" to "takes almost all"."""
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
    return f"{format_number(100 * weight, 1)} %"


def weights_table(names: tuple[str, ...], weights: np.ndarray, allowed: np.ndarray,
                  width: float, extra: tuple[str, float] | None = None) -> str:
    """Token | bar | percentage rows, the largest weight bold; masked keys say so."""
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
        out.append(f"<tr><td>{html.escape(shown_name(name))}&nbsp;</td><td>{bar}</td>"
                   f"<td align=right>&nbsp;{value}</td></tr>")
    return "<table cellspacing=2>" + "".join(out) + "</table>"


class TimelinePanel(Panel):
    """Two tracks of stages; the chosen stage's card, and a live view of what it changes."""

    name = "timeline"
    title_key = "timeline.title"

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.figures = document.figures
        self.values: dict[str, str] = {}
        self.strip = StageStrip()
        self.strip.expanded.connect(self.choose_stage)
        self.card = QLabel()
        self.card.setObjectName("timeline_card")
        self.card.setWordWrap(True)
        self.card.setTextFormat(Qt.TextFormat.RichText)
        self.card.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.card.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.strip.moved.connect(lambda _chip: self._show_card())
        self.live = QStackedWidget()
        self.live_label = rich_label("timeline_live_text")
        self.kv = KVChart(document.data)
        self.rope = RopePage(document)
        text_page = scrolled(self.live_label)
        self.pages = {"none": text_page, "weights": text_page, "heads": text_page,
                      "rope": scrolled(self.rope), "sink": scrolled(self._build_sink()),
                      "kv": scrolled(self.kv)}
        for page in dict.fromkeys(self.pages.values()):
            self.live.addWidget(page)
        for widget in (self.card, self.live):  # the card and every live page read at 12 pt
            emphasize(widget, READING)
        self.body = body = QHBoxLayout()
        body.addWidget(scrolled(self.card), 3)
        body.addWidget(self.live, 2)
        content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(4, 4, 4, 4)
        column.addWidget(self.strip)  # its chips wrap: as tall as they need, never sideways
        column.addWidget(ReshapedNote(document, "timeline_reshaped"))  # cards quote the lesson
        column.addLayout(body, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scrolled(content))
        self.setFocusProxy(self.strip)
        self.apply_look()
        self.retranslate()

    def _build_sink(self) -> QWidget:
        page = QWidget()
        self.sink_box = QCheckBox()
        self.sink_box.setObjectName("timeline_sink_enable")
        self.sink_box.toggled.connect(self._on_sink_toggled)
        self.sink_slider = QSlider(Qt.Orientation.Horizontal)
        self.sink_slider.setObjectName("timeline_sink_slider")
        self.sink_slider.setRange(*SINK_RANGE)
        self.sink_slider.setPageStep(5)
        self.sink_slider.valueChanged.connect(self._on_sink_moved)
        self.sink_slider.sliderReleased.connect(self._commit_sink)
        self.sink_value = QLabel()
        self.sink_text = rich_label("timeline_sink_text")
        row = QHBoxLayout()
        row.addWidget(self.sink_box)
        row.addWidget(self.sink_slider, 1)
        row.addWidget(self.sink_value)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.sink_text, 1)
        return page

    # ---- choosing a stage ---------------------------------------------------------------

    def choose_stage(self, stage_id: str) -> None:
        """Show a stage: the document sets it up as one undo step."""
        self.document.apply_stage(stage_id)

    def current_stage(self) -> Stage | None:
        stage_id = self.document.state.options.stage
        return stage(stage_id) if stage_id in {s.id for s in STAGES} else None

    # ---- live widgets -------------------------------------------------------------------

    def _sink_logit(self) -> float:
        return self.sink_slider.value() / 10

    def _on_sink_toggled(self, on: bool) -> None:
        self.document.set_options(sink_logit=self._sink_logit() if on else None)

    def _show_sink_value(self) -> None:
        on = self.sink_box.isChecked() or self.sink_slider.isSliderDown()
        value = format_score(self._sink_logit(), 1) if on else tr("timeline.off")
        self.sink_value.setText(tr("timeline.sink.value", value=value))

    def _on_sink_moved(self, _value: int) -> None:
        self._show_sink_value()
        if not self.sink_slider.isSliderDown():
            self._commit_sink()

    def _commit_sink(self) -> None:
        self.document.set_options(sink_logit=self._sink_logit())

    # ---- repaint ------------------------------------------------------------------------

    def refresh(self) -> None:
        chosen = self.current_stage()
        self.strip.show_expanded(chosen.id if chosen else None)
        self._show_card()
        panel = chosen.panel if chosen else "none"
        self.live.setCurrentWidget(self.pages[panel])
        wide = panel in ("kv", "rope")  # eight bar pairs, five columns: half the width
        self.body.setStretch(0, 1 if wide else 3)
        self.body.setStretch(1, 1 if wide else 2)
        if panel == "kv":
            self.kv.set_stage(chosen.id if chosen else None)
        elif panel == "rope":
            self.rope.refresh()
        elif panel == "sink":
            self._refresh_sink()
        else:
            self.live_label.setText(self._live_text(chosen))

    def _show_card(self) -> None:
        """The card of the chip the keyboard is on: ←/→ read through the stages, and only
        Enter or a click sets one up (which may change the world and scorer), so a stage
        already chosen does not hide where the keys went."""
        chosen, shown = self.current_stage(), STAGES[self.strip.current]
        if chosen is None:
            note = tr("timeline.hint")
        elif chosen.id != shown.id:
            note = tr("timeline.preview", name=tr(f"timeline.{chosen.id}.name"))
        else:
            note = ""
        hint = f"<p>{html.escape(note)}</p>" if note else ""
        self.card.setText(hint + card_html(shown, self.values, self._live_values(shown)))

    def _live_values(self, shown: Stage) -> dict[str, str | None]:
        """The card's teaching-world figures at the class's current vectors; None for each
        of them once the world is reshaped (its rows are no longer the lesson's tokens)."""
        state, data = self.document.state, self.document.data
        if state.reshaped:
            teaching = live_teaching_figures(data, data.teaching.Q, data.teaching.K)
            return {key: None for key in teaching if key in shown.figures}
        live = live_teaching_figures(data, state.teaching_q, state.teaching_k)
        return {key: format_figure(figure) for key, figure in live.items()
                if key in shown.figures}

    def _live_text(self, chosen: Stage | None) -> str:
        view = self.document.view
        width = self.look.px(140)
        if chosen is None or chosen.panel == "none":
            if chosen is None or chosen.scorer is None:
                return html.escape(tr("timeline.live.none"))
            return html.escape(tr("timeline.live.scorer", scorer=tr(f"scorer.{chosen.scorer}")))
        if view.world != "teaching":
            return html.escape(tr("timeline.need_teaching"))
        row = role_row(self.document.state, self.document.data, "query")  # or its fallback
        names = view.key_names
        d = view.q.shape[1]
        if chosen.panel == "weights":
            key = "timeline.weights.caption_causal" if self.document.state.options.causal \
                else "timeline.weights.caption"
            caption = tr(key, query=names[row], d=format_number(d))
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

    def _refresh_sink(self) -> None:
        state, view = self.document.state, self.document.view
        logit = state.options.sink_logit
        with QSignalBlocker(self.sink_box):
            self.sink_box.setChecked(logit is not None)
        if logit is not None and not self.sink_slider.isSliderDown():
            with QSignalBlocker(self.sink_slider):
                self.sink_slider.setValue(round(logit * 10))
        self._show_sink_value()
        if view.world != "teaching":
            self.sink_text.setText(html.escape(tr("timeline.need_teaching")))
            return
        row = role_row(self.document.state, self.document.data, "object")
        allowed = view.allowed[row]
        names = tuple(n for n, ok in zip(view.key_names, allowed, strict=True) if ok)
        weights = view.weights[row][allowed]
        extra = None
        note = tr("timeline.sink.no_share")
        if view.sink_weight is not None:
            share = float(view.sink_weight[row])
            extra = (tr("timeline.sink.sink"), share)
            note = tr("timeline.sink.share", share=percent(share))
        caption = tr("timeline.sink.caption", query=view.query_names[row])
        self.sink_text.setText(
            f"<p><b>{html.escape(caption)}</b></p>"
            + weights_table(names, weights, np.ones(len(names), bool), self.look.px(140), extra)
            + f"<p>{html.escape(note)}</p>")

    # ---- look and language --------------------------------------------------------------

    def apply_look(self) -> None:
        look = self.look
        self.strip.apply_look(look)
        self.kv.apply_look(look)

    def retranslate(self) -> None:
        self.values = lesson_values(self.figures, self.document.data)
        self.strip.setToolTip(tr("timeline.hint"))
        self.strip.retranslate()
        self.kv.retranslate()
        self.rope.retranslate()
        self.sink_box.setText(tr("timeline.sink.enable"))
        self.refresh()
