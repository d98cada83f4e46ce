"""Owns the item model behind the "three kinds of match" table, and its numeric sorting proxy."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np
from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics

from app.i18n import tr
from app.model.scoring import SCORERS
from app.ui.format import UNDEFINED_TEXT, format_score

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
"""The float a column sorts by (None when undefined), so "10.0" sorts after "9.0"."""

SCORED: tuple[str, ...] = tuple(name for name, scorer in SCORERS.items() if scorer.compared)
"""The scorers the table compares (those with `compared` facts when this module loads), in the
registry's order; each has a value and a rank column."""

COLUMNS: tuple[str, ...] = ("key", "norm", *(f"{kind}{part}" for kind in SCORED
                                             for part in ("", "_rank")))
CELLS_BETWEEN_CLOCKS = 32
"""Cells `measure` reads between two looks at the clock."""
ADVANCES_KEPT = 65_536
"""Measured texts kept per model before they are forgotten (a few imports' worth)."""
HEADER_TIPS = {
    "key": "match.tip.key",
    "norm": "match.tip.norm",
    **{name: scorer.compared.tip for name, scorer in SCORERS.items() if scorer.compared},
}
ADDITIVE_COLUMNS = tuple(COLUMNS.index(f"{name}{part}") for name in SCORED
                         if SCORERS[name].needs is not None for part in ("", "_rank"))
"""The columns of the scorers that need learned weights, shown only when asked for."""
HIGHLIGHT = {"light": ("#FBD9A8", "#000000"), "dark": ("#6B4A12", "#FFFFFF")}
"""Background and text of a disagreeing row: Okabe–Ito orange, pale on light, deep on dark."""


def _same_names(a: Sequence[str], b: Sequence[str]) -> bool:
    """The same names (the same object when the panel's are unchanged: read nothing)."""
    return a is b or (len(a) == len(b) and all(x == y for x, y in zip(a, b, strict=True)))


def highlight_kind(background: str) -> str:
    """"dark" for a dark theme background, else "light" (any theme, present or future)."""
    return "dark" if QColor(background).lightness() < 128 else "light"

Index = QModelIndex | QPersistentModelIndex
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_ROLES = frozenset(int(role) for role in (
    Qt.ItemDataRole.DisplayRole, SORT_ROLE, Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.FontRole, Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.ToolTipRole))


class Names(Sequence[str]):
    """Token names shown as `shown` makes them, each worked out when first read: a table of
    an import's 4,096 keys paints a screenful of them, and measures the rest a few hundred
    per event-loop turn (`MatchModel.measure`)."""

    def __init__(self, source: Sequence[str], shown: Callable[[str], str]) -> None:
        self._source = source
        self._shown = shown
        self._made: list[str | None] = [None] * len(source)

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        made = self._made[index]
        if made is None:
            made = self._made[index] = self._shown(self._source[index])
        return made


@dataclass
class MatchRows:
    """The numbers of one query row, as the table shows them (no Qt, easy to test)."""

    names: Sequence[str] = ()
    short_names: Sequence[str] = ()
    """The bare tokens (no gloss), shown when the table must be compact; empty: use names."""
    whole_names: Sequence[str] = ()
    """Each key's whole name (the others may be shortened), for the key column's tooltip."""
    norms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    scores: dict[str, np.ma.MaskedArray] = field(default_factory=dict)
    ranks: dict[str, np.ndarray] = field(default_factory=dict)
    flagged: frozenset[int] = frozenset()
    tips: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Sorted:
    """One column's sort values: `values` where `defined`, undefined (None) elsewhere."""

    values: np.ndarray
    defined: np.ndarray

    def at(self, row: int) -> float | None:
        return float(self.values[row]) if self.defined[row] else None

    def moved(self, before: _Sorted) -> np.ndarray:
        """The rows whose value (or whether it is defined) differs from `before`'s."""
        changed = (self.defined != before.defined) | (self.defined & (self.values
                                                                      != before.values))
        return np.flatnonzero(changed)


Widths = tuple[int, tuple[int, ...]]
"""(widest advance in either mode, rows widest in this mode per font) of one column."""


class MatchModel(QAbstractTableModel):
    """One row per key: |k|, then value and rank under each scorer; flagged rows stand out.

    A cell's text is made when first read (painted, sized or exported), from the numbers, so
    an import's 4,096 rows cost what the screen shows; the columns' widths are measured a
    part at a time (`measure`) when the caller can wait, all at once when it cannot."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows = MatchRows()
        self._widths: list[Widths | None] = [None] * len(COLUMNS)
        """`_measured` per column for the current cells and fonts (None: measure it when
        next asked)."""
        self._measuring: list[Generator[None, None, Widths] | None] = [None] * len(COLUMNS)
        """Each column's measurement in progress (see `measure`)."""
        self._advances: tuple[dict[str, int], dict[str, int]] = ({}, {})
        """Each text's advance in the plain and the bold font, while the fonts stay: a
        4,096-key import repeats its ranks in every rank column and "—" in a whole column."""
        self._fonts = (QFont(), QFont())
        self.font = QFont()
        self.theme = "light"  # highlight_kind() of the look's background
        self.compact = False
        """Narrow dock: short two-line headers and bare tokens, so every score column fits."""
        self.spotlight: int | None = None
        """The key row left in full colour while the spotlight is on; None: every row is."""
        self.faded = ("#C7C7C7", "#FEF4E5")
        """Text and flagged background of the rows the spotlight dims (set from the look)."""
        self._sorted: list[_Sorted] = [self._sort_values(column) for column in COLUMNS]
        self._texts: list[list[str | None]] = [[] for _ in COLUMNS]
        """Each numeric cell's text once made (None: not made yet, or its number moved)."""
        self._shown_spotlight: int | None = None
        """The spotlight the cells were last announced with."""

    def set_rows(self, rows: MatchRows) -> None:
        """Install new numbers. Another number of rows resets the model; otherwise only the
        cells whose sort value or row style moved get dataChanged (a drag step touches the
        dragged key's row and the ranks it passes, so only those cells repaint; one cell per
        signal: the view repaints the whole rectangle of a range)."""
        before, sorted_before = self.rows, self._sorted
        self.rows = rows
        self._sorted = [self._sort_values(column) for column in COLUMNS]
        count = len(rows.names)
        if count != len(before.names):
            self.beginResetModel()
            self._texts = [[None] * count for _ in COLUMNS]
            self._shown_spotlight = self.spotlight
            self._forget_widths()
            self.endResetModel()
            return
        spotlights = (self._shown_spotlight, self.spotlight)
        self._shown_spotlight = self.spotlight
        restyled = set(before.flagged ^ rows.flagged)
        if spotlights[0] != spotlights[1]:
            dimmed = [spot for spot in spotlights if spot is not None]
            restyled.update(range(count) if None in spotlights else dimmed)
        if restyled:
            self._forget_widths()  # a row turned bold or plain: every column may differ
        if not (_same_names(before.names, rows.names)
                and _same_names(before.short_names, rows.short_names)):
            restyled.update(range(count))
            self._forget_widths()
        for column, (now, was) in enumerate(zip(self._sorted, sorted_before, strict=True)):
            moved = set(now.moved(was).tolist())
            texts = self._texts[column]
            for row in moved:
                texts[row] = None
            if moved:
                self._forget_widths(column)
            if len(restyled) == count and count:  # every row: one range says it
                self.dataChanged.emit(self.index(0, column), self.index(count - 1, column))
                continue
            for row in sorted(moved | restyled):
                cell = self.index(row, column)
                self.dataChanged.emit(cell, cell)

    def measure(self, seconds: float | None = None) -> bool:
        """Measure the columns' widths on for about `seconds` (None: to the end); True once
        every column is measured (`widest` then reads nothing)."""
        if sum(map(len, self._advances)) > ADVANCES_KEPT:  # a long session's old numbers
            self._advances = ({}, {})
        end = None if seconds is None else time.perf_counter() + seconds
        for column, known in enumerate(self._widths):
            if known is not None:
                continue
            steps = self._measuring[column] or self._measure_column(column)
            try:
                while end is None or time.perf_counter() < end:
                    for _ in range(CELLS_BETWEEN_CLOCKS):
                        next(steps)
            except StopIteration as done:
                self._widths[column], self._measuring[column] = done.value, None
                continue
            self._measuring[column] = steps
            return False
        return True

    def widest(self) -> tuple[int, ...]:
        """Per column, the advance of its widest text in either mode, as painted (bold in
        flagged rows and the key column): what sizing the columns depends on."""
        return tuple(width for width, _ in self._measured())

    def widest_rows(self) -> tuple[tuple[int, ...], ...]:
        """Per column, the rows whose text is widest in this mode, in the plain and in the
        bold font: the only cells whose size sizing a column must ask the view for."""
        return tuple(rows for _, rows in self._measured())

    def _measured(self) -> list[Widths]:
        """(widest advance in either mode, rows widest in this mode per font) per column,
        each column measured once per set of texts and fonts (a drag step or a switch to the
        compact texts re-measures only the columns that changed)."""
        self.measure()
        return [known for known in self._widths if known is not None]

    def _measure_column(self, column: int) -> Generator[None, None, Widths]:
        """Measure one column, a cell per step."""
        metrics = [QFontMetrics(font) for font in self._fonts]
        advances = self._advances

        def advance(bold: bool, text: str) -> int:
            known = advances[bold]
            if text not in known:
                known[text] = metrics[bold].horizontalAdvance(text)
            return known[text]

        rows = self.rows
        best: dict[bool, tuple[int, int]] = {}  # bold? -> (advance, row)
        for row in range(len(rows.names)):
            bold = column == 0 or row in rows.flagged
            width = advance(bold, self._text(row, column))
            if width > best.get(bold, (-1, 0))[0]:
                best[bold] = (width, row)
            yield
        widest = max((width for width, _ in best.values()), default=0)
        if column == 0:  # the names of both modes: the column may switch to either
            for names in (rows.names, rows.short_names):
                for name in names:
                    widest = max(widest, advance(True, name))
                    yield
        return widest, tuple(row for _, row in best.values())

    def _forget_widths(self, *columns: int) -> None:
        """Measure these columns (all, when none is named) again when next asked."""
        for column in columns or range(len(COLUMNS)):
            self._widths[column] = self._measuring[column] = None

    def sort_keys(self, column: int) -> tuple[np.ndarray, np.ndarray]:
        """The numbers column `column` sorts by, per row, and where they are defined."""
        keys = self._sorted[column]
        return keys.values, keys.defined

    def _sort_values(self, column: str) -> _Sorted:
        """The numbers one column sorts by, for every row at once."""
        rows = self.rows
        count = len(rows.names)
        everywhere = np.ones(count, dtype=bool)
        if column == "key":
            return _Sorted(np.arange(count, dtype=np.float64), everywhere)
        if column == "norm":
            return _Sorted(np.asarray(rows.norms, np.float64), everywhere)
        name = column.removesuffix("_rank")
        scores = rows.scores.get(name)
        if scores is None or (column.endswith("_rank") and name not in rows.ranks):
            return _Sorted(np.zeros(count), ~everywhere)  # no score, no place in the order
        defined = ~np.ma.getmaskarray(scores)
        if column.endswith("_rank"):
            return _Sorted(np.asarray(rows.ranks[name], np.float64), defined)
        return _Sorted(np.ma.getdata(scores).astype(np.float64), defined)

    def _text(self, row: int, column: int) -> str:
        """What a cell shows, made when first asked for."""
        if column == 0:
            return self._name(row)
        texts = self._texts[column]
        text = texts[row]
        if text is None:
            value = self._sorted[column].at(row)
            if value is None:
                text = UNDEFINED_TEXT
            elif COLUMNS[column].endswith("_rank"):
                text = str(int(value))
            else:
                text = format_score(value)
            texts[row] = text
        return text

    def set_compact(self, on: bool) -> None:
        """Switch between full and compact texts (only the key column's names change); the
        view re-measures both."""
        if on == self.compact:
            return
        self.compact = on
        self._forget_widths(0)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if self.rows.names:
            last = len(self.rows.names) - 1
            self.dataChanged.emit(self.index(0, 0), self.index(last, 0))

    @property
    def font(self) -> QFont:
        """The cells' font; bold for the key column and flagged rows (both kept ready, as
        painting asks for a cell's font at every repaint)."""
        return self._fonts[0]

    @font.setter
    def font(self, font: QFont) -> None:
        bold = QFont(font)
        bold.setBold(True)
        plain = QFont(font)
        plain.setBold(False)
        self._fonts = (plain, bold)
        self._advances = ({}, {})
        self._forget_widths()

    def _name(self, row: int) -> str:
        if self.compact and self.rows.short_names:
            return self.rows.short_names[row]
        return self.rows.names[row]

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows.names)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role not in _ROLES or not index.isValid():  # painting asks for many roles per cell
            return None
        return self.cell(index.row(), index.column(), role)

    def cell(self, row: int, section: int, role: int) -> object:
        """`data` of the cell at `row`, column `section` (the sorting proxy asks by row)."""
        column = COLUMNS[section]
        flagged = row in self.rows.flagged
        dim = self.spotlight is not None and row != self.spotlight
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, section)
        if role == SORT_ROLE:
            return self._sorted[section].at(row)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _LEFT if column == "key" else _RIGHT
        if role == Qt.ItemDataRole.FontRole:
            return self._fonts[flagged or column == "key"]
        if role == Qt.ItemDataRole.BackgroundRole and flagged:
            return QColor(self.faded[1] if dim else HIGHLIGHT[self.theme][0])
        if role == Qt.ItemDataRole.ForegroundRole and (flagged or dim):
            return QColor(self.faded[0] if dim else HIGHLIGHT[self.theme][1])
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "key":
                named = self.rows.names[row]
                parts = [named] if self._name(row) != named else []  # the gloss compact drops
                whole = self.rows.whole_names[row] if self.rows.whole_names else named
                if whole not in named:  # a name shortened to its room
                    parts.append(whole)
                return "\n".join(filter(None, (*parts, self.rows.tips.get(row)))) or None
            if column in SCORED and self._sorted[section].at(row) is None:
                return tr("match.tip.undefined_cos")
            return self.rows.tips.get(row)
        return None

    def header_text(self, section: int, compact: bool) -> str:
        """A column's name, full or compact (as the header shows it, and for export)."""
        column = COLUMNS[section]
        if column.endswith("_rank"):
            return tr("match.col.short.rank") if compact else tr("match.col.rank")
        return tr(f"match.col.short.{column}" if compact else f"match.col.{column}")

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        column = COLUMNS[section]
        base = column.removesuffix("_rank")
        if role == Qt.ItemDataRole.DisplayRole:
            return self.header_text(section, self.compact)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column.endswith("_rank"):
                return tr("match.tip.rank", scorer=tr(f"match.col.{base}"))
            return tr(HEADER_TIPS[base])
        if role == Qt.ItemDataRole.FontRole:
            return self._fonts[1]
        return None


class NumericSortProxy(QAbstractProxyModel):
    """The table's rows in the order of one column's numbers; undefined cells (None) go last
    in either direction, and ties keep key order (a stable sort).

    The order is one NumPy sort of the column (`MatchModel.sort_keys`): Qt's sorting proxy
    compares two cells through Python at every step of its sort, 0.2–0.4 s a click on an
    import's 4,096 rows. The table's values move on a drag step: `resort` (called once the
    rows are set) moves the rows to their new places."""

    _FLAGS = (Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled
              | Qt.ItemFlag.ItemNeverHasChildren)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._model: MatchModel | None = None
        self._column = -1
        self._ascending = True
        self._order = np.zeros(0, dtype=np.intp)
        """Source row (key) of each table row."""
        self._place = np.zeros(0, dtype=np.intp)
        """Table row of each source row."""
        self._keys: list[int] = []
        """`_order` as a list: painting reads a row's key for every role of every cell."""

    def setSourceModel(self, model: QAbstractItemModel) -> None:
        assert isinstance(model, MatchModel)  # sorted by its numbers
        self.beginResetModel()
        super().setSourceModel(model)
        self._model = model
        model.dataChanged.connect(self._on_data_changed)
        model.modelAboutToBeReset.connect(self.beginResetModel)
        model.modelReset.connect(self._on_reset)
        model.headerDataChanged.connect(self.headerDataChanged)
        self._on_reset()

    def sortOrder(self) -> Qt.SortOrder:
        return Qt.SortOrder.AscendingOrder if self._ascending else Qt.SortOrder.DescendingOrder

    def sortColumn(self) -> int:
        return self._column

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._column, self._ascending = column, order == Qt.SortOrder.AscendingOrder
        self.resort()

    def resort(self) -> None:
        """Put the rows in the order of the sorted column's current numbers; the selection
        and the current row stay on their keys."""
        order = self._sorted_order()
        if np.array_equal(order, self._order):
            return
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        keys = [self._keys[index.row()] for index in before]
        self._set_order(order)
        self.changePersistentIndexList(before, [
            self.index(int(self._place[key]), index.column())
            for key, index in zip(keys, before, strict=True)])
        self.layoutChanged.emit()

    def _sorted_order(self) -> np.ndarray:
        model = self._model
        count = 0 if model is None else model.rowCount()
        if model is None or not 0 <= self._column < model.columnCount():
            return np.arange(count, dtype=np.intp)
        values, defined = model.sort_keys(self._column)
        values = np.where(defined, values, 0.0)
        # lexsort is stable and sorts by its last key first: the defined rows, by value
        return np.lexsort((values if self._ascending else -values, ~defined)).astype(np.intp)

    def _set_order(self, order: np.ndarray) -> None:
        self._order, self._keys = order, order.tolist()
        self._place = np.empty_like(order)
        self._place[order] = np.arange(len(order), dtype=np.intp)

    def _on_reset(self) -> None:
        self._set_order(self._sorted_order())
        self.endResetModel()

    def _on_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex,
                         roles: Sequence[int] = ()) -> None:
        first, last = top_left.row(), bottom_right.row()
        if first == last:
            row = int(self._place[first])
            self.dataChanged.emit(self.index(row, top_left.column()),
                                  self.index(row, bottom_right.column()), roles)
        else:  # a range of keys is a range of table rows only unsorted: say every row
            self.dataChanged.emit(self.index(0, top_left.column()),
                                  self.index(self.rowCount() - 1, bottom_right.column()), roles)

    def mapToSource(self, index: Index) -> QModelIndex:
        if not index.isValid() or self._model is None:
            return QModelIndex()
        return self._model.index(self._keys[index.row()], index.column())

    def mapFromSource(self, index: Index) -> QModelIndex:
        if not index.isValid():
            return QModelIndex()
        return self.index(int(self._place[index.row()]), index.column())

    def index(self, row: int, column: int,
              parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if parent.isValid() or not (0 <= row < len(self._order)
                                    and 0 <= column < self.columnCount()):
            return QModelIndex()
        return self.createIndex(row, column)

    def parent(self, index: Index | None = None) -> Any:
        """No row has children (called without an index, QObject's parent)."""
        if index is None:
            return super().parent()
        return QModelIndex()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self._model is None else self._model.columnCount()

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role not in _ROLES or not index.isValid() or self._model is None:
            return None
        return self._model.cell(self._keys[index.row()], index.column(), role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return self._FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if self._model is None:
            return None
        return self._model.headerData(section, orientation, role)
