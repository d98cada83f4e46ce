"""Owns the term-by-term view of the selected pair: q·k written out with its real numbers,
a bar per product q_i·k_i with the dominant one marked, and the same sum as |q|·|k|·cos θ;
under the additive scorer, its own steps instead (app/ui/panels/expansion/additive.py).
"""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.i18n import tr
from app.model.additive import AdditiveSteps
from app.model.breakdown import Breakdown
from app.model.capture_view import largest_terms
from app.model.nice import HeldRange, snap_out
from app.model.scoring import SCORERS, Undefined
from app.model.view import View
from app.state.document import Document
from app.ui.fonts import DISPLAY, HEADING, READING, STRONG, emphasize, scaled_font
from app.ui.format import format_percent, format_score, name_tip, pair_formula, shown_name
from app.ui.look import SELECTION_COLOUR, diverging_map
from app.ui.panels.base import Panel
from app.ui.panels.expansion import additive
from app.ui.widgets.live_label import LiveLabel
from app.ui.widgets.scroll import FittedScrollArea

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def number(value: float) -> str:
    """A factor or term as a class writes it: two decimals at most, no trailing zeros, and
    two significant digits for tiny values rather than a misleading 0 or scientific form."""
    value = float(value)
    if value != 0 and abs(value) < 0.005:
        return np.format_float_positional(value, precision=2, fractional=False).replace("-", "−")
    text = format_score(value, 2)
    if "." in text and "e" not in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "−0" else text


def operand(value: float) -> str:
    """A number that follows × or +: negative ones get parentheses, "(−0.5)"."""
    text = number(value)
    return f"({text})" if text.startswith("−") else text


def tick_row_height(axis: pg.AxisItem, font: QFont) -> float:
    """Room under the bars for one row of tick labels: the font's own line height (points
    become more pixels on a screen set to a higher DPI, where a fixed pixel height cut the
    subscripts of q₁k₁ off) plus the tick and pyqtgraph's gap before the text."""
    style = axis.style
    return (QFontMetricsF(font).height() + max(0.0, float(style["tickLength"]))
            + float(style["tickTextOffset"][1]) + 2.0)


class BarsView(pg.PlotWidget):
    """The products' plot asks for a height from its minimum and grows into the room left.

    A graphics view's own size hint is its last size, so a plot once laid out tall (say,
    before the window first showed) would keep the scrolled page that tall for good.
    """

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumHeight() * 3 // 2)


class ExpansionPanel(Panel):
    """Shows why the selected score is what it is, one dimension at a time."""

    name = "expansion"
    title_key = "expansion.title"

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
        self._mode = "dot"  # or "additive": which computation the panel writes out
        self._tick_labels: list[tuple[int, str]] = []
        self._y_range = HeldRange()
        self._span: tuple[tuple[float, float], tuple[float, float]] | None = None
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.6)
        plot.addItem(self.bars)
        plot.addItem(pg.InfiniteLine(pos=0, angle=0, pen=pg.mkPen("#888888", width=1)))
        self.dominant = LiveLabel("expansion_dominant")
        self.polar = LiveLabel("expansion_polar")
        self.scorer_line = LiveLabel("expansion_scorer")
        for label, size, bold in ((self.heading, HEADING, True), (self.equation, DISPLAY, False),
                                  (self.polar, STRONG, False), (self.dominant, READING, True),
                                  (self.scorer_line, READING, False)):
            emphasize(label, size, bold)
        self.dominant.setStyleSheet(f"color: {SELECTION_COLOUR}")
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.heading.holder)
        layout.addWidget(self.equation.holder)
        layout.addWidget(self.bars_plot, 1)
        layout.addWidget(self.dominant.holder)
        layout.addWidget(self.polar.holder)
        layout.addWidget(self.scorer_line.holder)
        # a short dock scrolls instead of forcing the whole window taller than the screen; the
        # fitted area re-reads the content's height whenever fonts or texts change it
        self.scroll = FittedScrollArea(content)
        self.scroll.setObjectName("expansion_scroll")
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll)
        self.apply_look()
        self.retranslate()

    def apply_look(self) -> None:
        look, theme = self.look, self.look.theme
        self.bars_plot.setMinimumHeight(int(look.px(90)))
        self.bars_plot.setMaximumHeight(int(look.px(260)))
        self.bars_plot.setBackground(theme.background)
        tick_font = scaled_font(READING)
        for side in ("left", "bottom"):
            axis = self.bars_plot.getPlotItem().getAxis(side)
            axis.setStyle(tickFont=tick_font)
            axis.setTextPen(theme.foreground)
            axis.setPen(theme.foreground)
        bottom = self.bars_plot.getPlotItem().getAxis("bottom")
        bottom.setHeight(max(look.px(34), tick_row_height(bottom, tick_font)))

    def retranslate(self) -> None:
        self.bars_plot.setToolTip(tr("expansion.product_axis"))
        self.refresh()

    def refresh(self) -> None:
        view, state = self.document.view, self.document.state
        whole = (view.query_names[state.query], view.key_names[state.key])
        query, key = (shown_name(name) for name in whole)
        self.heading.setToolTip(name_tip(*whole))
        steps = additive.pair_steps(view, state.query, state.key) if (
            state.scorer == "additive") else None
        if steps is not None:
            self._show_additive(view, steps, query, key)
            self._relayout_on_new_mode("additive")
            return
        q, k, pair = view.q[state.query], view.k[state.key], view.pair
        self.heading.setText(tr("expansion.heading", q_name=query, k_name=key))
        self.equation.setText(self._equation_html(q, k, pair))
        self._update_bars(pair)
        self.polar.setText(self._polar_text(pair))
        formula = pair_formula(SCORERS[state.scorer].formula, query, key)
        self.scorer_line.setVisible(state.scorer != "dot")  # for q·k the sum above says it all
        self.scorer_line.setText("" if state.scorer == "dot" else tr(
            "expansion.active_scorer", formula=formula, value=format_score(view.selected_score)))
        self._relayout_on_new_mode("dot")

    @property
    def showing_additive(self) -> bool:
        """True while the panel writes out the additive scorer's steps instead of q·k."""
        return self._mode == "additive"

    def _relayout_on_new_mode(self, mode: str) -> None:
        """The additive steps take three times the lines of q·k: tell the layout at once (a
        live label passes on only height changes it sees itself, and a resize in between
        hid this one, leaving the taller text clipped)."""
        if mode == self._mode:
            return
        self._mode = mode
        for label in (self.heading, self.equation, self.dominant, self.polar, self.scorer_line):
            label.holder.updateGeometry()
        self.scroll.relayout()

    def _show_additive(self, view: View, steps: AdditiveSteps, query: str, key: str) -> None:
        """The additive score's own computation: its steps, one bar per term v_i·t_i, a
        warning that its weights mean nothing, what factors and how many tanh it takes."""
        self.heading.setText(tr("expansion.additive_heading", q_name=query, k_name=key))
        mark, rest = self._term_styles()
        self.equation.setText(additive.equation_html(steps, number, operand, mark, rest))
        terms = np.asarray(steps.terms, dtype=np.float64)
        largest = int(np.argmax(np.abs(terms)))
        self._update_bar_values(terms, largest,
                                [additive.term_label(i + 1) for i in range(len(terms))])
        self.dominant.setText(additive.untrained_note(view))  # in place of the largest term
        self.polar.setText(additive.count_sentence(view, steps))
        self.scorer_line.setVisible(False)  # the steps end on the score itself
        self.scorer_line.setText("")

    def _term_styles(self) -> tuple[str, str]:
        """Format strings for the term that decides and for the rest (faded in spotlight)."""
        mark = f"<b><span style='color:{SELECTION_COLOUR}'>{{}}</span></b>"
        look = self.look
        rest = (f"<span style='color:{look.faded(look.theme.foreground)}'>{{}}</span>"
                if look.spotlight else "{}")
        return mark, rest

    def _equation_html(self, q: np.ndarray, k: np.ndarray, pair: Breakdown) -> str:
        """q·k written out, then its products and sum; the dominant term in the mark colour
        (with the spotlight on, the other terms fade: the class reads the one that decides)."""
        mark, rest = self._term_styles()
        order = largest_terms(pair.products)  # a large d: the largest products first
        dims = range(len(q)) if order is None else order
        terms = [f"{operand(q[i])}×{operand(k[i])}" for i in dims]
        products = [operand(pair.products[i]) for i in dims]
        for parts in (terms, products):
            for at, (i, part) in enumerate(zip(dims, parts, strict=True)):
                parts[at] = (mark if i == pair.dominant else rest).format(html.escape(part))
                if order is not None:  # which dimension each term is
                    parts[at] += f"<sub>{i + 1}</sub>"
        tail, sum_tail = "", ""
        if order is not None:
            others = float(pair.total - np.sum(np.asarray(pair.products)[order]))
            tail = " + " + html.escape(tr("expansion.more_terms", count=len(q) - len(order)))
            sum_tail = f" + {operand(others)}"
        return "<br>".join([
            "q·k = " + " + ".join(terms) + tail,
            "= " + " + ".join(products) + sum_tail + f" = <b>{number(pair.total)}</b>",
        ])

    def _update_bars(self, pair: Breakdown) -> None:
        products = np.asarray(pair.products, dtype=np.float64)
        order = largest_terms(products)  # a large d: bars for the largest products only
        dims = np.arange(len(products)) if order is None else order
        dominant = int(np.flatnonzero(dims == pair.dominant)[0])
        labels = self._update_bar_values(
            products[dims], dominant, [f"q{x}k{x}".translate(SUBSCRIPTS) for x in dims + 1])
        share = pair.dominant_share
        self.dominant.setText("" if isinstance(share, Undefined) else tr(
            "expansion.dominant", term=labels[dominant][1],
            value=number(products[pair.dominant]), share=format_percent(share, 0)))

    def _update_bar_values(self, products: np.ndarray, dominant: int,
                           names: list[str]) -> list[tuple[int, str]]:
        """One bar per term, the dominant one outlined; returns the axis's (x, name) ticks."""
        d = len(products)
        xs = np.arange(1, d + 1)
        drawn = (products.tobytes(), dominant, self.look)
        if drawn != self._drawn:  # new bars repaint the plot: an edit elsewhere keeps them
            self._drawn = drawn
            self._draw_bars(xs, products, dominant)
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

    def _draw_bars(self, xs: np.ndarray, products: np.ndarray, dominant: int) -> None:
        cmap = diverging_map()
        brushes = [cmap.map(0.88 if p >= 0 else 0.12, mode=pg.ColorMap.QCOLOR) for p in products]
        pens = [pg.mkPen(self.look.theme.foreground, width=self.look.px(4 if i == dominant else 1))
                for i in range(len(products))]
        for i, (brush, pen) in enumerate(zip(brushes, pens, strict=True)):
            opacity = self.look.opacity(i == dominant)  # the spotlight fades the others
            brush.setAlphaF(opacity)
            colour = pen.color()
            colour.setAlphaF(opacity)
            pen.setColor(colour)
        self.bars.setOpts(x=xs, height=products, width=0.6, brushes=brushes, pens=pens)

    def _polar_text(self, pair: Breakdown) -> str:
        if isinstance(pair.cos, Undefined):
            return tr("expansion.polar_undefined", total=number(pair.total))
        return tr("expansion.polar", nq=number(pair.norm_q), nk=number(pair.norm_k),
                  cos=format_score(pair.cos, 3), total=number(pair.total),
                  angle=f"{pair.angle_deg:.1f}")

