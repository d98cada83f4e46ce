"""Owns the "three kinds of match" panel: every key of the selected query scored several ways."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QModelIndex, QPoint, QRect, QSignalBlocker, QSize, Qt, QTimer
from PySide6.QtGui import QFontMetrics, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QBoxLayout,
    QCheckBox,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.i18n import current, tr
from app.model.lesson.data import MAX_TOKENS
from app.model.reasons import SwapReason
from app.model.state import STATE_FIELDS
from app.state.document import Document
from app.ui.figure_table import TableFigure, TableRow
from app.ui.fonts import BODY_PT, READING, SMALL, emphasize, scaled_font
from app.ui.format import (
    format_apart,
    format_length_ratio,
    name_tip,
    one_line_name,
    shown_name,
    token_glosses,
    with_gloss,
)
from app.ui.panels.base import Panel
from app.ui.panels.match.header import ScoreHeader
from app.ui.panels.match.model import (
    ADDITIVE_COLUMNS,
    COLUMNS,
    HIGHLIGHT,
    SCORED,
    MatchModel,
    MatchRows,
    Names,
    NumericSortProxy,
    highlight_kind,
)
from app.ui.qt_known import layout_of
from app.ui.widgets.live_label import LiveLabel
from app.ui.widgets.scroll import FittedScrollArea
from app.ui.widgets.stage_text import kept_whole, unbroken

SIDE_MIN_WIDTH = 320
"""Pixels (before presentation scaling) the reasons need to stay readable beside the table."""
MEASURE_PER_TURN = 0.004
"""Seconds the table measures its texts in one event-loop turn while it sizes its columns:
a 4,096-key import has 40,000, and all at once held the window still for a tenth of a
second."""
STAGE_BREATH = 8
"""Pixels at 100 % the stage adds to each compact column: a gap between the numbers that
still leaves every column of the table in a 1024-pixel-wide room at 200 %."""

REASON_KEYS = {
    ("cosine", "longer"): "match.reason.cosine_longer",
    ("cosine", "shorter"): "match.reason.cosine_shorter",
    ("neg_euclidean", "longer"): "match.reason.distance_longer",
    ("neg_euclidean", "zero_length"): "match.reason.distance_zero",
}
"""Every (scorer, kind) the model layer can produce; reasons.py proves the others impossible."""


def reason_text(reason: SwapReason, names: Sequence[str]) -> str:
    """The one-line explanation of a swap, in the current language, from its numbers."""
    values = {
        "a": names[reason.dot_winner],
        "b": names[reason.other_winner],
        "ratio": format_length_ratio(reason.ratio),
    }
    values["da"], values["db"] = format_apart(*reason.dot)
    # Distances read better as |q−k| than as the negative scores the table sorts by.
    sign = -1.0 if reason.other == "neg_euclidean" else 1.0
    winner, loser = reason.other_scores
    values["oa"], values["ob"] = format_apart(sign * winner, sign * loser)
    return tr(REASON_KEYS[(reason.other, reason.kind)], **values)


class MatchTablePanel(Panel):
    """A sortable table of one query row; picking a row selects that key everywhere."""

    name = "match"
    scroll: FittedScrollArea  # type: ignore[assignment]  # the attribute hides QWidget.scroll()
    depends_on = STATE_FIELDS
    """Every key of the selected query under every scorer: every field can change it."""
    holds_while_dragging = True
    """The reasons keep their room during a drag and fit it when it ends."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.model = MatchModel(self)
        self.proxy = NumericSortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setObjectName("match_table")
        self.table.setHorizontalHeader(ScoreHeader(self.model, self.table))
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.table.verticalHeader().hide()
        self.table.setAutoScroll(False)  # every row shows: a current row needs no scrolling
        self.table.setWordWrap(False)  # one line a row: a name too long is elided, not wrapped
        # Sized by _fit_table, not by Qt at every dataChanged: a header that sizes itself to
        # its contents measures every cell of the table again for each changed cell.
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_picked)
        self._refit = False
        self._refitter = QTimer(self, singleShot=True, interval=0)
        """Refits once the header has settled: a timer, not a posted call, so a refit after a
        layout change (the desk fit moving docks) is a turn of its own, not part of the
        turn that painted the change."""
        self._refitter.timeout.connect(lambda: self._fit_soon(always=True))
        self._measurer = QTimer(self, singleShot=True, interval=0)
        """Measures the table's texts on, a part per event-loop turn (`_fit_soon`)."""
        self._measurer.timeout.connect(self._fit_soon)
        self._named: tuple[tuple[object, ...], tuple[Names, ...]] | None = None
        """The keys, glosses and language the names were last made for, and those names."""
        self._fitted: tuple[object, ...] | None = None
        """The column widths' inputs at the last fit (None: fit at the next refresh)."""
        self._reasons_text = ""
        self._compact_width = self._compact_header = 0
        """The table's width and header height with compact texts, measured at the last fit
        on the stage."""
        self._tips: dict[int, str] | None = None
        self._measuring = False  # _fit_table trying both layouts: not a resize to refit for
        self.table.horizontalHeader().sectionResized.connect(
            lambda *_: None if self._measuring else self._schedule_fit())
        self.caption = QLabel()
        self.caption.setObjectName("match_caption")
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)  # names a token: never markup
        self.additive_box = QCheckBox()
        self.additive_box.setObjectName("match_additive")
        self.additive_box.toggled.connect(
            lambda on: self.document.set_options(show_additive=bool(on)))
        self.reasons_title = QLabel()
        self.reasons_title.setWordWrap(True)  # unwrapped, it widened the page past the dock
        self.reasons = LiveLabel("match_reasons")  # quotes numbers a drag step changes
        self.reasons.setTextFormat(Qt.TextFormat.PlainText)  # names tokens: never markup
        self.reasons.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.reasons.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # the numbers and the reasons that quote them: ≥ 12 pt; the check box has a style sheet
        for widget, size, bold in ((self.table, READING, False),
                                   (self.table.horizontalHeader(), READING, True),
                                   (self.reasons, READING, False), (self.caption, READING, True),
                                   (self.reasons_title, BODY_PT, True),
                                   (self.additive_box, BODY_PT, False)):
            emphasize(widget, size, bold)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)

        side = QVBoxLayout()
        side.addWidget(self.additive_box)
        side.addWidget(self.reasons_title)
        side.addWidget(self.reasons.holder)
        side.addStretch(1)
        self.body = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.body.addWidget(self.table, 0, Qt.AlignmentFlag.AlignTop)
        self.body.addLayout(side, 1)
        content = QWidget()
        inner = QVBoxLayout(content)
        inner.addWidget(self.caption)
        inner.addLayout(self.body, 1)
        self.scroll = FittedScrollArea(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll)
        self.apply_look()
        self.retranslate()
        self.refresh()

    def apply_look(self) -> None:
        """On the stage the scene has chosen the columns: the additive switch stays on the
        teacher's desk, and each row is a line of its font tall at least."""
        look = self.look
        self.model.font = scaled_font(READING)
        self.model.theme = highlight_kind(look.theme.background)
        self.model.faded = (look.faded(look.theme.foreground),
                            look.faded(HIGHLIGHT[self.model.theme][0]))
        row = int(look.px(30))
        if look.stage:
            row = max(row, QFontMetrics(self.model.font).height() + round(look.px(6)))
        self.table.verticalHeader().setDefaultSectionSize(row)
        self.additive_box.setHidden(look.stage)
        # the reasons explain the table: on the stage they take the least size, not more
        emphasize(self.reasons, SMALL if look.stage else READING)
        for label in (self.reasons_title, self.reasons):
            label.setVisible(True)  # the stage shows them where they fit (`_arrange`)
        box = round(look.px(16))
        self.additive_box.setStyleSheet(
            f"QCheckBox::indicator {{ width: {box}px; height: {box}px; }}")
        self.table.horizontalHeader().setMinimumSectionSize(int(look.px(28)))
        self._fitted = None

    def retranslate(self) -> None:
        self.additive_box.setText(tr("match.show_additive"))
        self.additive_box.setToolTip(tr("match.tip.show_additive"))
        self.reasons_title.setText(tr("match.reasons_title"))
        self.model.retranslate()
        self._fitted, self._tips = None, None  # new headers and reasons to measure

    def refresh(self) -> None:
        """Only what moved: the model announces the cells whose values changed, the reasons
        are rebuilt when the swaps (or the numbers they quote) change, and the columns are
        re-measured only when a text could have grown or shrunk."""
        view = self.document.view
        state = self.document.state
        row = state.query
        explained = view.reasons
        reasons = explained.reasons
        glosses = token_glosses(self.document.data, state.world)
        names, shown, whole = self._names(view.key_names, glosses)
        lines = [reason_text(reason, shown) for reason in reasons]
        text = "\n".join(f"• {line}" for line in lines) if lines else tr("match.no_disagreement")
        # a wrapped line never breaks a token's name (nor, on the stage, a number)
        text = kept_whole(unbroken(text) if self.look.stage else text, view.key_names)
        # during a drag the reasons keep the most room they have had (a swap coming and
        # going would otherwise lay the whole panel out twice); they fit it when it ends
        self.reasons.holder.hold(self.document.dragging)
        if text != self._reasons_text or self._tips is None:
            self._reasons_text = text
            self.reasons.setText(text)
            self._tips = {key: "\n".join(line for reason, line in zip(reasons, lines, strict=True)
                                         if key in reason.keys) for key in explained.flagged}
        scores = {name: view.row_scores[name] for name in SCORED if name in view.row_scores}
        self.model.spotlight = state.key if self.look.spotlight else None
        self.model.set_rows(MatchRows(
            names=names,
            short_names=shown,
            whole_names=whole,
            norms=explained.norms,
            scores=scores,
            ranks={name: view.row_ranks[name] for name in scores},
            flagged=explained.flagged,
            tips=self._tips,
        ))
        self.proxy.resort()  # the rows the sorted column's new numbers move
        query = with_gloss(view.query_names[row], glosses)
        if self.look.stage:  # what is on it, not how to click it: the class does not click
            caption = kept_whole(tr("match.caption_stage", query=query), view.query_names)
        else:
            caption = tr("match.caption", query=query)
        if caption != self.caption.text():
            self.caption.setText(caption)
            self.caption.setToolTip(name_tip(view.query_names[row]))
        show = state.options.show_additive
        with QSignalBlocker(self.additive_box):
            self.additive_box.setChecked(show)
        for column in ADDITIVE_COLUMNS:
            if self.table.isColumnHidden(column) == show:
                self.table.setColumnHidden(column, not show)
        self._fit_soon(measure=self.model.rowCount() <= MAX_TOKENS)
        self._select_row(state.key)

    def _names(self, keys: tuple[str, ...], glosses: dict[str, str]) -> tuple[Names, ...]:
        """The keys' names as the table shows them (with their gloss, bare, whole), the same
        objects while the keys, glosses and language stay (the model then compares
        nothing), each made when first read: an import has 4,096."""
        made_for = (keys, glosses, current().token_glosses)
        if self._named is None or self._named[0] != made_for:
            self._named = (made_for, (Names(keys, lambda name: with_gloss(name, glosses)),
                                      Names(keys, shown_name), Names(keys, one_line_name)))
        return self._named[1]

    def _fit_soon(self, always: bool = False, measure: bool = True) -> None:
        """Fit the table once its columns are measured: now when that takes a moment (a
        lesson's few rows), else a part per event-loop turn, so a large import's thousands
        of texts never hold the window still (`always`: fit even if no width changed;
        `measure`: measure now for a moment, rather than from the next turn on)."""
        self._refit = self._refit or always
        if not self.model.measure(MEASURE_PER_TURN if measure else 0.0):
            self._measurer.start()  # a timer: the turn's input and timers come first
            return
        if self._refit or self._fit_inputs() != self._fitted:
            self._fit_table()

    def figure(self) -> TableFigure:
        """The table as sorted and with the columns shown, its full header and key names,
        the rows the reasons flag in their colour and the selected key bold; the caption's
        query as its title, without the click hint, the check box and the reasons."""
        model, proxy, view = self.model, self.proxy, self.document.view
        columns = [c for c in range(model.columnCount()) if not self.table.isColumnHidden(c)]
        rows = []
        for r in range(proxy.rowCount()):
            key = proxy.mapToSource(proxy.index(r, 0)).row()
            cells = [model.rows.names[key] if COLUMNS[c] == "key"
                     else str(proxy.index(r, c).data()) for c in columns]
            flagged = key in model.rows.flagged
            rows.append(TableRow(cells, HIGHLIGHT["light"][0] if flagged else None,
                                 key == self.document.state.key))
        query = with_gloss(view.query_names[self.document.state.query],
                           token_glosses(self.document.data, self.document.state.world))
        return TableFigure(tr("match.caption_stage", query=query),
                           [model.header_text(c, compact=False).replace("\n", " ")
                            for c in columns], rows, [COLUMNS[c] != "key" for c in columns])

    def _fit_inputs(self) -> tuple[object, ...]:
        """What the table's size depends on besides the panel's width, look and language:
        rows, shown columns and the widest text of each column."""
        return (self.model.rowCount(), self.table.isColumnHidden(ADDITIVE_COLUMNS[0]),
                self.model.widest())

    def _columns_width(self, compact: bool) -> int:
        """The table's width with every column sized to its contents, full or compact."""
        self._measuring = True
        try:
            self.model.set_compact(compact)
            self._size_columns()
        finally:
            self._measuring = False
        return self.table.horizontalHeader().length() + 2 * self.table.frameWidth()

    def _size_columns(self) -> None:
        """What `resizeColumnsToContents` does, asking the view only about each column's
        widest cells: Qt's own measures up to a thousand rows of every column, seconds for a
        4,096-key import, and misses a wider row past the thousandth."""
        table, header = self.table, self.table.horizontalHeader()
        grid = 1 if table.showGrid() else 0
        for column, rows in enumerate(self.model.widest_rows()):
            if header.isSectionHidden(column):
                continue
            content = max((table.sizeHintForIndex(self.proxy.mapFromSource(
                self.model.index(row, column))).width() + grid for row in rows), default=0)
            header.resizeSection(column, max(content, header.sectionSizeHint(column),
                                             header.minimumSectionSize()))

    def _breathe(self, spare: int) -> int:
        """Share spare room among the compact columns (at most a few pixels each), so the
        numbers do not touch; returns the width added."""
        header = self.table.horizontalHeader()
        shown = [c for c in range(header.count()) if not header.isSectionHidden(c)]
        most = self.look.px(STAGE_BREATH if self.look.stage else 12)
        extra = min(max(0, spare) // max(1, len(shown)), int(most))
        if extra:
            self._measuring = True
            try:
                for column in shown:
                    header.resizeSection(column, header.sectionSize(column) + extra)
            finally:
                self._measuring = False
        return extra * len(shown)

    def _fit_table(self) -> None:
        """Size the table to its rows and columns, so nothing is elided and it never scrolls
        inside. Too narrow a panel (a projector's scene) first gets the compact texts, two-line
        headers and bare tokens, so the cosine and distance columns stay in view; only one
        narrower still gives the table a horizontal scroll bar. On the stage the compact
        width is measured too: it is the least the stage may give."""
        table = self.table
        header = table.horizontalHeader()
        frame = 2 * table.frameWidth()
        room = self.width() - self.look.px(24)  # margins and the panel's own scroll bar
        if self.look.stage:  # the least width the stage may give it, measured first
            width = self._columns_width(compact=True)
            self._compact_width = width + self._breathe(1 << 20) + 1  # and a pixel of rounding
            self._compact_header = table.horizontalHeader().sizeHint().height()
        width = self._columns_width(compact=False)
        if width > room:
            width = self._columns_width(compact=True)
            width += self._breathe(int(room - width))
        bar = table.horizontalScrollBar().sizeHint().height() if width > room else 0
        rows = table.verticalHeader().length()  # every row's height (4,096 of an import)
        table.setMaximumWidth(width)
        table.setMinimumWidth(min(width, max(1, int(room))))
        table.setFixedHeight(header.sizeHint().height() + rows + frame + bar)
        self._fitted, self._refit = self._fit_inputs(), False
        self._arrange()
        self.scroll.relayout()

    def readable_size(self) -> QSize:
        """On the stage: every row and every score column (the compact texts) under the
        caption. The reasons explain the rows marked in it: they show, beside the table or
        below it, where the stage gives the room they need."""
        if not self.look.stage:
            return super().readable_size()
        if not self._compact_width:
            self._fit_table()
        width = self._compact_width
        return QSize(width + self._frame()[0], self._table_block(width) + self._frame()[1])

    def _frame(self) -> tuple[int, int]:
        """The page's margins around its content (and the allowance `_fit_table` keeps)."""
        margins = layout_of(self.scroll.widget()).contentsMargins()
        return (margins.left() + margins.right() + math.ceil(self.look.px(24)),
                margins.top() + margins.bottom())

    def _table_block(self, width: int) -> int:
        """The caption wrapped to `width` over every row of the table (its compact header, on
        the stage)."""
        table = self.table
        rows = table.verticalHeader().length()  # every row's height (4,096 of an import)
        header = self._compact_header or table.horizontalHeader().sizeHint().height()
        return (self.caption.heightForWidth(width) + layout_of(self.scroll.widget()).spacing()
                + header + rows + 2 * table.frameWidth())

    def _reasons_height(self, width: int) -> int:
        spacing = layout_of(self.scroll.widget()).spacing()
        return sum(label.heightForWidth(width) + spacing
                   for label in (self.reasons_title, self.reasons))

    def _arrange(self) -> None:
        """Reasons beside the table when they get a readable width, else below it; on the
        stage, only where they fit whole (they never push the table out of view)."""
        room = self.width() - self.table.maximumWidth() - self.look.px(24)
        wide = room >= self.look.px(SIDE_MIN_WIDTH)
        if self.look.stage:
            frame_w, frame_h = self._frame()
            height = self.height() - frame_h
            table = self._table_block(self.table.maximumWidth())
            above = (self.caption.heightForWidth(self.width() - frame_w)  # over both columns
                     + layout_of(self.scroll.widget()).spacing())
            wide = wide and above + self._reasons_height(int(room)) <= height
            below = table + self._reasons_height(self.width() - frame_w) <= height
            for label in (self.reasons_title, self.reasons):
                label.setVisible(wide or below)
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self.body.direction() != direction:
            self.body.setDirection(direction)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fitted = None
        self._schedule_fit()  # fonts are polished now: measure the columns again
        QTimer.singleShot(0, self, self._to_top)

    def _to_top(self) -> None:
        """A panel opens at its top: its caption and first row, whichever row is current."""
        for bar in (self.scroll.verticalScrollBar(), self.table.verticalScrollBar()):
            bar.setValue(bar.minimum())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:  # the app font scaled: measure again
            self._fitted = None
            self._schedule_fit()
        super().changeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_soon(always=True)
        elif self.look.stage:  # a height that no longer holds the reasons, or now does
            self._arrange()

    def _schedule_fit(self) -> None:
        """Refit once the header has settled (fonts polish after show, sections resize)."""
        if not self._refitter.isActive():
            self._refitter.start()

    def _select_row(self, key: int) -> None:
        """Show the document's key as the table's current row, without echoing it back."""
        selection = self.table.selectionModel()
        target = self.proxy.mapFromSource(self.model.index(key, 0))
        if selection.currentIndex().row() == target.row() and selection.hasSelection():
            return
        with QSignalBlocker(selection):
            selection.setCurrentIndex(
                target,
                selection.SelectionFlag.ClearAndSelect | selection.SelectionFlag.Rows,
            )
        self.table.viewport().update()

    def focus_rect(self) -> QRect | None:
        """The selected key's row: the one the lesson's notes read out."""
        keys = self.model.rowCount()
        key = self.document.state.key
        if not 0 <= key < keys:
            return None
        row = self.proxy.mapFromSource(self.model.index(key, 0)).row()
        viewport = self.table.viewport()
        top = self.table.rowViewportPosition(row)
        return QRect(viewport.mapTo(self, QPoint(0, top)),
                     QSize(viewport.width(), self.table.rowHeight(row)))

    def _on_row_picked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.document.select(key=self.proxy.mapToSource(current).row())

