"""Owns the KV-memory bar chart of the timeline: bytes per token and per context, log scale.

Bars come from `app.model.timeline.kv_bars` (computed by app.model.memory from the configs).
Heights are log10(bytes) with byte-unit ticks, so 16 KiB and 96 GiB fit one readable axis.
The context length is this chart's own display choice, not lesson state.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSlider, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.data import LessonData
from app.model.timeline import KVBar, kv_bars
from app.ui.fonts import SMALL, emphasize, scaled_font
from app.ui.format import format_bytes, format_number
from app.ui.look import OKABE_ITO, Look

MIN_EXPONENT, MAX_EXPONENT = 10, 20
"""Context slider: 2^10 … 2^20 tokens, the range the lesson's models span."""

UNIT_NAMES = ("B", "KiB", "MiB", "GiB", "TiB")
PER_TOKEN, WHOLE = "per_token", "whole"
COLOURS = {PER_TOKEN: OKABE_ITO[4], WHOLE: OKABE_ITO[0]}
HIGHLIGHT = OKABE_ITO[5]
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
        self.plot.getAxis("left").setTicks(_ticks())
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        self.items = {PER_TOKEN: pg.BarGraphItem(x=[], height=[], width=0.38),
                      WHOLE: pg.BarGraphItem(x=[], height=[], width=0.38)}
        for item in self.items.values():
            self.plot.addItem(item)
        self.labels: list[pg.TextItem] = []
        self.caption = QLabel()
        self.legend = QLabel()
        self.context_label = QLabel()
        for label in (self.caption, self.legend, self.context_label):  # 11 pt in a 12 pt page
            emphasize(label, bold=label is self.caption)
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
        layout.addWidget(self.plot, 1)

    @property
    def tokens(self) -> int:
        return 2 ** self.slider.value()

    def set_stage(self, stage_id: str | None) -> None:
        if stage_id != self.stage:
            self.stage = stage_id
            self.redraw()

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
        return f"{scheme}\n{model}"

    def redraw(self) -> None:
        look = self.look
        floor = math.log10(1024)
        self.context_label.setText(tr("timeline.kv.context", tokens=format_number(self.tokens)))
        for label in self.labels:
            self.plot.removeItem(label)
        self.labels = []
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
        whole = self.bar_bytes(WHOLE)
        lit_bars = [(i, bar) for i, bar in enumerate(self.bars) if self.stage in bar.stages]
        for step, (i, bar) in enumerate(lit_bars):  # neighbours alternate height: no overlap
            self._add_value(i + 0.2, math.log10(whole[bar.id]), format_bytes(whole[bar.id]),
                            raised=step % 2 == 1)
        self.plot.getAxis("bottom").setTicks(
            [[(i, self._label(bar)) for i, bar in enumerate(self.bars)], []])
        self.plot.setXRange(-0.6, len(self.bars) - 0.1, padding=0)
        self.plot.setYRange(floor, max(tops_all, default=floor + 1) + 1.6, padding=0)
        self._tooltips()

    def _add_value(self, x: float, top: float, text: str, raised: bool) -> None:
        label = pg.TextItem(text, color=self.look.theme.foreground,
                            anchor=(0.5, 2.0 if raised else 1.0))
        label.setFont(scaled_font(SMALL, bold=True))
        label.setPos(x, top)
        self.plot.addItem(label)
        self.labels.append(label)

    def _tooltips(self) -> None:
        lines = []
        for bar in self.bars:
            model = (self.data.anchor.display_name if bar.model == "anchor"
                     else self.data.frontier.models[bar.model].display_name)
            total = format_bytes(bar.bytes_for(self.tokens))
            if bar.scheme == "state":
                lines.append(tr("timeline.kv.tip_state", model=model, total=total))
            else:
                lines.append(tr("timeline.kv.tip", model=model, scheme=bar.scheme,
                                per_token=format_bytes(bar.per_token), total=total,
                                tokens=format_number(self.tokens)))
        self.plot.setToolTip("\n".join(lines))

    def retranslate(self) -> None:
        self.caption.setText(tr("timeline.kv.caption"))
        square = "<span style='color:{c}'>■</span> {t}"
        self.legend.setText("&nbsp;&nbsp;".join(
            square.format(c=COLOURS[s], t=tr(k))
            for s, k in ((PER_TOKEN, "timeline.kv.per_token"), (WHOLE, "timeline.kv.whole"))))
        self.redraw()

    def apply_look(self, look: Look) -> None:
        self.look = look
        for axis in ("left", "bottom"):
            item = self.plot.getAxis(axis)
            item.setStyle(tickFont=scaled_font(SMALL))
            item.setTextPen(pg.mkPen(look.theme.foreground))
            item.setPen(pg.mkPen(look.theme.muted))
        self.plot.getAxis("bottom").setHeight(int(look.px(44)))
        self.redraw()
