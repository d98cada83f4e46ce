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
from PySide6.QtGui import QColor, QFont

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
        self.font = QFont()
        self.theme = "light"  # highlight_kind() of the look's background
        self.compact = False
        """Narrow dock: short two-line headers and bare tokens, so every score column fits."""
        self.spotlight: int | None = None
        """The key row left in full colour while the spotlight is on; None: every row is."""
        self.faded = ("#C7C7C7", "#FEF4E5")
        """Text and flagged background of the rows the spotlight dims (set from the look)."""

    def set_rows(self, rows: MatchRows) -> None:
        """Install new numbers; same shape → dataChanged (keeps selection), else a reset."""
        if len(rows.names) != len(self.rows.names):
            self.beginResetModel()
            self.rows = rows
            self.endResetModel()
            return
        self.rows = rows
        if rows.names:
            last = self.index(len(rows.names) - 1, len(COLUMNS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    def set_compact(self, on: bool) -> None:
        """Switch between full and compact texts; the view re-measures both."""
        if on == self.compact:
            return
        self.compact = on
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if self.rows.names:
            last = len(self.rows.names) - 1
            self.dataChanged.emit(self.index(0, 0), self.index(last, 0))

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
        if not index.isValid():
            return None
        row, column = index.row(), COLUMNS[index.column()]
        flagged = row in self.rows.flagged
        dim = self.spotlight is not None and row != self.spotlight
        if role == Qt.ItemDataRole.DisplayRole:
            return self._value(row, column)[1]
        if role == SORT_ROLE:
            return self._value(row, column)[0]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            align = Qt.AlignmentFlag.AlignLeft if column == "key" else Qt.AlignmentFlag.AlignRight
            return int(align | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole:
            font = QFont(self.font)
            font.setBold(flagged or column == "key")
            return font
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
            font = QFont(self.font)
            font.setBold(True)
            return font
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
