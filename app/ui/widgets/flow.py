"""Owns a layout that lays its items left to right and wraps them into further rows, so a
row of buttons fits a narrow dock at any zoom without scrolling sideways."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QWidget


class FlowLayout(QLayout):
    """Items in reading order, wrapped at the layout's width; each row's items stretch to
    fill it (a chip's text stays whole). Its height follows its width (heightForWidth), so
    the layouts around it give it as many rows as it needs."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setContentsMargins(0, 0, 0, 0)
        self.setSpacing(spacing)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        """One row: the width all items want side by side."""
        shown = self._shown()
        width = sum(item.sizeHint().width() for item in shown) + self.spacing() * max(
            0, len(shown) - 1)
        height = max((item.sizeHint().height() for item in shown), default=0)
        margins = self.contentsMargins()
        return QSize(width + margins.left() + margins.right(),
                     height + margins.top() + margins.bottom())

    def minimumSize(self) -> QSize:
        """As narrow as the widest item: everything else wraps."""
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize()).expandedTo(
                QSize(item.sizeHint().width(), 0))
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def rows(self, width: int) -> list[list[QLayoutItem]]:
        """The items of each row at `width` (the layout's own margins excluded)."""
        rows: list[list[QLayoutItem]] = [[]]
        used = 0
        for item in self._shown():
            wanted = item.sizeHint().width()
            if rows[-1] and used + self.spacing() + wanted > width:
                rows.append([])
                used = 0
            used += (self.spacing() if rows[-1] else 0) + wanted
            rows[-1].append(item)
        return rows if rows[-1] else []

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items
                if not ((widget := item.widget()) is not None and widget.isHidden())]

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the rows out in `rect` (when `move`) and return the height they take."""
        margins = self.contentsMargins()
        inner = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        y = inner.y()
        for row in self.rows(inner.width()):
            height = max(item.sizeHint().height() for item in row)
            natural = sum(item.sizeHint().width() for item in row)
            spare = max(0, inner.width() - natural - self.spacing() * (len(row) - 1))
            growing = [item for item in row if _grows(item)]
            x = inner.x()
            for item in row:
                width = item.sizeHint().width()
                if item in growing:
                    width += spare // len(growing)
                if move:
                    item.setGeometry(QRect(QPoint(x, y), QSize(width, height)))
                x += width + self.spacing()
            y += height + self.spacing()
        return max(0, y - self.spacing() - inner.y()) + margins.top() + margins.bottom()


def _grows(item: QLayoutItem) -> bool:
    """Whether the item may be wider than its size hint (its policy has the grow flag)."""
    widget = item.widget()
    if widget is None:
        return False
    policy = widget.sizePolicy().horizontalPolicy()
    return bool(policy.value & QSizePolicy.PolicyFlag.GrowFlag.value)
