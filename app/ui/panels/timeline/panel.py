"""Owns the attention-evolution timeline panel: stage cards that set up the live views.

Choosing a stage is one undo step (a macro of document edits: world, scorer, options); the
panel then shows the stage's card and a live widget read from `document.view`. It never
touches another panel: the heatmap and friends follow the document's options.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6.QtCore import QEvent, QObject, QSignalBlocker, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.i18n import language, tr
from app.model.lesson.figures import live_teaching_figures
from app.model.reshape import role_row
from app.model.state import STATE_FIELDS
from app.model.timeline import STAGES, Milestone, stage
from app.state.document import Document
from app.ui.figure import Figure
from app.ui.figure_bars import RowsFigure, WeightRow
from app.ui.fonts import READING, emphasize
from app.ui.format import format_figure, format_score
from app.ui.lesson_values import lesson_values
from app.ui.panels.base import Panel
from app.ui.panels.timeline.cards import StageStrip, card_html
from app.ui.panels.timeline.kv_chart import KVChart
from app.ui.panels.timeline.rope_page import RopePage
from app.ui.panels.timeline.stage import StageBody
from app.ui.panels.timeline.tables import (
    BAR_COLOUR,
    live_groups,
    live_text,
    percent,
    rows_html,
    scrolled,
    weight_rows,
)
from app.ui.widgets.live_label import LiveLabel
from app.ui.widgets.reshaped_note import ReshapedNote
from app.ui.widgets.rich_label import rich_label
from app.ui.widgets.stage_text import (
    kept_whole,
    legible_scripts,
    unbroken,
)

SINK_RANGE = (-40, 60)
"""Sink-logit slider in tenths: −4.0 … 6.0 spans "takes nothing" to "takes almost all"."""


class TimelinePanel(Panel):
    """Two tracks of stages; the chosen stage's card, and a live view of what it changes."""

    name = "timeline"
    depends_on = STATE_FIELDS
    """Each stage's figures from the class's own vectors and options."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.figures = document.figures
        self.values: dict[str, str] = {}
        self._written: tuple[tuple[object, ...], str] | None = None
        """What the card was last written from, and the card."""
        self.strip = StageStrip()
        self.strip.expanded.connect(self.choose_stage)
        # a live label: the card's figures follow a drag, and a QLabel laid its rich text
        # out again for every width it was asked about (four times a step) and at its paint
        self.card = LiveLabel("timeline_card")
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
        self.body = body = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.card_page = scrolled(self.card.holder)
        self.staging = StageBody(self)  # the card beside or above the live view, staged
        self.card_page.installEventFilter(self)
        body.addWidget(self.card_page, 3)
        body.addWidget(self.live, 2)
        self.content = content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(4, 4, 4, 4)
        column.addWidget(self.strip)  # its chips wrap: as tall as they need, never sideways
        self.reshaped = ReshapedNote(document, "timeline_reshaped")  # cards quote the lesson
        column.addWidget(self.reshaped)
        column.addLayout(body, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scrolled(content))
        self.setFocusProxy(self.strip)
        self.apply_look()
        self.retranslate()
        self.refresh()

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

    def current_stage(self) -> Milestone | None:
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
        if panel == "kv":
            self.kv.set_stage(chosen.id if chosen else None)
        elif panel == "rope":
            self.rope.refresh()
        elif panel == "sink":
            self._refresh_sink()
        else:
            self.live_label.setText(self._staged(self._live_text(chosen), self.live_label))
        self.staging.arrange(panel)

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
        self.card.setText(self._staged(hint + self._card(shown), self.card))
        self.staging.fit_card()

    def _card(self, shown: Milestone) -> str:
        """The card of `shown`, written again only when it, its live figures, the lesson's
        or the language changed: a drag step recomputes the figures, which seldom move,
        and writing the card out cost most of the panel's refresh."""
        live = self._live_values(shown)
        written = (shown, self.values, live, language())
        if self._written is None or self._written[0] != written:
            self._written = written, card_html(shown, self.values, live)
        return self._written[1]

    def _staged(self, text: str, label: QLabel) -> str:
        """Rich text as the stage shows it: sub- and superscripts at least its least size,
        no line break inside a number, its unit or a token's name."""
        if not self.look.stage:
            return text
        data = self.document.data  # the cards quote both worlds' tokens
        names = (*self.document.view.key_names, data.dialogue.query_token,
                 *data.dialogue.key_tokens, *data.teaching.tokens)
        return kept_whole(unbroken(legible_scripts(text, label.font(), True)), names)

    def _live_values(self, shown: Milestone) -> dict[str, str | None]:
        """The card's teaching-world figures at the class's current vectors; None for each
        of them once the world is reshaped (its rows are no longer the lesson's tokens)."""
        state, data = self.document.state, self.document.data
        if state.reshaped:
            teaching = live_teaching_figures(data, data.teaching.Q, data.teaching.K,
                                             shown.figures)
            return dict.fromkeys(teaching)
        live = live_teaching_figures(data, state.teaching_q, state.teaching_k, shown.figures)
        return {key: format_figure(figure) for key, figure in live.items()}

    def _live_text(self, chosen: Milestone | None) -> str:
        state = self.document.state
        row = role_row(state, self.document.data, "query")  # or its fallback
        return live_text(chosen, self.document.view, row, state.options.causal,
                         self.look.px(140))

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
        caption, rows, note = self._sink_rows()
        self.sink_text.setText(self._staged(
            f"<p><b>{html.escape(caption)}</b></p>" + rows_html(rows, self.look.px(140))
            + f"<p>{html.escape(note)}</p>", self.sink_text))

    def _sink_rows(self) -> tuple[str, list[WeightRow], str]:
        """The object's row of weights in the teaching world with the sink's share after
        them: its caption, its rows and the note under them."""
        view = self.document.view
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
        return caption, weight_rows(names, weights, np.ones(len(names), bool), extra), note

    def figure(self) -> Figure | None:
        """The chosen stage's live view without its controls: the weights, heads and sink
        stages' weights as bars with their percentages under its caption, the KV stages' bytes
        and RoPE's scores as tables. None with no stage chosen or for a stage whose live view
        is words (the scorer it sets, or the world it needs): a figure of a sentence would
        only set it again, so those export as they look."""
        chosen, view = self.current_stage(), self.document.view
        if chosen is not None and chosen.panel == "kv":
            return self.kv.figure()
        if chosen is not None and chosen.panel == "rope":
            return self.rope.figure()
        if chosen is not None and chosen.panel == "sink" and view.world == "teaching":
            caption, rows, _note = self._sink_rows()
            return RowsFigure(caption, [("", rows)], BAR_COLOUR)
        state = self.document.state
        groups = live_groups(chosen, view, role_row(state, self.document.data, "query"),
                             state.options.causal)
        return None if groups is None else RowsFigure(groups[0], groups[1], BAR_COLOUR)

    # ---- look and language --------------------------------------------------------------

    def apply_look(self) -> None:
        """On the stage the scene has chosen the stage and its settings: the sink's switch
        and slider, the context slider and RoPE's shift button stay on the teacher's desk
        (their values stay in words)."""
        look = self.look
        self.strip.apply_look(look)
        self.kv.apply_look(look)
        self.rope.shift_button.setHidden(look.stage)
        least = 1 if look.stage else 0  # as tall as their text at their width, not narrower
        for label in (self.card, self.live_label, self.sink_text):
            label.setMinimumSize(least, least)
        for widget in (self.sink_box, self.sink_slider):
            widget.setHidden(look.stage)

    def readable_size(self) -> QSize:
        """On the stage: both tracks' chips, and the card beside or above the live view at
        the width closest to the stage's shape (`StageBody`)."""
        if not self.look.stage:
            return super().readable_size()
        chosen = self.current_stage()
        return self.staging.readable_size(chosen.panel if chosen else "none")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The card's page took a new width: above the live view, its height follows."""
        if watched is self.card_page and event.type() == QEvent.Type.Resize:
            self.staging.fit_card()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """On the stage a new height may put a short live view under the card, or beside."""
        super().resizeEvent(event)
        if self.look.stage:
            chosen = self.current_stage()
            self.staging.arrange(chosen.panel if chosen else "none")

    def retranslate(self) -> None:
        self.values = lesson_values(self.figures, self.document.data)
        self.strip.setToolTip(tr("timeline.hint"))
        self.strip.retranslate()
        self.kv.retranslate()
        self.rope.retranslate()
        self.sink_box.setText(tr("timeline.sink.enable"))
