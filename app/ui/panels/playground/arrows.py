"""Owns the playground's vector arrows: a shaft, a head, a label and a draggable tip handle.

The handle follows the Orange3 pattern: it only reports gestures (started / moved / finished,
clicked) in plot coordinates; the panel turns them into document edits, and the arrow is
moved back into place when the document's new view arrives.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem

from app.model.state import Role
from app.ui.look import SELECTION_COLOUR, Look
from app.ui.widgets.plot_text import PlotText
from app.ui.widgets.polyline import Polyline

if TYPE_CHECKING:  # pyqtgraph is untyped: these document what the scene sends
    from pyqtgraph.GraphicsScene.mouseEvents import HoverEvent, MouseClickEvent, MouseDragEvent

VectorId = tuple[Role, int]
LABEL_GAP_PX = 16
"""Pixels (at 100 %) between a point and the label placed beside it."""


class TipHandle(pg.GraphicsObject):
    """The grab circle at a vector's tip, drawn in screen pixels whatever the zoom."""

    started = Signal(str, int)
    moved = Signal(str, int, float, float, bool)  # role, index, x, y, free (Shift held)
    finished = Signal(str, int)
    clicked = Signal(str, int)

    def __init__(self, role: str, index: int, colour: str) -> None:
        super().__init__()
        self.role, self.index = role, index
        self._colour = QColor(colour)
        self._radius = 8.0
        self._width = 2.0
        self._active = False
        self._hover = False
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.setZValue(30)

    def set_look(self, look: Look) -> None:
        self.prepareGeometryChange()
        self._radius = look.px(8)
        self._width = look.px(2)
        self.update()

    def set_active(self, active: bool) -> None:
        if active != self._active:
            self._active = active
            self.update()

    def boundingRect(self) -> QRectF:
        reach = self._radius + 6 + self._width  # a generous grab area for a laptop touchpad
        return QRectF(-reach, -reach, 2 * reach, 2 * reach)

    def paint(self, painter: QPainter, *_args: object) -> None:
        """A ring only on the keyboard's target or under the pointer: elsewhere it would hide
        the arrowhead (the grab area is there either way, and the cursor shows it)."""
        if not (self._active or self._hover):
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        ring = QColor(SELECTION_COLOUR) if self._active else self._colour
        width = self._width * 1.5
        painter.setPen(QPen(QColor("white"), width + 2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(0, 0), self._radius, self._radius)
        painter.setPen(QPen(ring, width))
        painter.drawEllipse(QPointF(0, 0), self._radius, self._radius)

    def hoverEvent(self, ev: HoverEvent) -> None:
        hover = not ev.isExit() and ev.acceptDrags(Qt.MouseButton.LeftButton)
        if hover != self._hover:
            self._hover = hover
            self.update()

    def mouseClickEvent(self, ev: MouseClickEvent) -> None:
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.clicked.emit(self.role, self.index)

    def mouseDragEvent(self, ev: MouseDragEvent) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        ev.accept()
        view_box = self.getViewBox()
        if view_box is None:
            return
        if ev.isStart():
            self.started.emit(self.role, self.index)
        point = view_box.mapSceneToView(ev.scenePos())
        free = bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        self.moved.emit(self.role, self.index, point.x(), point.y(), free)
        if ev.isFinish():
            self.finished.emit(self.role, self.index)


class ArrowHead(pg.ArrowItem):
    """pyqtgraph's arrow head, turned to a new angle without being built again: its
    `setStyle` makes the arrow's outline, pen and brush anew for every new angle, the
    drag step's largest piece of moving an arrow. The outline is made once per style and
    turned, as `setStyle` turns it."""

    def __init__(self, **opts: object) -> None:
        self._outline: QPainterPath | None = None
        super().__init__(**opts)

    def setStyle(self, **opts: object) -> None:
        self._outline = None  # the head's length or shape may change: made again when turned
        super().setStyle(**opts)

    def turn(self, angle: float) -> None:
        """Point the head at `angle` degrees (0: to the left), as setStyle(angle=…) does."""
        if angle == self.opts["angle"]:
            return
        if self._outline is None:
            shape = ("headLen", "tipAngle", "baseAngle", "tailLen", "tailWidth", "headWidth")
            self._outline = pg.makeArrowPath(**{key: self.opts[key] for key in shape
                                                if key in self.opts})
        self.opts["angle"] = angle
        turned = QTransform()
        turned.rotate(angle)
        self.path = turned.map(self._outline)
        self.setPath(self.path)


class VectorArrow:
    """Every plot item of one vector, so the panel can move them together with setData/setPos."""

    def __init__(self, plot: pg.PlotItem, role: str, index: int, colour: str) -> None:
        self.role, self.index, self.colour = role, index, colour
        self.halo = Polyline([0, 0], [0, 0])
        self.shaft = Polyline([0, 0], [0, 0], clickable_px=14)
        self.head = ArrowHead(angle=0, tipAngle=32, headLen=18, tailLen=None,
                              pen=pg.mkPen("w", width=1.5), brush=colour)
        self.label = PlotText("", color=colour, anchor=(0, 1),
                              fill=pg.mkBrush(255, 255, 255, 215))
        self.handle = TipHandle(role, index, colour)
        stacked: tuple[QGraphicsItem, ...] = (self.halo, self.shaft, self.head)
        for z, item in enumerate(stacked):
            item.setZValue(20 + z)
            plot.addItem(item)
        self.label.setZValue(40)  # above iso-line labels: token names matter more
        plot.addItem(self.label)
        plot.addItem(self.handle)
        self._width = 3.0
        self._scale = 1.0
        self._selected = False
        self._tip = (0.0, 0.0)
        self._drawn = False  # set_tip has drawn the arrow at `_tip`
        self.items: tuple[QGraphicsItem, ...] = (self.halo, self.shaft, self.head, self.label,
                                                 self.handle)

    def set_look(self, look: Look) -> None:
        self._width = look.px(3)
        self._scale = look.scale
        self.head.setStyle(headLen=look.px(18), pen=pg.mkPen("w", width=look.px(1.5)))
        self.handle.set_look(look)
        self._restyle()

    def set_selected(self, selected: bool) -> None:
        if selected != self._selected:
            self._selected = selected
            self._restyle()

    def set_opacity(self, opacity: float) -> None:
        """Fade the whole arrow (the spotlight dims every vector but q and the selected key).
        A faded head is kept as a pixmap, as a faded shaft is (`Polyline.setOpacity`): Qt
        fills a see-through shape on a slow path."""
        if opacity != self.shaft.opacity():
            for item in self.items:
                item.setOpacity(opacity)
            self.head.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache if opacity < 1
                                   else QGraphicsItem.CacheMode.NoCache)

    def _restyle(self) -> None:
        width = self._width * (1.6 if self._selected else 1.0)
        self.halo.setPen(pg.mkPen("w", width=width + 3))
        self.shaft.setPen(pg.mkPen(self.colour, width=width))
        self.label.border = pg.mkPen(SELECTION_COLOUR if self._selected else None,
                                     width=max(1.0, self._width * 0.7))
        self.label.update()

    def set_tip(self, x: float, y: float, text: str) -> None:
        """Move shaft, head and handle to a new tip and name it; a zero vector shows no head.
        The label is placed afterwards (`labels.arrange`), clear of every other label. An arrow
        the step did not move is left alone: new data would repaint it."""
        if self._drawn and (x, y) == self._tip and text == self.label.toPlainText():
            self._keep_lines(True)
            return
        self._keep_lines(False)
        self._tip, self._drawn = (x, y), True
        self.halo.setData([0, x], [0, y])
        self.shaft.setData([0, x], [0, y])
        length = math.hypot(x, y)
        self.head.setVisible(length > 0)
        if length > 0:
            self.head.turn(180.0 - math.degrees(math.atan2(y, x)))
        self.head.setPos(x, y)
        self.handle.setPos(x, y)
        if text != self.label.toPlainText():
            self.label.setText(text)

    def _keep_lines(self, still: bool) -> None:
        """An arrow a step left where it was keeps its shaft and halo as pixmaps, so a
        repaint that reaches it (the arc between q and the dragged key) copies them instead
        of stroking them again: about a tenth of a stage drag step's repaint, measured. The
        arrow that moves is stroked directly (its pixmaps would be made anew at every step),
        unless faded: a faded line is always kept (`Polyline.setOpacity`)."""
        for line in (self.halo, self.shaft):
            mode = (QGraphicsItem.CacheMode.DeviceCoordinateCache if still or line.opacity() < 1
                    else QGraphicsItem.CacheMode.NoCache)
            if line.cacheMode() != mode:
                line.setCacheMode(mode)

    @property
    def outward(self) -> float:
        """The direction (radians) a label leaves the tip in first: along the arrow."""
        x, y = self._tip
        return math.atan2(y, x) if (x, y) != (0.0, 0.0) else math.pi / 4

    @property
    def tip(self) -> tuple[float, float]:
        return self._tip
