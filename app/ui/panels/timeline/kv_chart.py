"""Owns the KV-memory bar chart of the timeline: bytes per token and per context, log scale.

Bars come from `app.model.timeline.kv_bars` (computed by app.model.memory from the configs).
Heights are log10(bytes) with byte-unit ticks, so 16 KiB and 96 GiB fit one readable axis.
The context length is this chart's own display choice, not lesson state.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QSlider, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.lesson.data import LessonData
from app.model.modelconfig import ModelConfig
from app.model.timeline import KVBar, kv_bars, kv_context
from app.ui.figure_table import TableFigure, TableRow
from app.ui.fonts import SMALL, emphasize, scaled_font
from app.ui.format import format_bytes, format_number
from app.ui.look import OKABE_ITO, Look
from app.ui.widgets.axes import cache_axes
from app.ui.widgets.stage_text import kept_whole

MIN_EXPONENT, MAX_EXPONENT = 10, 20
"""Context slider: 2^10 … 2^20 tokens, the range the lesson's models span."""

UNIT_NAMES = ("B", "KiB", "MiB", "GiB", "TiB")
PLOT_LEAST = 200
"""Pixels at 100 %: the plot's least height on the stage, eight bars over five decades."""
PER_TOKEN, WHOLE = "per_token", "whole"
COLOURS = {PER_TOKEN: OKABE_ITO[4], WHOLE: OKABE_ITO[0]}
HIGHLIGHT = OKABE_ITO[5]
LIT_FILL = "#FADCC7"
"""The highlight lightened, behind a lit row of the figure's table: black text reads on it."""
MODEL_KEYS = {
    "deepseek-llm-67b": "timeline.kv.model.dsllm67b",
    "deepseek-v2": "timeline.kv.model.dsv2",
    "deepseek-v3": "timeline.kv.model.dsv3",
    "glm-5.3": "timeline.kv.model.glm53",
}


def _ticks() -> list[list[tuple[float, str]]]:
    """Major ticks at each binary unit, minor ticks at 10× and 100× of it."""
    major, minor = [], []
    for power, unit in enumerate(UNIT_NAMES):
        base = 1024.0**power
        major.append((math.log10(base), f"1 {unit}"))
        if power < len(UNIT_NAMES) - 1:
            minor += [(math.log10(base * f), f"{f} {unit}") for f in (10, 100)]
    return [major, minor]


class KVChart(QWidget):
    """Two bars per scheme: what one token costs, and a whole context of the chosen length."""

    def __init__(self, data: LessonData, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timeline_kv")
        self.data = data
        self.bars: tuple[KVBar, ...] = kv_bars(data)
        self.stage: str | None = None
        self.look = Look()
        self.plot = pg.PlotWidget(background=None)
        self.plot.setObjectName("timeline_kv_plot")
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setMinimumHeight(60)
        # The wrapped lines around it make the page height-for-width: without this the plot's
        # own (tall) size hint would set the page's height and push the axis out of view.
        self.plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.plot.getAxis("left").setTicks(_ticks())
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        self.items = {PER_TOKEN: pg.BarGraphItem(x=[], height=[], width=0.38),
                      WHOLE: pg.BarGraphItem(x=[], height=[], width=0.38)}
        for item in self.items.values():
            self.plot.addItem(item)
        cache_axes(self.plot)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.legend = QLabel()
        self.legend.setWordWrap(True)  # cut short, it hid the second key
        self.context_label = QLabel()
        self.focus = QLabel()
        self.source = QLabel()
        self.source.setObjectName("timeline_kv_source")
        self.source.setWordWrap(True)
        self.source.setTextFormat(Qt.TextFormat.PlainText)
        self.focus.setObjectName("timeline_kv_focus")
        self.focus.setWordWrap(True)
        self.focus.setTextFormat(Qt.TextFormat.RichText)
        for label in (self.caption, self.legend, self.context_label, self.focus):  # 11 pt
            emphasize(label, bold=label is self.caption)
        emphasize(self.source, SMALL)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("timeline_kv_context")
        self.slider.setRange(MIN_EXPONENT, MAX_EXPONENT)
        self.slider.setPageStep(1)
        native = data.anchor.max_position_embeddings or 2**MIN_EXPONENT
        self.slider.setValue(min(MAX_EXPONENT, max(MIN_EXPONENT, round(math.log2(native)))))
        self.slider.valueChanged.connect(lambda _value: self.redraw())
        top = QHBoxLayout()
        top.addWidget(self.caption)
        top.addWidget(self.legend)
        top.addStretch(1)
        controls = QHBoxLayout()
        controls.addWidget(self.context_label)
        controls.addWidget(self.slider, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addLayout(controls)
        layout.addWidget(self.focus)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.source)

    @property
    def tokens(self) -> int:
        return 2 ** self.slider.value()

    def set_stage(self, stage_id: str | None) -> None:
        """Light the stage's bars and show the context its card talks about; the slider stays
        the class's to move until another stage is chosen."""
        if stage_id == self.stage:
            return
        self.stage = stage_id
        tokens = kv_context(stage_id, self.data) if stage_id is not None else None
        if tokens:
            exponent = min(MAX_EXPONENT, max(MIN_EXPONENT, round(math.log2(tokens))))
            with QSignalBlocker(self.slider):
                self.slider.setValue(exponent)
        self.redraw()

    def lit(self) -> tuple[str, ...]:
        """The ids of the bars the current stage highlights."""
        return tuple(bar.id for bar in self.bars if self.stage in bar.stages)

    def bar_bytes(self, series: str) -> dict[str, int]:
        """Bytes each bar of a series stands for (per token, or for the chosen context)."""
        if series == PER_TOKEN:
            return {bar.id: bar.per_token for bar in self.bars if bar.per_token}
        return {bar.id: bar.bytes_for(self.tokens) for bar in self.bars}

    def bar_tops(self, series: str) -> np.ndarray:
        """The drawn top of every bar of a series, in log10(bytes)."""
        opts = self.items[series].opts
        return np.asarray(opts["y0"], dtype=float) + np.asarray(opts["height"], dtype=float)

    def _label(self, bar: KVBar) -> str:
        model = tr("timeline.kv.anchor") if bar.model == "anchor" else (
            tr(MODEL_KEYS[bar.model]) if bar.model in MODEL_KEYS
            else self.data.frontier.models[bar.model].display_name)
        scheme = tr("timeline.kv.state") if bar.scheme == "state" else bar.scheme
        mark = "†" if self._model(bar).provenance == "lesson" else ""
        return f"{scheme}\n{model}{mark}"

    def redraw(self) -> None:
        look = self.look
        floor = math.log10(1024)
        self.context_label.setText(tr("timeline.kv.context", tokens=format_number(self.tokens)))
        tops_all: list[float] = []
        for series, offset in ((PER_TOKEN, -0.2), (WHOLE, 0.2)):
            values = self.bar_bytes(series)
            xs = [i + offset for i, bar in enumerate(self.bars) if bar.id in values]
            tops = [math.log10(values[bar.id]) for bar in self.bars if bar.id in values]
            lit = [self.stage in bar.stages for bar in self.bars if bar.id in values]
            brushes = [pg.mkBrush(HIGHLIGHT if on else COLOURS[series]) for on in lit]
            pens = [pg.mkPen(look.theme.foreground, width=look.px(2.5)) if on
                    else pg.mkPen(None) for on in lit]
            self.items[series].setOpts(x=xs, y0=[floor] * len(xs),
                                       height=[t - floor for t in tops], width=0.38,
                                       brushes=brushes, pens=pens)
            tops_all += tops
        self.plot.getAxis("bottom").setTicks([self._bottom_ticks(), []])
        self.plot.setXRange(-0.6, len(self.bars) - 0.1, padding=0)
        self.plot.setYRange(floor, max(tops_all, default=floor + 1) + 0.4, padding=0)
        self.plot.setToolTip("\n".join(self.describe(bar) for bar in self.bars))
        self._show_focus()

    def _bottom_ticks(self) -> list[tuple[float, str]]:
        """Each bar's scheme under it, and its model's name on a second line under the first
        bar of that model's run ("anchor" once under its four bars, not four times over)."""
        labels = [self._label(bar).split("\n") for bar in self.bars]
        return [(i, scheme if i and labels[i - 1][1] == model else f"{scheme}\n{model}")
                for i, (scheme, model) in enumerate(labels)]

    def slot_width(self) -> float:
        """The width one bar's labels need on the axis: its scheme, or its model's name where
        that model has this one bar only."""
        metrics = QFontMetricsF(self.plot.getAxis("bottom").style["tickFont"] or self.font())
        texts = [line for _, text in self._bottom_ticks() for line in text.split("\n")]
        return max(metrics.horizontalAdvance(text) for text in texts) + metrics.height()

    def readable_width(self) -> int:
        """The chart's least width: every bar's labels side by side, and the byte axis (its
        widest unit label, as pyqtgraph lays it out)."""
        left = self.plot.getAxis("left")
        metrics = QFontMetricsF(left.style["tickFont"] or self.font())
        units = max(metrics.horizontalAdvance(text) for level in _ticks() for _, text in level)
        room = units + left.style["tickTextOffset"][0] + max(0, left.style["tickLength"]) + 8
        return math.ceil(room + len(self.bars) * self.slot_width())

    def _model(self, bar: KVBar) -> ModelConfig:
        return self.data.anchor if bar.model == "anchor" else self.data.frontier.models[bar.model]

    def hypothetical(self, bar: KVBar) -> bool:
        """The chosen context is past what the model was built for: a what-if, not a config."""
        native = self._model(bar).max_position_embeddings
        return (bar.scheme != "state" and native is not None and bool(native)
                and self.tokens > native)

    def describe(self, bar: KVBar) -> str:
        """One bar in words (its tooltip line): per token, the chosen context, and whether
        that context is a hypothetical request for this model."""
        model = self._model(bar)
        total = format_bytes(bar.bytes_for(self.tokens))
        if bar.scheme == "state":
            return tr("timeline.kv.tip_state", model=model.display_name, total=total)
        line = tr("timeline.kv.tip", model=model.display_name, scheme=bar.scheme,
                  per_token=format_bytes(bar.per_token), total=total,
                  tokens=format_number(self.tokens))
        if self.hypothetical(bar):
            line += tr("timeline.kv.hypothetical",
                       native=format_number(model.max_position_embeddings or 0))
        return line

    def _show_focus(self) -> None:
        """The lit bars' whole-context sizes, two to a row (they would crowd the plot as
        labels), a mark on each hypothetical one and one line saying what the mark means."""
        lit = [bar for bar in self.bars if self.stage in bar.stages]
        cells = []
        for bar in lit:
            # the model is enough beside a lit bar (the axis names its scheme), except for the
            # fixed state, which would otherwise read as one more of the anchor's caches
            scheme, model = self._label(bar).split("\n")
            name = html.escape(f"{scheme} · {model}" if bar.scheme == "state" else model)
            mark = "*" if self.hypothetical(bar) else ""
            total = f"<b>{format_bytes(bar.bytes_for(self.tokens))}</b>{mark}"
            cells.append(f"<td nowrap>{tr('timeline.kv.cell', name=name, total=total)}"
                         "&nbsp;&nbsp;&nbsp;</td>")
        rows = "".join("<tr>" + "".join(cells[i:i + 2]) + "</tr>"
                       for i in range(0, len(cells), 2))
        note = (f"<br>* {html.escape(tr('timeline.kv.beyond'))}"
                if any(self.hypothetical(bar) for bar in lit) else "")
        self.focus.setText(f"<table cellspacing=0>{rows}</table>{note}" if lit else "")
        self.focus.setVisible(bool(lit))

    def figure(self) -> TableFigure:
        """The bars' numbers as a table: a row per bar with its scheme and model as the axis
        names them, its bytes per token and for the chosen context (marked when that is past
        the model's native context), the stage's bars lit; a log axis prints no values, a
        table prints them all."""
        per_token, whole = self.bar_bytes(PER_TOKEN), self.bar_bytes(WHOLE)
        rows = []
        for bar in self.bars:
            scheme, model = self._label(bar).split("\n")
            lit = self.stage in bar.stages
            total = format_bytes(whole[bar.id]) + ("*" if self.hypothetical(bar) else "")
            cells = (scheme, model, format_bytes(per_token[bar.id]) if bar.id in per_token
                     else "—", total)
            rows.append(TableRow(cells, LIT_FILL if lit else None, lit))
        notes = [f"* {tr('timeline.kv.beyond')}"] if any(map(self.hypothetical, self.bars)) else []
        header = (tr("timeline.kv.col_scheme"), tr("timeline.kv.col_model"),
                  tr("timeline.kv.per_token"), tr("timeline.kv.whole"))
        return TableFigure(tr("timeline.kv.table_title"), header, rows,
                           (False, False, True, True), self.context_label.text(),
                           [*notes, self.source.text()])

    def retranslate(self) -> None:
        self.caption.setText(tr("timeline.kv.caption"))
        anchor = self.data.anchor
        self.source.setText(tr("timeline.kv.source", anchor=anchor.display_name,
                               config=anchor.config_of or anchor.display_name))
        square = "<span style='color:{c}'>■</span>&nbsp;{t}"  # each key whole, the two may wrap

        def whole(text: str) -> str:
            return kept_whole(html.escape(text), [text]).replace(" ", "&nbsp;")

        self.legend.setText("&nbsp; ".join(
            square.format(c=COLOURS[s], t=whole(tr(k)))
            for s, k in ((PER_TOKEN, "timeline.kv.per_token"), (WHOLE, "timeline.kv.whole"))))
        self.redraw()

    def apply_look(self, look: Look) -> None:
        """Fonts, pens and the axis's room for two lines of labels; on the stage the context
        slider gives way to the context in words (the stage chose it)."""
        self.look = look
        font = scaled_font(SMALL)
        for axis in ("left", "bottom"):
            item = self.plot.getAxis(axis)
            item.setStyle(tickFont=font)
            item.setTextPen(pg.mkPen(look.theme.foreground))
            item.setPen(pg.mkPen(look.theme.muted))
        axis = self.plot.getAxis("bottom")  # two lines of labels, their offset and the ticks
        lines = 2 * QFontMetricsF(font).height() + axis.style["tickTextOffset"][1] + max(
            0, axis.style["tickLength"]) + look.px(8)
        axis.setHeight(math.ceil(max(look.px(44), lines)))
        self.slider.setHidden(look.stage)
        self.plot.setMinimumHeight(int(look.px(PLOT_LEAST) + axis.height() if look.stage
                                       else 60))
        self.redraw()
