"""Owns the 4-D vector editor: each teaching-world token's q and k as draggable bars plus
exact entry boxes, and the query/key buttons that select the pair every panel shows."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QRect, QSize, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QLabel,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from app.i18n import current, tr
from app.model.reshape import colour_slots, tokens_of
from app.model.state import Role
from app.state.document import Document
from app.ui.fonts import READING, emphasize
from app.ui.format import token_glosses
from app.ui.look import SELECTION_COLOUR, token_colour
from app.ui.panels.base import Panel
from app.ui.panels.editor import stage as rows
from app.ui.panels.editor.bars import EntryBox
from app.ui.panels.editor.charts import (
    MINIMUM_SIZE,
    ROLES,
    VectorChart,
    bar_reach,
    snapped,
)
from app.ui.panels.editor.imported import ImportedEditor
from app.ui.panels.editor.reshape import ReshapeBar
from app.ui.qt_known import layout_of
from app.ui.widgets.number_box import quoted
from app.ui.widgets.scroll import FittedScrollArea
from app.ui.widgets.world_hint import WorldHint, pages_with_hint

__all__ = ["EditorPanel", "VectorChart"]


class EditorPanel(Panel):
    """Edits the teaching world's Q and K; selecting a token here selects it everywhere."""

    name = "editor"
    depends_on = ("world", "scorer", "teaching_q", "teaching_k", "teaching_tokens",
                  "teaching_colours", "imported", "query", "key", "options")
    """The 4-D and imported worlds only: the 2-D playground's drags leave it alone."""
    holds_while_dragging = True
    """Bar scales only grow during a drag; they refit when it ends."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.tokens = tokens_of(document.state, document.data)
        self.colours = [token_colour(s) for s in colour_slots(document.state, document.data)]
        self._dims = document.state.teaching_q.shape[1]
        self.charts: dict[tuple[str, int], VectorChart] = {}
        self.name_labels: list[QLabel] = []
        self.gloss_labels: list[QLabel] = []
        self.pick_buttons: dict[tuple[str, int], QPushButton] = {}
        self.pick_groups = {role: QButtonGroup(self) for role in ROLES}
        self._build_content()
        self._hint_page = WorldHint("editor", lambda: self.document.set_world("teaching"))
        self.hint, self.switch_button = self._hint_page.hint, self._hint_page.switch_button
        self.stack = pages_with_hint(self, self._content, self._hint_page, MINIMUM_SIZE)
        self.imported = ImportedEditor(document)  # a capture's selected pair, any d
        self._imported_page = FittedScrollArea(self.imported)
        self.stack.addWidget(self._imported_page)
        self.apply_look()
        self.retranslate()
        self.refresh()

    # --- construction --------------------------------------------------------------------

    def _build_content(self) -> None:
        page = QWidget()
        self._page = page
        self._grid = grid = QGridLayout()
        grid.setContentsMargins(2, 2, 2, 2)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(6)
        self.role_headers = {role: QLabel(page) for role in ROLES}
        self._narrow: bool | None = None
        self._shown_tokens: tuple[int, ...] | None = None
        self._pair_shown: tuple[int, int] | None = None  # the pair last scrolled into view
        self._marked: tuple[object, ...] | None = None  # what `_mark_pair` last showed
        self._build_tokens()
        self._arrange(narrow=False)
        for role in ROLES:
            self.pick_groups[role].idClicked.connect(
                lambda token, r=role: self._pick(r, token))
        self.reshape_bar = ReshapeBar(self.document)
        self.reshape_bar.refused.connect(self._on_refused)
        self.help_line = QLabel(objectName="editor_help")  # type: ignore[call-overload]
        self.help_line.setWordWrap(True)
        column = QVBoxLayout(page)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(grid)
        column.addWidget(self.help_line)  # scrolls with the charts: they need the height more
        column.addStretch(1)
        self._scroll = FittedScrollArea(page)
        self._scroll.verticalScrollBar().rangeChanged.connect(self._on_page_grown)
        self.message = QLabel(objectName="editor_message")  # type: ignore[call-overload]
        self.message.setWordWrap(True)
        self.message.hide()
        self._content = QWidget()
        layout = QVBoxLayout(self._content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.reshape_bar)  # above the page: reachable without scrolling
        layout.addWidget(self._scroll, 1)
        layout.addWidget(self.message)
        emphasize(self.help_line)
        emphasize(self.message, READING, bold=True)
        for header in self.role_headers.values():
            emphasize(header, READING, bold=True)
        self.message.setStyleSheet(f"color: {SELECTION_COLOUR};")

    def _build_tokens(self) -> None:
        """A name cell and a q and k chart per token, for the world's tokens and width now."""
        page = self._page
        self.role_marks = {(role, token): QLabel(role, page)
                           for token in range(len(self.tokens)) for role in ROLES}
        self._cells = []
        for token, name in enumerate(self.tokens):
            cell, label, gloss, buttons = rows.token_cell(
                token, name, self.colours[token], self.pick_groups)
            self._cells.append(cell)
            self.name_labels.append(label)
            self.gloss_labels.append(gloss)
            self.pick_buttons.update({(role, token): b for role, b in buttons.items()})
        for (role, token), _mark in self.role_marks.items():
            chart = VectorChart(role, token, self.colours[token], self._dims)
            self._connect(chart)
            self.charts[(role, token)] = chart
        self._emphasize()

    def _clear_tokens(self) -> None:
        """Take every token's widgets out (the world was reshaped); Qt deletes them later."""
        rows.clear_rows(self._grid, self.pick_groups, self.pick_buttons,
                        [*self.role_marks.values(), *self._cells,
                         *(chart.widget for chart in self.charts.values())])
        self.charts, self.pick_buttons = {}, {}
        self.name_labels, self.gloss_labels = [], []

    def _reshape(self, tokens: tuple[str, ...], colours: list[str], dims: int) -> None:
        """Rebuild the token rows for a reshaped world, styled and worded like the rest."""
        narrow = self._narrow
        self._clear_tokens()
        self.tokens, self.colours, self._dims = tokens, colours, dims
        self._build_tokens()
        self._narrow = None
        self._arrange(narrow=bool(narrow))
        self._style_tokens()
        self._word_tokens()
        self.message.hide()
        self._pair_shown = None
        QTimer.singleShot(0, self, self._fit_columns)

    def _emphasize(self) -> None:
        rows.emphasize_rows(self._dims, self.name_labels,
                            [*self.pick_buttons.values(), *self.role_marks.values()],
                            self.charts)

    def _arrange(self, narrow: bool) -> None:
        """A row per token: its name and buttons, then its q and k charts side by side. In a
        narrow dock the name and buttons head the token's rows, and k goes under q (each
        marked with its role), so no chart hides past the right edge at a large scale."""
        if narrow == self._narrow:
            return
        self._narrow = narrow
        rows.lay_out_rows(self._grid, self.role_headers, self.role_marks, self._cells,
                          self.charts, narrow)
        self._shown_tokens = None
        self._show_tokens()

    def _show_tokens(self) -> None:
        """On the stage, every token's rows if they all fit the panel's height, else only
        the selected pair's (the stage never scrolls); at the desk, every token's."""
        state, count = self.document.state, len(self._cells)
        shown = tuple(range(count))  # the panel's own height: its scroll area resizes later
        if self.look.stage and len(state.teaching_q) == count:
            margins = layout_of(self).contentsMargins()
            fits = self._rows_height(shown) <= self.height() - margins.top() - margins.bottom()
            shown = rows.stage_tokens(count, (state.query, state.key), fits)
        if shown != self._shown_tokens:
            self._shown_tokens = shown
            rows.show_rows(shown, self._cells, self.charts, self.role_marks, bool(self._narrow))

    def _rows_height(self, tokens: range | tuple[int, ...], narrow: bool | None = None) -> int:
        """The page's height with the rows of `tokens` (the role headers above them)."""
        narrow = bool(self._narrow) if narrow is None else narrow
        return rows.rows_height(self._grid, self.role_headers, narrow,
                                [(self._cells[t], [self.charts[(r, t)] for r in ROLES])
                                 for t in tokens])

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_columns()
        self._show_tokens()
        self._pair_shown = None  # a scene's new layout: bring the pair back into view
        QTimer.singleShot(0, self, self._show_pair)

    def pair_rect(self, one: int | None = None) -> QRect:
        """Where the selected query's and key's rows (name, q, k), or one token's, lie in the
        scrolled page."""
        state = self.document.state
        page = self._scroll.widget()
        assert page is not None  # the scroll area holds the page from the start
        rect = QRect()
        for token in {state.query, state.key} if one is None else {one}:
            for widget in (self._cells[token], *(self.charts[(role, token)].widget
                                                 for role in ROLES)):
                rect = rect.united(QRect(widget.mapTo(page, QPoint(0, 0)), widget.size()))
        return rect

    def _show_pair(self) -> None:
        """Scroll the selected pair's rows into view: on a projector only two tokens fit, and
        the lesson's pair is not the first two. Done
        when the pair or the layout changes, never while the class edits another token."""
        state = self.document.state
        pair = (state.query, state.key)
        if pair == self._pair_shown or state.world != "teaching" or not self.isVisible():
            return
        if len(self._cells) != len(state.teaching_q):
            return  # reshaped while out of sight: the next refresh rebuilds, then scrolls
        # both cannot fit: the token just picked (a key clicked stays under the mouse)
        only = state.key if self._pair_shown and self._pair_shown[0] == state.query else None
        self._pair_shown = pair
        rect, bar = self.pair_rect(), self._scroll.verticalScrollBar()
        height = self._scroll.viewport().height()
        if rect.height() > height:
            rect = self.pair_rect(state.query if only is None else only)
            rect.setHeight(min(rect.height(), height))
        if rect.top() < bar.value():
            bar.setValue(rect.top())
        elif rect.bottom() >= bar.value() + height:
            bar.setValue(rect.bottom() + 1 - height)

    def _on_page_grown(self) -> None:
        """The rows' heights settle a turn after a new layout: measure the pair again then,
        or it stays where the half-built page put it."""
        self._pair_shown = None
        self._show_pair()

    def _fit_columns(self) -> None:
        """Narrow when the two charts of a token and its name would not fit side by side."""
        self._arrange(narrow=self.width() < self._wide_width())

    def _wide_width(self) -> int:
        """The least width of two charts per token beside its name (and, at the desk, the
        page's scroll bar)."""
        shown = min(self.document.state.query, len(self._cells) - 1)  # (a hidden one's hint
        chart = self.charts[("q", shown)].widget  # lags its font)
        bar = 0 if self.look.stage else self.style().pixelMetric(
            QStyle.PixelMetric.PM_ScrollBarExtent)
        margins = layout_of(self).contentsMargins()
        return rows.wide_width(self._cells, [*self.name_labels, *self.gloss_labels], chart,
                               self._grid.horizontalSpacing(), self.look.stage) + bar + (
            margins.left() + margins.right())

    def _narrow_width(self) -> int:
        """The least width with k under q, every entry box as wide as its widest number and
        the reshape bar whole under them (and, at the desk, the page's scroll bar)."""
        shown = min(self.document.state.query, len(self._cells) - 1)
        chart = self.charts[("q", shown)].widget
        bar = 0 if self.look.stage else self.style().pixelMetric(
            QStyle.PixelMetric.PM_ScrollBarExtent)
        margins = layout_of(self).contentsMargins()
        grid = rows.narrow_width(self._cells, list(self.role_marks.values()), chart,
                                 self._grid.horizontalSpacing())
        return max(grid, self.reshape_bar.minimumSizeHint().width()) + bar + (
            margins.left() + margins.right())

    def readable_size(self) -> QSize:
        """Wide enough for every entry box to show its whole number. At the desk, with k
        under q (the panel takes that arrangement in a dock narrower than two charts), and
        the page scrolls down, so only the width is a floor. On the stage, two charts beside
        each name where the room allows, else k under q, and the selected pair's rows (the
        other tokens show too where the stage gives the height)."""
        if self.stack.currentWidget() is not self._content:
            return super().readable_size()
        if not self.look.stage:  # a dock narrower than two charts gets k under q
            width = min(self._wide_width(), self._narrow_width())
            return QSize(width, super().readable_size().height())
        wide = self._wide_width()
        narrow = wide > self.room().width()
        width = self._narrow_width() if narrow else wide
        state = self.document.state
        pair = rows.stage_tokens(len(self._cells), (state.query, state.key), fits_all=False)
        margins = layout_of(self).contentsMargins()
        return QSize(width, self._rows_height(pair, narrow=narrow)
                     + margins.top() + margins.bottom())

    def _connect(self, chart: VectorChart) -> None:
        role, token = chart.role, chart.token
        chart.bars.started.connect(self._on_drag_started)
        chart.bars.moved.connect(
            lambda dim, value, free, r=role, t=token: self._on_dragged(r, t, dim, value, free))
        chart.bars.finished.connect(
            lambda dim, r=role, t=token: self._on_drag_finished(r, t, dim))
        chart.bars.clicked.connect(lambda dim, r=role, t=token: self._on_bar_clicked(r, t, dim))
        for dim, box in enumerate(chart.boxes):
            box.valueChanged.connect(
                lambda value, r=role, t=token, d=dim: self._on_typed(r, t, d, value))
            box.row_typed.connect(
                lambda parts, text, r=role, t=token, b=box: self._on_row_typed(r, t, b, parts,
                                                                               text))

    # --- look and language ---------------------------------------------------------------

    def apply_look(self) -> None:
        """On the stage the scene has chosen the pair: the q/k buttons, the reshaping bar
        and the help line stay on the teacher's desk (the chosen charts keep their frames)."""
        self._style_tokens()
        self.help_line.setStyleSheet(f"color: {self.look.theme.muted};")
        for widget in (self.reshape_bar, self.help_line, *self.pick_buttons.values()):
            widget.setHidden(self.look.stage)
        self._shown_tokens = None
        self.imported.apply_look(self.look)
        QTimer.singleShot(0, self, self._fit_columns)  # once new fonts reach the minimum sizes

    def _style_tokens(self) -> None:
        rows.style_rows(self.look, self.gloss_labels, self.pick_buttons, self.charts)

    def retranslate(self) -> None:
        self.role_headers["q"].setText(tr("editor.col_q"))
        self.role_headers["k"].setText(tr("editor.col_k"))
        self.help_line.setText(tr("editor.help"))
        self._hint_page.set_texts(tr("editor.dialogue_hint"), tr("editor.switch_world"))
        self.reshape_bar.retranslate()
        self.imported.retranslate()
        self._word_tokens()
        self.message.hide()
        # the glosses change the names' widths: the columns are chosen again once laid out
        QTimer.singleShot(0, self, self._fit_columns)

    def _word_tokens(self) -> None:
        """Each token's tooltips, and its English gloss beside it (Chinese: the word alone)."""
        world = self.document.state.world
        glosses = token_glosses(self.document.data, world) if current().token_glosses else {}
        rows.word_tokens(self.tokens, glosses, self.gloss_labels, self.pick_buttons, self.charts)

    # --- repaint from the document -------------------------------------------------------

    def refresh(self) -> None:
        state = self.document.state
        if state.world == "imported":
            self.stack.setCurrentWidget(self._imported_page)
            self.imported.refresh()
            return
        if state.world != "teaching":
            self.stack.setCurrentWidget(self._hint_page)
            return
        self.stack.setCurrentWidget(self._content)
        tokens, dims = tokens_of(state, self.document.data), state.teaching_q.shape[1]
        colours = [token_colour(s) for s in colour_slots(state, self.document.data)]
        if (tokens, colours, dims) != (self.tokens, self.colours, self._dims):
            self._reshape(tokens, colours, dims)
        self.reshape_bar.show_world(tokens, dims)
        matrices = {"q": state.teaching_q, "k": state.teaching_k}
        if not self.document.dragging:
            reach = bar_reach(np.concatenate([state.teaching_q, state.teaching_k]))
            for chart in self.charts.values():
                chart.set_reach(reach)
        selected = {"q": state.query, "k": state.key}
        width = self.look.px(1.5)
        for (role, token), chart in self.charts.items():
            picked = selected[role] == token
            chart.show(matrices[role][token], picked, self.look.opacity(picked), width)
        self._show_tokens()
        if (state.query, state.key) != self._pair_shown:
            QTimer.singleShot(0, self, self._show_pair)  # after the layout has settled
        self._mark_pair(state.query, state.key)

    def _mark_pair(self, query: int, key: int) -> None:
        """Check the pair's pick buttons and mark its names, only when the pair, the
        tokens or the look changed: a drag step moves a value, never the pair, and setting
        ten buttons and five names again cost a tenth of the editor's refresh."""
        marked = (query, key, self.tokens, tuple(self.colours), self.look,
                  tuple(self.name_labels))
        if marked == self._marked:
            return
        self._marked = marked
        selected = {"q": query, "k": key}
        for (role, token), button in self.pick_buttons.items():
            button.blockSignals(True)
            button.setChecked(selected[role] == token)
            button.blockSignals(False)
        for token, label in enumerate(self.name_labels):
            picked = token in (query, key)
            label.setText(f"▶ {self.tokens[token]}" if picked else self.tokens[token])
            colour = self.colours[token]
            faded = self.look.spotlight and not picked
            style = f"color: {self.look.faded(colour) if faded else colour};"
            if label.styleSheet() != style:  # the spotlight fades the tokens not in the pair
                label.setStyleSheet(style)

    # --- edits ---------------------------------------------------------------------------

    def _pick(self, role: str, token: int) -> None:
        self.document.select(**({"query": token} if role == "q" else {"key": token}))

    def _edit(self, role: Role, token: int, dim: int, value: float) -> None:
        state = self.document.state
        if state.world != "teaching":
            return
        matrix = state.teaching_q if role == "q" else state.teaching_k
        values = np.array(matrix[token])
        values[dim] = value
        self.document.set_vector(role, token, values)

    def _on_drag_started(self, _dim: int) -> None:
        self.message.hide()
        self.document.begin_drag()

    def _on_dragged(self, role: Role, token: int, dim: int, value: float, free: bool) -> None:
        self._edit(role, token, dim, snapped(value, free))

    def _on_drag_finished(self, role: str, token: int, dim: int) -> None:
        self.document.end_drag()  # every panel refits its held scales
        self._hold_value(role, token, dim)

    def _on_bar_clicked(self, role: str, token: int, dim: int) -> None:
        self._pick(role, token)
        self._hold_value(role, token, dim)

    def _hold_value(self, role: str, token: int, dim: int) -> None:
        """The bar last clicked or dragged is the selected value: its box takes the focus,
        so ↑ / ↓ nudge it a step at a time (a touchpad drag moves it ~0.3 a pixel)."""
        box = self.charts[(role, token)].boxes[dim]
        if box.isVisible():
            box.setFocus()
            box.selectAll()

    def _on_typed(self, role: Role, token: int, dim: int, value: float) -> None:
        self.message.hide()
        self._edit(role, token, dim, value)

    def _on_refused(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()

    def _on_row_typed(self, role: Role, token: int, box: EntryBox, parts: tuple[str, ...],
                      text: str) -> None:
        """Several numbers typed or pasted into one box: d of them fill the vector (one undo
        step); another count is refused under the box."""
        values = box.read_row(parts)
        if values is None or self.document.state.world != "teaching":
            return
        if len(values) != self._dims:
            box.refuse(tr("typed.row_count", typed=quoted(text), count=len(values),
                          d=self._dims))
            return
        self.message.hide()
        self.document.set_vector(role, token, np.array(values))
