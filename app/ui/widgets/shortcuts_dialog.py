"""Owns the F1 list of keyboard shortcuts: a two-column table that scrolls inside a dialog
never larger than the screen (at 200 % on a 1024×768 projector the list is taller than it)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.ui.qt_known import layout_of

SCREEN_SHARE = 0.9
"""The dialog takes at most this share of the screen's free width and height."""


class ShortcutsDialog(QDialog):
    """Action names beside their keys; the table scrolls when the screen is too short."""

    def __init__(self, rows: list[tuple[str, str]], title: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcuts_dialog")
        self.setWindowTitle(title)
        self.table = QTableWidget(len(rows), 2, self)
        self.table.setObjectName("shortcuts_table")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().hide()
        self.table.verticalHeader().hide()
        self.table.setShowGrid(False)
        for row, (name, keys) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(name))
            key = QTableWidgetItem(keys)
            font = key.font()
            font.setBold(True)
            key.setFont(font)
            self.table.setItem(row, 1, key)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(False)  # one line a row: a wrapped name made rows uneven
        self.table.resizeRowsToContents()
        even = max((self.table.rowHeight(r) for r in range(len(rows))), default=0)
        rows_header = self.table.verticalHeader()
        rows_header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows_header.setDefaultSectionSize(even)  # Chinese and Latin rows alike
        for row in range(len(rows)):
            self.table.setRowHeight(row, even)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.fit_screen()

    def text(self) -> str:
        """Every row as "name<TAB>keys", one a line (what the dialog lists)."""
        return "\n".join(f"{_text(self.table.item(r, 0))}\t{_text(self.table.item(r, 1))}"
                         for r in range(self.table.rowCount()))

    def fit_screen(self) -> None:
        """As large as the whole list, but never beyond the screen: then the table scrolls."""
        parent = self.parentWidget()
        screen = (parent.screen() if parent is not None else None) \
            or QGuiApplication.primaryScreen()
        self.table.resizeColumnsToContents()
        frame = 2 * self.table.frameWidth()
        want_w = sum(self.table.columnWidth(c) for c in range(2)) + frame + 40
        want_h = sum(self.table.rowHeight(r) for r in range(self.table.rowCount())) + frame
        margins = layout_of(self).contentsMargins()
        want_h += margins.top() + margins.bottom() + 3 * layout_of(self).spacing() + 60
        want_w += margins.left() + margins.right()
        if screen is not None:
            area = screen.availableGeometry()
            most_w, most_h = int(area.width() * SCREEN_SHARE), int(area.height() * SCREEN_SHARE)
            self.setMaximumSize(most_w, most_h)
            want_w, want_h = min(want_w, most_w), min(want_h, most_h)
            self.resize(want_w, want_h)
            self.move(area.center() - self.rect().center())
        else:
            self.resize(want_w, want_h)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


def _text(item: QTableWidgetItem | None) -> str:
    """A cell's text: the dialog fills every cell of the table when it is made."""
    assert item is not None
    return item.text()
