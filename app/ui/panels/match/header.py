"""Owns the match table's header: compact, it does not reserve the sort arrow's room."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QHeaderView, QStyle, QWidget

from app.ui.panels.match.model import MatchModel


class ScoreHeader(QHeaderView):
    """A header that, when compact, does not reserve the sort arrow's room beside the text.

    Qt reserves a square as tall as the header beside every label for the arrow; with two-line
    labels that square alone is wider than a rank. The style draws the arrow over the section
    (above the label in Fusion), so the compact header keeps only a small allowance.
    """

    def __init__(self, model: MatchModel, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.match_model = model
        self.setSectionsClickable(True)  # as QTableView's own header: a click sorts
        self.setHighlightSections(True)

    def sectionSizeFromContents(self, logicalIndex: int) -> QSize:
        size = super().sectionSizeFromContents(logicalIndex)
        if self.match_model.compact and self.isSortIndicatorShown():
            margin = self.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, self)
            size.setWidth(size.width() - size.height() - margin + self.fontMetrics().height() // 2)
        return size
