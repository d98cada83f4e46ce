"""Owns the decoder-flow stage list: wrapping, clickable boxes that never need scrolling, and
what one stage's detail says (its tensors' shapes and its learned parameters)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QResizeEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from app.i18n import tr
from app.model.decoder_flow import LayerStep, Shape
from app.model.modelconfig import ModelConfig
from app.ui.format import format_number, format_shape


def stage_detail(stage: LayerStep, config: ModelConfig) -> str:
    """Name, what it does, tensors in and out with shapes, and learned parameters."""
    heads, kv = config.num_attention_heads, config.num_key_value_heads
    assert heads is not None and kv is not None  # the anchor's: read with require_attention
    note = tr(f"shapes.note.{stage.key}", rotary=config.rotary_dims,
              head_dim=config.head_dim, heads=heads, kv=kv, group=heads // kv)

    def tensors(items: tuple[tuple[str, Shape], ...]) -> str:
        return "; ".join(f"{name} <b>({format_shape(shape)})</b>" for name, shape in items)

    lines = [
        f"<b>{tr(f'shapes.stage.{stage.key}')}</b> — {note}",
        tr("shapes.detail.in", tensors=tensors(stage.inputs)),
        tr("shapes.detail.out", tensors=tensors(stage.outputs)),
        tr("shapes.detail.params", count=f"<b>{format_number(stage.params)}</b>"),
    ]
    if stage.weights:
        lines.append(tensors(stage.weights))
    return "<br>".join(lines)


class FlowList(QListView):
    """The stages as wrapping boxes, always tall enough to show every one of them."""

    row_picked = Signal(int)

    def __init__(self, count: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items = QStandardItemModel(self)
        for _ in range(count):
            item = QStandardItem()
            item.setEditable(False)
            self.items.appendRow(item)
        self.setModel(self.items)
        self.setViewMode(QListView.ViewMode.ListMode)
        self.setFlow(QListView.Flow.LeftToRight)
        self.setWrapping(True)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setSpacing(3)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self.row_picked.emit(current.row()))

    def current_row(self) -> int:
        return self.currentIndex().row()

    def set_current_row(self, row: int) -> None:
        self.setCurrentIndex(self.items.index(row, 0))

    def item_rect(self, row: int) -> QRect:
        """Where stage `row` is drawn, in viewport coordinates (tests click there)."""
        return self.visualRect(self.items.index(row, 0))

    def fit_height(self) -> None:
        """Lay the items out for the current width and take exactly the height they need."""
        count = self.items.rowCount()
        if not count:
            return
        self.doItemsLayout()
        bottom = max(self.item_rect(i).bottom() for i in range(count))
        self.setFixedHeight(bottom + self.verticalOffset() + self.spacing()
                            + 2 * self.frameWidth() + 2)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit_height()
