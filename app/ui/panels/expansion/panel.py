"""Owns the term-by-term view of the selected pair: the chosen scorer's own calculation
written out with the pair's real numbers and ending on the score the heatmap shows (q·k and
|q|·|k|·cos θ, ÷ √d, ÷ |q| ÷ |k|, the difference vector, the normalised q′ and k′, or the additive
steps; written.py, additive.py), and a bar per term of its sum with the largest one marked."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPen,
    QResizeEvent,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.nice import HeldRange, snap_out
from app.model.scoring import Undefined, get_scorer
from app.model.scoring.worked import AdditiveWork, pair_work, worked
from app.model.state import STATE_FIELDS
from app.state.document import Document
from app.ui.figure_bars import BarsFigure
from app.ui.fonts import DISPLAY, HEADING, READING, STRONG, emphasize, scaled_font
from app.ui.format import format_percent, name_tip, pair_symbol, shown_name
from app.ui.look import SELECTION_COLOUR, diverging_map
from app.ui.panels.base import Panel
from app.ui.panels.expansion import additive
from app.ui.panels.expansion.bars import TermBars
from app.ui.panels.expansion.written import NBSP, WRITERS, Styles, Written, number, unbroken
from app.ui.widgets.axes import cache_axes
from app.ui.widgets.live_label import LiveLabel
from app.ui.widgets.scroll import FittedScrollArea
from app.ui.widgets.tips import set_tip


def tick_row_height(axis: pg.AxisItem, font: QFont) -> float:
    """Room under the bars for one row of tick labels: the font's own line height (points
    become more pixels on a screen set to a higher DPI, where a fixed pixel height cut the
    subscripts of q₁k₁ off) plus the tick and pyqtgraph's gap before the text."""
    style = axis.style
    return (QFontMetricsF(font).height() + max(0.0, float(style["tickLength"]))
            + float(style["tickTextOffset"][1]) + 2.0)


BARS_LINES = 4
"""The bars' least height on the stage, in lines of their tick labels: a few values up the
side, the terms' names underneath, and bars tall enough to compare."""


class BarsView(pg.PlotWidget):
    """The products' plot asks for a height from its minimum and grows into the room left.

    A graphics view's own size hint is its last size, so a plot once laid out tall (say,
    before the window first showed) would keep the scrolled page that tall for good.
    """

    snug = False
    """On the stage: ask for the least size only (beside the text, the least width too), so
    the results keep the room and the bars grow into what is left."""

    def sizeHint(self) -> QSize:
        width = self.minimumWidth() or super().sizeHint().width()
        return QSize(width, self.minimumHeight() * (2 if self.snug else 3) // 2)


class ExpansionPanel(Panel):
    """Shows why the selected score is what it is, one dimension at a time."""

    name = "expansion"
    scroll: FittedScrollArea  # type: ignore[assignment]  # the attribute hides QWidget.scroll()
    depends_on = STATE_FIELDS
    """The selected pair of any world, under any scorer: every field can change it."""
    holds_while_dragging = True
    """The bars' axis holds still during a drag and refits when it ends."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.heading = LiveLabel("expansion_heading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)  # names tokens: never markup
        self.equation = LiveLabel("expansion_equation")
        self.equation.setTextFormat(Qt.TextFormat.RichText)
        # the sum can be copied; rich text is laid out as a document anyway, so selecting
        # costs nothing more, whereas it would make the plain lines documents too
        self.equation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bars_plot = BarsView()
        self.bars_plot.setObjectName("expansion_bars")
        plot = self.bars_plot.getPlotItem()
        plot.setMouseEnabled(False, False)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        self._drawn: tuple[object, ...] | None = None  # what the bars show
        self._styled: tuple[object, ...] | None = None  # the bars' signs, dominant and look
        self._styles: tuple[list[QBrush], list[QPen]] = ([], [])  # their fills and outlines
        self._mode = "dot"  # the written form (Scorer.written) the panel shows
        self._pair = ""  # the heading's q and k with their tokens
        self._tick_labels: list[tuple[int, str]] = []
        self._shown: tuple[Written, np.ndarray, int] | None = None  # what the figure draws
        self._y_range = HeldRange()
        self._span: tuple[tuple[float, float], tuple[float, float]] | None = None
        self.bars = TermBars()
        plot.addItem(self.bars)
        cmap = diverging_map()  # a term's sign, in the heatmap's colours
        self._fills = tuple(cmap.map(at, mode=pg.ColorMap.QCOLOR) for at in (0.88, 0.12))
        cache_axes(self.bars_plot)
        self.dominant = LiveLabel("expansion_dominant")
        self.polar = LiveLabel("expansion_polar")
        for label, size, bold in ((self.heading, HEADING, True), (self.equation, DISPLAY, False),
                                  (self.polar, STRONG, False), (self.dominant, READING, True)):
            emphasize(label, size, bold)
        self.dominant.setStyleSheet(f"color: {SELECTION_COLOUR}")
        content = QWidget()
        self._grid = QGridLayout(content)
        self._grid.setContentsMargins(6, 4, 6, 4)
        self._beside: bool | None = None
        # a short dock scrolls instead of forcing the whole window taller than the screen; the
        # fitted area re-reads the content's height whenever fonts or texts change it
        self.scroll = FittedScrollArea(content)
        self.scroll.setObjectName("expansion_scroll")
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._arrange(beside=False)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll)
        self.apply_look()
        self.retranslate()
        self.refresh()

    def _arrange(self, beside: bool) -> None:
        """One column (heading, sum, bars, largest term, polar form), or on a wide stage the
        bars beside the text, so every result stays in view in a short room."""
        if beside == self._beside:
            return
        self._beside = beside
        grid = self._grid
        texts = (self.heading.holder, self.equation.holder, self.dominant.holder,
                 self.polar.holder)
        for widget in (*texts, self.bars_plot):
            grid.removeWidget(widget)
        for row in range(grid.rowCount()):
            grid.setRowStretch(row, 0)
        grid.setColumnStretch(0, 0)
        if beside:
            grid.addWidget(self.heading.holder, 0, 0, 1, 2)
            for row, holder in enumerate(texts[1:], start=1):
                grid.addWidget(holder, row, 0)
            grid.addWidget(self.bars_plot, 1, 1, 4, 1)
            grid.setRowStretch(4, 1)
            grid.setColumnStretch(0, 1)  # the text takes the width, the bars their own
            self.bars_plot.setMinimumWidth(self.bars_width())
        else:
            self.bars_plot.setMinimumWidth(0)
            column: tuple[QWidget, ...] = (*texts[:2], self.bars_plot, *texts[2:])
            for row, placed in enumerate(column):
                grid.addWidget(placed, row, 0)
            grid.setRowStretch(2, 1)
            grid.setRowStretch(5, 1)  # past the bars' largest height, room is left below
        self.scroll.relayout()

    def _heights(self, width: int, text: int) -> tuple[int, int]:
        """The page's height in one column `width` wide, and with the bars beside a text
        column `text` wide (0: no room for them there)."""
        grid, labels = self._grid, (self.equation, self.dominant, self.polar)
        spacing = grid.verticalSpacing()
        margins = grid.contentsMargins()
        edge = margins.top() + margins.bottom()
        inner = width - margins.left() - margins.right()
        heading = self.heading.heightForWidth(inner) + spacing
        bars = min(self.bars_plot.sizeHint().height(), self.bars_plot.maximumHeight())
        column = heading + bars + sum(label.heightForWidth(inner) + spacing
                                      for label in labels) + edge
        if text < unwrapped_width(self.equation, whole_words=True):
            return column, 0
        aside = sum(label.heightForWidth(text) + spacing for label in labels)
        return column, heading + max(aside, bars) + edge

    def bars_width(self) -> int:
        """The bars' least width beside the text: each term's name with room either side,
        and the values up the side."""
        metrics = QFontMetricsF(scaled_font(READING))
        names = [name for _x, name in self._tick_labels] or ["q₀k₀"]
        per_bar = max(metrics.horizontalAdvance(name) for name in names) + metrics.height() / 2
        return math.ceil(len(names) * per_bar + 2 * metrics.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_arrangement()

    def _fit_arrangement(self) -> None:
        """On the stage, the bars go beside the text where one column would not fit and
        that is shorter (decided again for a new size or new texts, never within a drag)."""
        beside = False
        if self.look.stage:
            width, height = self.width(), self.height()
            text = width - self.bars_width() - self._grid.horizontalSpacing() - 12
            column, aside = self._heights(width, text)
            beside = column > height and 0 < aside < column
        self._arrange(beside)

    def apply_look(self) -> None:
        look, theme = self.look, self.look.theme
        tick_font = scaled_font(READING)
        least = look.px(90)
        if look.stage:  # tall enough for a few values up the side, in the stage's type
            least = max(least, BARS_LINES * QFontMetricsF(tick_font).lineSpacing())
        self.bars_plot.snug = look.stage
        self.bars_plot.setMinimumHeight(math.ceil(least))
        self.bars_plot.setMaximumHeight(max(math.ceil(least), int(look.px(260))))
        self.bars_plot.setBackground(theme.background)
        for side in ("left", "bottom"):
            axis = self.bars_plot.getPlotItem().getAxis(side)
            # a value at the plot's very edge would be cut in half: left out instead
            axis.setStyle(tickFont=tick_font, hideOverlappingLabels=True)
            axis.setTextPen(theme.foreground)
            axis.setPen(theme.foreground)
        bottom = self.bars_plot.getPlotItem().getAxis("bottom")
        bottom.setHeight(max(look.px(34), tick_row_height(bottom, tick_font)))

    def retranslate(self) -> None:
        self.bars_plot.setToolTip(tr("expansion.product_axis"))

    def refresh(self) -> None:
        view, state = self.document.view, self.document.state
        whole = (view.query_names[state.query], view.key_names[state.key])
        query, key = (shown_name(name) for name in whole)
        set_tip(self.heading, name_tip(*whole))
        pair = self._pair = f"{pair_symbol('q', query)} · {pair_symbol('k', key)}"
        work = pair_work(view, state.query, state.key)
        if work is None:  # no weights for this scorer here: the dot product's own sum
            work = worked("dot", view.q[state.query], view.k[state.key],
                          total=view.pair.total, dot=view.pair.total)
        styles = self._term_styles()
        q, k = view.q[state.query], view.k[state.key]
        form = get_scorer(work.scorer).written
        written = (additive.write_additive(work, view, pair, styles)
                   if isinstance(work, AdditiveWork)
                   else WRITERS[form](work, q, k, pair, styles))
        self.heading.setText(written.heading)
        self.equation.setText("<br>".join(unbroken(line) for line in written.lines))
        terms = np.asarray(work.terms, dtype=np.float64)[written.shown]
        dominant = int(np.argmax(np.abs(terms)))
        self._shown = (written, terms, dominant)
        self._update_bar_values(terms, dominant, list(written.labels))
        share = work.dominant_share
        self.dominant.setText(written.note if written.note is not None else (
            "" if isinstance(share, Undefined) else tr(
                "expansion.dominant", term=written.labels[dominant],
                value=number(terms[dominant]), share=format_percent(share, 0).replace(
                    " ", NBSP))))
        self.polar.setText(written.polar)
        self._relayout_on_new_mode(form)
        if self.look.stage and not self.document.dragging:
            self._fit_arrangement()

    def figure(self) -> BarsFigure | None:
        """The bars as drawn, each with its value and its term's name, under the heading:
        the terms the sum writes out, without the scrolled page around them."""
        if self._shown is None:
            return None
        written, terms, dominant = self._shown
        rising, falling = (fill.name().upper() for fill in self._fills)
        values = terms.tolist()
        return BarsFigure(written.heading, tr("expansion.product_axis"), values,
                          [number(value) for value in values], list(written.labels),
                          [rising if value >= 0 else falling for value in values], dominant)

    @property
    def showing_additive(self) -> bool:
        """True while the panel writes out additive steps instead of a sum of products."""
        return self._mode == "additive"

    def _relayout_on_new_mode(self, mode: str) -> None:
        """Each written form takes its own number of lines: tell the layout at once (a
        live label passes on only height changes it sees itself, and a resize in between
        hid this one, leaving the taller text clipped)."""
        if mode == self._mode:
            return
        self._mode = mode
        for label in (self.heading, self.equation, self.dominant, self.polar):
            label.holder.updateGeometry()
        self.scroll.relayout()

    def readable_size(self) -> QSize:
        """Every line whole at the current fonts: the page as wide as its widest formula
        line unwrapped (the heading's pair of tokens too; the sentences wrap to that width;
        past the screen's width, or half of it at the desk where a column sits beside, the
        formulas break at their operators instead) and as tall
        as it is laid out there, the bars at least their least height; then no result is
        below the edge and the page does not scroll. On the stage, with the bars beside the
        text where that fits the screen and one column does not."""
        margins = self._grid.contentsMargins()
        pair = QFontMetricsF(self.heading.font()).horizontalAdvance(self._pair)
        inner = max(math.ceil(pair) + 2, unwrapped_width(self.equation),
                    self.bars_plot.minimumSizeHint().width())
        screen = self.room()
        room = screen.width() // (1 if self.look.stage else 2) - 2 * margins.left()
        if inner > room:  # wider than the screen: the lines break at their operators
            inner = max(room, unwrapped_width(self.equation, whole_words=True))
        # room for a scroll bar too: one shown while the page settles must not wrap a line
        # and so keep itself shown
        bar = self.scroll.verticalScrollBar().sizeHint().width()
        width = inner + margins.left() + margins.right() + bar
        column = QSize(width, self._heights(width, 0)[0])
        if self.look.stage:
            wide = width + self.bars_width() + self._grid.horizontalSpacing()
            aside = QSize(wide, self._heights(wide, inner)[1])
            if column.height() > screen.height() and aside.height() and (
                    aside.width() <= screen.width()):
                return aside.expandedTo(super().readable_size())
        return column.expandedTo(super().readable_size())

    def _term_styles(self) -> Styles:
        """Format strings for the term that decides and for the rest (faded in spotlight)."""
        mark = f"<b><span style='color:{SELECTION_COLOUR}'>{{}}</span></b>"
        look = self.look
        rest = (f"<span style='color:{look.faded(look.theme.foreground)}'>{{}}</span>"
                if look.spotlight else "{}")
        return Styles(mark, rest)

    def _update_bar_values(self, products: np.ndarray, dominant: int,
                           names: list[str]) -> list[tuple[int, str]]:
        """One bar per term, the dominant one outlined; returns the axis's (x, name) ticks."""
        d = len(products)
        xs = np.arange(1, d + 1)
        drawn = (products.tobytes(), dominant, self.look)
        if drawn != self._drawn:  # new bars repaint the plot: an edit elsewhere keeps them
            self._drawn = drawn
            self._draw_bars(products, dominant)
        plot = self.bars_plot.getPlotItem()
        labels = [(int(x), name) for x, name in zip(xs, names, strict=True)]
        # new ticks or a new range regenerate pyqtgraph's axes, a few ms each: the range is
        # snapped to round numbers and held during a drag, so a step moves only the bars
        if labels != self._tick_labels:
            self._tick_labels = labels
            plot.getAxis("bottom").setTicks([labels, []])
        reach = float(np.max(np.abs(products))) or 1.0
        low, high = min(0.0, products.min()), max(0.0, products.max())
        y_range = self._y_range.fit(snap_out(low - 0.1 * reach, high + 0.1 * reach), d,
                                    hold=self.document.dragging)  # bars move, not the axis
        span = (0.4, d + 0.6), y_range
        if span != self._span:
            self._span = span
            plot.setRange(xRange=span[0], yRange=span[1], padding=0)
        return labels

    def _draw_bars(self, products: np.ndarray, dominant: int) -> None:
        """New heights; the fills and outlines are made again only when a bar changes sign,
        the dominant term moves or the look changes (a drag step seldom does any)."""
        look = self.look
        rising = tuple(product >= 0 for product in products.tolist())
        styled = (rising, dominant, look)
        if styled != self._styled:
            self._styled = styled
            self._styles = self._bar_styles(rising, dominant)
        self.bars.set_bars(products, *self._styles)

    def _bar_styles(self, rising: tuple[bool, ...],
                    dominant: int) -> tuple[list[QBrush], list[QPen]]:
        """Each bar's fill (by its sign) and outline (thick for the dominant term)."""
        look = self.look
        up, down = self._fills
        brushes, pens = [], []
        for i, rises in enumerate(rising):
            opacity = look.opacity(i == dominant)  # the spotlight fades the others
            fill = QColor(up if rises else down)
            fill.setAlphaF(opacity)
            edge = QColor(look.theme.foreground)
            edge.setAlphaF(opacity)
            pen = QPen(edge, look.px(4 if i == dominant else 1))
            pen.setCosmetic(True)  # as thick at every zoom of the plot
            brushes.append(QBrush(fill))
            pens.append(pen)
        return brushes, pens


def unwrapped_width(label: QLabel, whole_words: bool = False) -> int:
    """The width a label's text takes on one line per paragraph (its lines unbroken), or with
    `whole_words` the widest piece between two places it may break (an operator's spaces)."""
    document = QTextDocument()
    document.setDefaultFont(label.font())
    document.setDocumentMargin(0)
    document.setDefaultTextOption(QTextOption(Qt.AlignmentFlag.AlignLeft))  # words whole
    if label.textFormat() == Qt.TextFormat.RichText:
        document.setHtml(label.text())
    else:
        document.setPlainText(label.text())
    if whole_words:
        document.setTextWidth(1)
    return math.ceil(document.idealWidth()) + 2 * label.margin() + 2
