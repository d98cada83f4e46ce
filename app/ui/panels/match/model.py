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
from app.ui.format import UNDEFINED_TEXT, format_score

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
"""The float a column sorts by (None when undefined), so "10.0" sorts after "9.0"."""

SCORED: tuple[str, ...] = ("dot", "cosine", "neg_euclidean", "additive")
"""The scorers the table compares, in column order; each has a value and a rank column."""

COLUMNS: tuple[str, ...] = ("key", "norm", *(f"{kind}{part}" for kind in SCORED
                                             for part in ("", "_rank")))
HEADER_TIPS = {
    "key": "match.tip.key",
    "norm": "match.tip.norm",
    "dot": "match.tip.dot",
    "cosine": "match.tip.cosine",
    "neg_euclidean": "match.tip.neg_euclidean",
    "additive": "match.tip.additive",
}
ADDITIVE_COLUMNS = (COLUMNS.index("additive"), COLUMNS.index("additive_rank"))
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
            self.endResetModel()
            return
        self.rows = rows
        old, self._cells = self._cells, self._snapshot()
        for row, (before, after) in enumerate(zip(old, self._cells, strict=True)):
            moved = [c for c in range(len(COLUMNS)) if before[c] != after[c]]
            for column in moved:
                cell = self.index(row, column)
                self.dataChanged.emit(cell, cell)

    def widest(self) -> tuple[int, ...]:
        """Per column, the advance of its widest text in either mode, as painted (bold in
        flagged rows and the key column): what sizing the columns depends on."""
        metrics = [QFontMetrics(font) for font in self._fonts]
        widths = [0] * len(COLUMNS)
        for row, cells in enumerate(self._cells):
            flagged = row in self.rows.flagged
            for column, cell in enumerate(cells):
                width = metrics[flagged or column == 0].horizontalAdvance(str(cell[1]))
                widths[column] = max(widths[column], width)
        names = (*self.rows.names, *self.rows.short_names)
        widths[0] = max([widths[0], *(metrics[1].horizontalAdvance(n) for n in names)])
        return tuple(widths)

    def _snapshot(self) -> list[tuple[tuple[object, ...], ...]]:
        """Per row, per column: what the cell shows, sorts by and is styled with."""
        rows = self.rows
        grid = []
        for row in range(len(rows.names)):
            style = (row in rows.flagged, self.spotlight is not None and row != self.spotlight,
                     rows.tips.get(row), rows.names[row])
            grid.append(tuple((*self._value(row, column), *style) for column in COLUMNS))
        return grid

    def set_compact(self, on: bool) -> None:
        """Switch between full and compact texts; the view re-measures both."""
        if on == self.compact:
            return
        self.compact = on
        self._cells = self._snapshot()
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

    def _value(self, row: int, column: str) -> tuple[float | None, str]:
        """(sort value, text) of one cell; None sorts as undefined."""
        rows = self.rows
        if column == "key":
            return float(row), self._name(row)
        if column == "norm":
            return float(rows.norms[row]), format_score(float(rows.norms[row]))
        if column.endswith("_rank"):
            name = column.removesuffix("_rank")
            ranks, scores = rows.ranks.get(name), rows.scores.get(name)
            if ranks is None or scores is None or scores[row] is np.ma.masked:
                return None, UNDEFINED_TEXT  # no score, no place in the order
            return float(ranks[row]), str(int(ranks[row]))
        scores = rows.scores.get(column)
        if scores is None or scores[row] is np.ma.masked:
            return None, UNDEFINED_TEXT
        return float(scores[row]), format_score(float(scores[row]))

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
            if column == "key" and self._name(row) != self.rows.names[row]:
                return "\n".join(filter(None, (self.rows.names[row], self.rows.tips.get(row))))
            if column == "cosine" and self._value(row, column)[0] is None:
                return tr("match.tip.undefined_cos")
            return self.rows.tips.get(row)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        column = COLUMNS[section]
        base = column.removesuffix("_rank")
        if role == Qt.ItemDataRole.DisplayRole:
            if column.endswith("_rank"):
                return tr("match.col.short.rank") if self.compact else tr("match.col.rank")
            return tr(f"match.col.short.{base}" if self.compact else f"match.col.{base}")
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
