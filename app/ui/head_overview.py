"""Owns the overview of every head: one small attention map per layer and head for the opened
model's sentence (darker: more weight), computed off the UI thread; a click opens that head
in the lab. It shows at a glance which heads look back, look at themselves or spread out."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QCloseEvent, QImage, QMouseEvent, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.state.head_maps import HeadMaps
from app.state.model_run import ModelRun
from app.ui.showing import sentence_start

TILE_PX = 64


def map_pixmap(weights: np.ndarray, side: int = TILE_PX) -> QPixmap:
    """A (T, T) map of weights in [0, 1] as grey levels, white for none, black for all; the
    square root keeps a weight spread over many keys visible."""
    shade = np.sqrt(np.clip(weights, 0, 1))
    grey = np.ascontiguousarray(np.round(255 * (1 - shade)).astype(np.uint8))
    image = QImage(grey.data, grey.shape[1], grey.shape[0], grey.strides[0],
                   QImage.Format.Format_Grayscale8).copy()
    return QPixmap.fromImage(image.scaled(side, side, Qt.AspectRatioMode.IgnoreAspectRatio,
                                          Qt.TransformationMode.FastTransformation))


class _Tile(QLabel):
    """One head's map; a click opens it."""

    def __init__(self, overview: HeadOverview, layer: int, head: int, weights: np.ndarray
                 ) -> None:
        super().__init__()
        self.overview, self.layer, self.head = overview, layer, head
        self.setObjectName(f"head_tile_{layer}_{head}")
        self.setPixmap(map_pixmap(weights))
        self.setToolTip(tr("model_folder.overview.tile", layer=layer, head=head))
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.overview.open_head(self.layer, self.head)
        super().mousePressEvent(event)


class HeadOverview(QDialog):
    """Layers down, heads across, for the sentence the run last read."""

    def __init__(self, run: ModelRun, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("head_overview")
        self.run = run
        self.text = ""
        self.maps: list[np.ndarray] = []
        self.tiles: dict[tuple[int, int], _Tile] = {}
        self.worker = HeadMaps(self)
        self.worker.progressed.connect(self._on_progressed)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(self._on_failed)
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.maps_scroll = QScrollArea()
        self.maps_scroll.setWidgetResizable(True)
        column = QVBoxLayout(self)
        column.addWidget(self.heading)
        column.addWidget(self.maps_scroll, 1)
        self.retranslate()

    def compute(self) -> None:
        """The maps for the run's model and sentence, computed afresh."""
        checkpoint = self.run.checkpoint
        if checkpoint is None or not self.run.text:
            return
        self.text, self.maps, self.tiles = self.run.text, [], {}
        self.maps_scroll.setWidget(QWidget())
        self.heading.setText(tr("model_folder.reading"))
        self.worker.compute(checkpoint, self.text)

    def open_head(self, layer: int, head: int) -> None:
        self.run.show(self.text, layer, head)

    def _on_progressed(self, done: int, total: int) -> None:
        self.heading.setText(tr("model_folder.progress", layer=min(done + 1, total),
                                layers=total))

    def _on_finished(self, maps: list[np.ndarray]) -> None:
        self.maps = maps
        grid_holder = QWidget()
        grid = QGridLayout(grid_holder)
        grid.setSpacing(4)
        for head in range(maps[0].shape[0] if maps else 0):
            grid.addWidget(QLabel(tr("model_folder.overview.head", head=head)), 0, head + 1,
                           Qt.AlignmentFlag.AlignHCenter)
        for layer, weights in enumerate(maps):
            grid.addWidget(QLabel(tr("model_folder.overview.layer", layer=layer)), layer + 1, 0)
            for head in range(weights.shape[0]):
                tile = _Tile(self, layer, head, weights[head])
                self.tiles[layer, head] = tile
                grid.addWidget(tile, layer + 1, head + 1)
        grid.setRowStretch(grid.rowCount(), 1)  # the maps sit together at the top left,
        grid.setColumnStretch(grid.columnCount(), 1)  # however few a small model has
        self.maps_scroll.setWidget(grid_holder)
        self.retranslate()

    def _on_failed(self, problem: str) -> None:
        self.heading.setText(problem)

    def retranslate(self) -> None:
        self.setWindowTitle(tr("model_folder.overview.title"))
        if self.maps and self.run.checkpoint is not None:
            self.heading.setText(tr("model_folder.overview.heading",
                                    model=self.run.checkpoint.name,
                                    text=sentence_start(self.text)))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.worker.cancel()
        super().closeEvent(event)
