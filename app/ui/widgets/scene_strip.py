"""Owns the lesson's scene strip: one segment per scene, the current one filled, the seen ones
shaded; clicking a segment goes to that scene, hovering it names the scene. The guide's
stepper and the projector stage's footer both show one.

Squeezed (the stage's footer beside the poll's address), segments narrower than the strip is
tall read as a row of missing-glyph boxes on a projector: the strip is then drawn as one
outlined bar, seen and current scenes filled in it, with no box per scene."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.i18n import tr
from app.ui.look import OKABE_ITO

CURRENT_COLOUR = OKABE_ITO[0]
SEEN_COLOUR = OKABE_ITO[4]
LEAST_SEGMENT = 1.0
"""A segment narrower than this many times the strip's height is drawn inside one bar."""


class SceneStrip(QWidget):
    """One segment per scene, the current one filled: click a segment to go to that scene."""

    clicked = Signal(int)

    def __init__(self, count: int, name: str = "guide_scene_strip",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.count = count
        self.current = 0
        self.seen: set[int] = {0}
        self.titles: list[str] = []
        self.setMinimumHeight(14)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def sizeHint(self) -> QSize:
        return QSize(self.count * 16, max(14, self.fontMetrics().height() // 2))

    def set_current(self, index: int) -> None:
        self.current = index
        self.seen.add(index)
        self.update()

    def segment(self, index: int) -> QRectF:
        """Where scene `index` is drawn (tests click its centre)."""
        width = self.width() / max(self.count, 1)
        return QRectF(index * width + 1, 1, width - 2, self.height() - 2)

    def index_at(self, point: QPointF) -> int:
        return min(max(int(point.x() / max(self.width() / self.count, 1)), 0), self.count - 1)

    def tip(self, index: int) -> str:
        """What hovering a segment says: the scene's number and title, so a teacher can find
        a scene by name before clicking."""
        title = self.titles[index] if index < len(self.titles) else ""
        return tr("guide.scene.strip_tip", number=index + 1, count=self.count, title=title)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            QToolTip.showText(event.globalPos(), self.tip(self.index_at(QPointF(event.pos()))),
                              self)
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.index_at(event.position()))

    @property
    def crowded(self) -> bool:
        """Whether the segments are too narrow to be drawn as boxes of their own."""
        return self.width() < self.count * LEAST_SEGMENT * self.height()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        mid = self.palette().color(QPalette.ColorRole.Mid)
        if self.crowded:
            self._paint_bar(painter, mid)
            return
        for index in range(self.count):
            rect = self.segment(index)
            if index == self.current:
                painter.fillRect(rect, QColor(CURRENT_COLOUR))
            elif index in self.seen:
                painter.fillRect(rect, QColor(SEEN_COLOUR))
            else:
                painter.setPen(mid)
                painter.drawRect(rect.adjusted(0, 0, -1, -1))

    def _paint_bar(self, painter: QPainter, outline: QColor) -> None:
        """Every scene in one outlined bar: the seen and current ones filled edge to edge."""
        width = self.width() / max(self.count, 1)
        bar = QRectF(1, 1, self.width() - 2, self.height() - 2)
        for index in range(self.count):
            colour = (CURRENT_COLOUR if index == self.current
                      else SEEN_COLOUR if index in self.seen else None)
            if colour is not None:
                painter.fillRect(QRectF(index * width, bar.top(), width, bar.height())
                                 .intersected(bar), QColor(colour))
        painter.setPen(outline)
        painter.drawRect(bar.adjusted(0, 0, -1, -1))
