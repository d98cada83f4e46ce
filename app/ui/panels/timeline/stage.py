"""Owns how the timeline's body sits on the projector's stage: the card beside its live view
or above it (the bar chart and RoPE's table always, a short live view where that is what
fits), who takes which width, and the readable size of each arrangement."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QBoxLayout, QLabel, QScrollArea, QSizePolicy, QStackedWidget, QWidget

from app.ui.look import Look
from app.ui.qt_known import layout_of
from app.ui.widgets.sizes import QWIDGETSIZE_MAX
from app.ui.widgets.stage_text import least_width, stage_shaped

if TYPE_CHECKING:
    from app.ui.panels.timeline.cards import StageStrip
    from app.ui.panels.timeline.kv_chart import KVChart
    from app.ui.panels.timeline.rope_page import RopePage
    from app.ui.widgets.live_label import LiveLabel
    from app.ui.widgets.reshaped_note import ReshapedNote


class Staged(Protocol):
    """What the stage layout reads of the timeline panel (the panel itself, without an
    import back into it)."""

    body: QBoxLayout
    card: LiveLabel
    card_page: QScrollArea
    content: QWidget
    kv: KVChart
    live: QStackedWidget
    live_label: QLabel
    look: Look
    pages: dict[str, QScrollArea]
    reshaped: ReshapedNote
    rope: RopePage
    sink_text: QLabel
    sink_value: QLabel
    strip: StageStrip

    def height(self) -> int: ...

    def width(self) -> int: ...


CARD_EMS = 22
"""On the stage the card's lines are this many Chinese characters long (as wide in Latin
letters) or longer: a line a class reads without losing its place."""
LIVE_EMS = 18
"""The live view's longest line beside the card, in Chinese characters: its caption's."""
WIDE = ("kv", "rope")
"""Live views that need the whole width: eight labelled bar pairs, a five-column table."""


class StageBody:
    """The card and the live view of a `Staged`, arranged for the stage (and put back
    as the desk has them)."""

    def __init__(self, panel: Staged) -> None:
        self.panel = panel
        self.down = False
        """The card is above the live view (else beside it)."""

    def _ems(self, widget: QWidget, count: int) -> int:
        return math.ceil(count * QFontMetricsF(widget.font()).horizontalAdvance("中"))

    def live_width(self, kind: str) -> int:
        """The live view's width beside the card: its lines up to LIVE_EMS characters long,
        wider only for a table that cannot wrap (and its page's rounding)."""
        panel = self.panel
        labels = (panel.sink_text, panel.sink_value) if kind == "sink" else (panel.live_label,)
        most = self._ems(panel.live_label, LIVE_EMS)
        return max(least_width(label, most) for label in labels) + 2

    def live_height(self, kind: str, width: int) -> int:
        """The live view's height at `width`: its wrapped text, or the chart's lines (the
        legend counted under the caption, where it may wrap) over a plot of its least height."""
        panel = self.panel
        if kind == "kv":
            chart = panel.kv
            lines = sum(label.heightForWidth(width) + layout_of(chart).spacing()
                        for label in (chart.caption, chart.legend, chart.context_label,
                                      chart.focus, chart.source) if not label.isHidden())
            plot: int = chart.plot.minimumHeight()  # pyqtgraph is untyped
            return lines + plot
        page = panel.pages[kind]
        live = page.widget()
        assert live is not None  # every page scrolls one view
        # never below what its page (a scroll area) takes at the least
        text = live.heightForWidth(width) if live.hasHeightForWidth() else 0
        return max(text, live.minimumSizeHint().height(), page.minimumSizeHint().height())

    def _size(self, width: int, body: int) -> QSize:
        """The whole panel around a body `width` wide and `body` tall: the strip above it."""
        panel = self.panel
        column = layout_of(panel.content)
        margins, spacing = column.contentsMargins(), column.spacing()
        note = (panel.reshaped.heightForWidth(width) + spacing
                if panel.reshaped.isVisibleTo(cast(QWidget, panel)) else 0)  # it is the panel
        return QSize(width + margins.left() + margins.right(),
                     panel.strip.heightForWidth(width) + spacing + note + body
                     + margins.top() + margins.bottom())

    def stacked(self, kind: str, width: int) -> QSize:
        """The card above the live view, both `width` wide."""
        gap = self.panel.body.spacing()
        return self._size(width, self.panel.card.heightForWidth(width) + gap
                          + self.live_height(kind, width))

    def beside(self, kind: str, width: int) -> QSize:
        """The card beside the live view, the whole `width` wide."""
        live_w, gap = self.live_width(kind), self.panel.body.spacing()
        return self._size(width, max(self.panel.card.heightForWidth(width - gap - live_w),
                                     self.live_height(kind, live_w)))

    def readable_size(self, kind: str) -> QSize:
        """The arrangement and width (the card's lines CARD_EMS characters long or up to 2.5
        times that, in sixteenths) closest to the stage's shape; the wide live views always
        below the card."""
        panel = self.panel
        card_w, strip_w = self._ems(panel.card, CARD_EMS), panel.strip.minimumSizeHint().width()
        if kind in WIDE:
            least = (panel.kv.readable_width() if kind == "kv"
                     else panel.rope.minimumSizeHint().width())
            return self.stacked(kind, max(least, card_w, strip_w))
        side = card_w + panel.body.spacing() + self.live_width(kind)
        widths = [max(card_w * step // 16, strip_w) for step in range(16, 41)]
        return stage_shaped([*(self.stacked(kind, w) for w in widths),
                             *(self.beside(kind, max(w + side - card_w, side)) for w in widths)])

    def arrange(self, kind: str) -> None:
        """Lay the body out for the look and the room now: on the stage the card above a wide
        live view, or above a short one when that fits the height; beside it otherwise, the
        live view at its width and the card taking the rest. The desk's proportions else."""
        panel, stage, wide = self.panel, self.panel.look.stage, kind in WIDE
        margins = layout_of(panel.content).contentsMargins()  # the content's own width lags
        width = panel.width() - margins.left() - margins.right()  # the panel's, when resized
        self.down = stage and (wide or self.stacked(kind, width).height() <= panel.height())
        panel.body.setDirection(QBoxLayout.Direction.TopToBottom if self.down
                                else QBoxLayout.Direction.LeftToRight)
        panel.body.setStretch(0, 0 if self.down else (1 if wide or stage else 3))
        panel.body.setStretch(1, 1 if wide or self.down else (0 if stage else 2))
        self.fit_card()
        policy = (Qt.ScrollBarPolicy.ScrollBarAlwaysOff if stage
                  else Qt.ScrollBarPolicy.ScrollBarAsNeeded)  # the stage gives all they need
        for page in (panel.card_page, panel.live.currentWidget()):
            cast(QScrollArea, page).setVerticalScrollBarPolicy(policy)  # every page scrolls
        for page in dict.fromkeys(panel.pages.values()):  # the stage: the page shown sizes it
            shown = page is panel.live.currentWidget() or not stage
            grow = QSizePolicy.Policy.Preferred if shown else QSizePolicy.Policy.Ignored
            page.setSizePolicy(grow, grow)
        side = stage and not self.down  # the live view its width, the card the rest
        panel.card_page.setMinimumWidth(self._ems(panel.card, CARD_EMS) if side else 0)
        live = self.live_width(kind) if side else None
        panel.live.setMinimumWidth(live or 0)
        panel.live.setMaximumWidth(live or QWIDGETSIZE_MAX)

    def fit_card(self) -> None:
        """Above the live view the card is as tall as its text at its width, and the live view
        takes the rest (else the two shared the height, and the chart lost)."""
        page = self.panel.card_page
        if self.down:
            page.setFixedHeight(self.panel.card.heightForWidth(page.width()))
        else:
            page.setMinimumHeight(0)
            page.setMaximumHeight(QWIDGETSIZE_MAX)
