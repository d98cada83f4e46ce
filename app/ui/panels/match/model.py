"""Owns the item model behind the "three kinds of match" table, and its numeric sorting proxy."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
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


@dataclass
class MatchRows:
    """The numbers of one query row, as the table shows them (no Qt, easy to test)."""

    names: tuple[str, ...] = ()
    short_names: tuple[str, ...] = ()
    """The bare tokens (no gloss), shown when the table must be compact; empty: use names."""
    whole_names: tuple[str, ...] = ()
    """Each key's whole name (the others may be shortened), for the key column's tooltip."""
    norms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    scores: dict[str, np.ma.MaskedArray] = field(default_factory=dict)
    ranks: dict[str, np.ndarray] = field(default_factory=dict)
    flagged: frozenset[int] = frozenset()
    tips: dict[int, str] = field(default_factory=dict)


class MatchModel(QAbstractTableModel):
    """One row per key: |k|, then value and rank under each scorer; flagged rows stand out."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows = MatchRows()
        self._widths: list[tuple[int, tuple[int, ...]] | None] = [None] * len(COLUMNS)
        """`_measured` per column for the current cells and fonts (None: measure it when
        next asked)."""
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
        self._cells: list[tuple[tuple[object, ...], ...]] = []
        """What each cell showed when last announced (see `set_rows`)."""

    def set_rows(self, rows: MatchRows) -> None:
        """Install new numbers. Another number of rows resets the model; otherwise only the
        cells whose text, sort value or row style moved get dataChanged (a drag step touches
        the dragged key's row and the ranks it passes, so only those cells repaint; one cell
        per signal: the view repaints the whole rectangle of a range)."""
        if len(rows.names) != len(self.rows.names):
            self.beginResetModel()
            self.rows = rows
            self._cells = self._snapshot()
            self._forget_widths()
            self.endResetModel()
            return
        self.rows = rows
        old, self._cells = self._cells, self._snapshot()
        for row, (before, after) in enumerate(zip(old, self._cells, strict=True)):
            moved = [c for c in range(len(COLUMNS)) if before[c] != after[c]]
            if moved and before[0][2:4] != after[0][2:4]:  # the row's style: every font
                self._forget_widths()
            for column in moved:
                self._forget_widths(column)
                cell = self.index(row, column)
                self.dataChanged.emit(cell, cell)

    def widest(self) -> tuple[int, ...]:
        """Per column, the advance of its widest text in either mode, as painted (bold in
        flagged rows and the key column): what sizing the columns depends on."""
        return tuple(width for width, _ in self._measured())

    def widest_rows(self) -> tuple[tuple[int, ...], ...]:
        """Per column, the rows whose text is widest in this mode, in the plain and in the
        bold font: the only cells whose size sizing a column must ask the view for."""
        return tuple(rows for _, rows in self._measured())

    def _measured(self) -> list[tuple[int, tuple[int, ...]]]:
        """(widest advance in either mode, rows widest in this mode per font) per column,
        each column measured once per set of texts and fonts (a drag step or a switch to the
        compact texts re-measures only the columns that changed)."""
        metrics = [QFontMetrics(font) for font in self._fonts]
        flagged = self.rows.flagged
        if sum(map(len, self._advances)) > ADVANCES_KEPT:  # a long session's old numbers
            self._advances = ({}, {})

        def advance(bold: bool, text: str) -> int:
            known = self._advances[bold]
            if text not in known:
                known[text] = metrics[bold].horizontalAdvance(text)
            return known[text]

        for column, known in enumerate(self._widths):
            if known is not None:
                continue
            best: dict[bool, tuple[int, int]] = {}  # bold? -> (advance, row)
            for row, cells in enumerate(self._cells):
                bold = column == 0 or row in flagged
                width = advance(bold, str(cells[column][1]))
                if width > best.get(bold, (-1, 0))[0]:
                    best[bold] = (width, row)
            widest = max((width for width, _ in best.values()), default=0)
            if column == 0:  # the names of both modes: the column may switch to either
                names = (*self.rows.names, *self.rows.short_names)
                widest = max([widest, *(advance(True, n) for n in names)])
            self._widths[column] = (widest, tuple(row for _, row in best.values()))
        return [known for known in self._widths if known is not None]

    def _forget_widths(self, *columns: int) -> None:
        """Measure these columns (all, when none is named) again when next asked."""
        for column in columns or range(len(COLUMNS)):
            self._widths[column] = None

    def _snapshot(self) -> list[tuple[tuple[object, ...], ...]]:
        """Per row, per column: what the cell shows, sorts by and is styled with. Built a
        column at a time from plain lists (a 4,096-key import has 40,000 cells)."""
        rows = self.rows
        columns = [self._column(column) for column in COLUMNS]
        grid: list[tuple[tuple[object, ...], ...]] = []
        for row in range(len(rows.names)):
            # what paints: a tooltip is read when it is shown, so a new one repaints nothing
            # (the reasons it quotes change at most drag steps, and announced every cell)
            style = (row in rows.flagged, self.spotlight is not None and row != self.spotlight,
                     rows.names[row])
            grid.append(tuple((*column[row], *style) for column in columns))
        return grid

    def _column(self, column: str) -> list[tuple[float | None, str]]:
        """(sort value, text) of every row of one column; None sorts as undefined."""
        rows = self.rows
        count = len(rows.names)
        if column == "key":
            return [(float(row), self._name(row)) for row in range(count)]
        if column == "norm":
            return [(norm, format_score(norm)) for norm in np.asarray(rows.norms, float).tolist()]
        name = column.removesuffix("_rank")
        scores = rows.scores.get(name)
        if scores is None or (column.endswith("_rank") and name not in rows.ranks):
            return [(None, UNDEFINED_TEXT)] * count  # no score, no place in the order
        masked = np.ma.getmaskarray(scores).tolist()
        if column.endswith("_rank"):
            ranks = np.asarray(rows.ranks[name]).tolist()
            return [(None, UNDEFINED_TEXT) if off else (float(rank), str(int(rank)))
                    for rank, off in zip(ranks, masked, strict=True)]
        values = np.ma.getdata(scores).astype(np.float64).tolist()
        return [(None, UNDEFINED_TEXT) if off else (value, format_score(value))
                for value, off in zip(values, masked, strict=True)]

    def set_compact(self, on: bool) -> None:
        """Switch between full and compact texts (only the key column's names change); the
        view re-measures both."""
        if on == self.compact:
            return
        self.compact = on
        self._cells = [((key[0], self._name(row), *key[2:]), *rest)
                       for row, (key, *rest) in enumerate(self._cells)]
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
        row, column = index.row(), COLUMNS[index.column()]
        flagged = row in self.rows.flagged
        dim = self.spotlight is not None and row != self.spotlight
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cells[row][index.column()][1]
        if role == SORT_ROLE:
            return self._cells[row][index.column()][0]
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
            if column in SCORED and self._cells[row][index.column()][0] is None:
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


class NumericSortProxy(QSortFilterProxyModel):
    """Sorts by SORT_ROLE numbers; undefined cells (None) go last in either direction.

    Ties compare False both ways, so Qt's stable sort keeps them in key order.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def lessThan(self, left: Index, right: Index) -> bool:
        a = left.data(SORT_ROLE)
        b = right.data(SORT_ROLE)
        if a is None or b is None:
            if a is None and b is None:
                return False
            return (b is None) == (self.sortOrder() == Qt.SortOrder.AscendingOrder)
        return a < b
