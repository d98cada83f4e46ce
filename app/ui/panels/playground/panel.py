"""Owns the 2-D playground: drag q and the keys of the dialogue sample over the active scorer's
landscape, with live q·k, |q|, |k|, cos θ and the projection that makes q·k = |q|·|k| cos θ."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.landscape import Landscape
from app.model.plane import editable_values
from app.model.scoring import SCORERS
from app.model.view import View
from app.state.document import Document
from app.ui.fonts import BODY_PT, HEADING, READING, emphasize, points, scaled_font, ui_font
from app.ui.format import shown_name, token_glosses
from app.ui.look import OKABE_ITO, QUERY_COLOUR
from app.ui.panels.base import Panel
from app.ui.panels.playground.arrows import VectorArrow, VectorId
from app.ui.panels.playground.landscape import LandscapeLayer
from app.ui.panels.playground.marks import PairMarks
from app.ui.panels.playground.readouts import PlaneReadouts
from app.ui.widgets.world_hint import WorldHint, pages_with_hint

SNAP = 0.5
NUDGE, FINE_NUDGE = 0.5, 0.1
QWIDGETSIZE_MAX = (1 << 24) - 1
READOUT_SHARE = 0.52
"""Below the plane, the readouts take at most this share of the panel's height."""
MINIMUM_PLANE = 160
"""Pixels at 100 %: readouts go beside the plane only if it keeps at least this width, and
under it they leave it at least this height where the panel allows."""
MINIMUM_SIZE = (240, 220)
CRAMPED_HEIGHT = 250
"""Pixels at 100 % of height left for the plane (the panel less any readouts below it): with
less, the plane drops its axis titles and the caption above it (the colour bar names the
score instead), so the arrows keep the room."""
LABEL_PT_PER_PX = 0.06
"""A vector label's point size per pixel of plane height (its line is then about a ninth of
the plane): in a small dock at a large scale labels shrink before they bury the arrows."""
NUMBER_KEYS = {getattr(Qt.Key, f"Key_{n}"): n for n in range(10)}
ARROW_STEPS = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0),
               Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1)}


def snapped(value: float, free: bool) -> float:
    """Dragged coordinates land on the 0.5 grid; with Shift they keep two decimals."""
    return round(value, 2) if free else round(value / SNAP) * SNAP


class PlaygroundPanel(Panel):
    """The dialogue sample as arrows; every gesture goes through the document."""

    name = "playground"
    title_key = "playground.title"
    world = "dialogue"

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self._cramped = False
        self._label_pt = 0.0
        self._extent = 0.0
        self._shown: tuple[float, float] = (0.0, 0.0)  # the half-sides of the plotted range
        self._key_count = len(document.state.dialogue_keys)
        self._key_colours = [OKABE_ITO[j % len(OKABE_ITO)] for j in range(self._key_count)]
        self._active: VectorId = ("k", document.state.key)
        """The vector the arrow keys move: the last one picked, dragged or selected."""
        self._seen_key = document.state.key
        self._build_plot()
        self._build_readouts()
        self._hint_page = WorldHint("playground", lambda: self.document.set_world("dialogue"))
        self.hint, self.switch_button = self._hint_page.hint, self._hint_page.switch_button
        self.stack = pages_with_hint(self, self._content, self._hint_page, MINIMUM_SIZE)
        self.apply_look()
        self.retranslate()

    # --- construction --------------------------------------------------------------------

    def _build_plot(self) -> None:
        self.canvas = pg.GraphicsLayoutWidget()
        self.canvas.setObjectName("playground_canvas")
        self.canvas.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.canvas.installEventFilter(self)
        self.plot = self.canvas.addPlot()
        self.plot.setAspectLocked(True)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        # labels are placed in screen pixels, so a new size re-places them
        self.plot.vb.sigResized.connect(lambda _vb: self.refresh())
        self.landscape = LandscapeLayer(self.plot)
        for angle in (0, 90):
            self.plot.addItem(pg.InfiniteLine(pos=0, angle=angle,
                                              pen=pg.mkPen("#444444", width=1)))
        self.marks = PairMarks(self.plot)
        self.arc, self.foot, self.projection_label = (
            self.marks.arc, self.marks.foot, self.marks.projection_label)
        self.arrows: dict[VectorId, VectorArrow] = {}
        specs = [("q", 0, QUERY_COLOUR)] + [("k", j, colour)
                                            for j, colour in enumerate(self._key_colours)]
        for role, index, colour in specs:
            arrow = VectorArrow(self.plot, role, index, colour)
            arrow.handle.started.connect(self._on_drag_started)
            arrow.handle.moved.connect(self._on_dragged)
            arrow.handle.finished.connect(self._on_drag_finished)
            arrow.handle.clicked.connect(self._on_arrow_clicked)
            arrow.shaft.sigClicked.connect(
                lambda _item, _ev, r=role, i=index: self._on_arrow_clicked(r, i))
            self.arrows[(role, index)] = arrow

    def _build_readouts(self) -> None:
        self._content = QWidget()
        self._body = QBoxLayout(QBoxLayout.Direction.TopToBottom, self._content)
        self._body.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel(objectName="playground_caption")
        self.caption.setWordWrap(True)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        emphasize(self.caption, READING)
        plane = QVBoxLayout()
        plane.setSpacing(0)
        plane.addWidget(self.caption)
        plane.addWidget(self.canvas, 1)
        self._body.addLayout(plane, 1)
        self.readouts = PlaneReadouts(self._key_count, self._key_colours)
        self.readouts.glosses = token_glosses(self.document.data)  # "饭 (rice)" in English
        self.readouts.relaid.connect(self._fit_readouts)
        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setWidget(self.readouts)
        self._body.addWidget(self._scroll)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_readouts()

    def readouts_beside(self, width: int, height: int) -> bool:
        """Whether the readouts go beside the plane in a `width` × `height` panel: where the
        plane keeps the larger square, and only if the table's every column fits beside it.

        Read from the table's own size hint, never fed back into the dock's minimum size
        (which would collapse the plane of a narrow dock at a large scale)."""
        table = self._beside_width(height) + self._body.spacing()
        beside = min(height, width - table)
        below = min(width, height - min(self.readouts.needed_height(width),
                                        self._below_room(height)))
        return beside >= self.look.px(MINIMUM_PLANE) and beside > below

    def _below_room(self, height: int) -> int:
        """The most height the readouts take under the plane: a share of the panel, less
        where the plane would be left under its minimum (then the table scrolls), but never
        under a third of the panel."""
        room = int(READOUT_SHARE * height)
        plane = self.look.px(MINIMUM_PLANE)
        if height - room < plane:
            room = max(height // 3, int(height - plane))
        return room

    def _beside_width(self, height: int) -> int:
        """The width the readouts take beside the plane: the table's own, and a scroll bar's
        if it is taller than the panel."""
        table = self.readouts.full_width()
        if self.readouts.needed_height(table) > height:
            table += self._scroll.verticalScrollBar().sizeHint().width()
        return table

    def _fit_chrome(self) -> None:
        """Axis titles and caption only while the plane has the height for them."""
        below = self._scroll.maximumHeight() if self._body.direction() == (
            QBoxLayout.Direction.TopToBottom) else 0
        cramped = self.height() - below < self.look.px(CRAMPED_HEIGHT)
        if cramped != self._cramped:
            self._cramped = cramped
            self._set_axis_labels()
            self.refresh()

    def _fit_readouts(self) -> None:
        """Readouts beside the plane or below it (see `readouts_beside`; decided again when
        the panel resizes and when the table's texts or fonts change). Below the plane they
        get the height they need (scrolling only past a share of the panel); beside it they
        scroll within the full height."""
        margins = self.layout().contentsMargins()
        width = self.width() - margins.left() - margins.right()
        height = self.height() - margins.top() - margins.bottom()
        direction = (QBoxLayout.Direction.LeftToRight if self.readouts_beside(width, height)
                     else QBoxLayout.Direction.TopToBottom)
        if self._body.direction() != direction:
            self._body.setDirection(direction)
        if direction == QBoxLayout.Direction.LeftToRight:
            # exactly the table's width (the plane takes the rest): chosen only where it
            # fits, and the panel's own fixed minimum keeps it from reaching the dock
            self.readouts.show_coordinates(True)
            self._scroll.setFixedWidth(self._beside_width(height))
            self._scroll.setMinimumHeight(0)
            self._scroll.setMaximumHeight(QWIDGETSIZE_MAX)
        else:
            self._scroll.setMinimumWidth(0)
            self._scroll.setMaximumWidth(QWIDGETSIZE_MAX)
            room = width - self._scroll.verticalScrollBar().sizeHint().width()
            self.readouts.show_coordinates(self.readouts.full_width() <= room)
            self._scroll.setFixedHeight(min(self.readouts.needed_height(width) + 2,
                                            self._below_room(height)))
        self._fit_chrome()

    # --- look and language ---------------------------------------------------------------

    def apply_look(self) -> None:
        look = self.look
        theme = look.theme
        self.canvas.setBackground(theme.background)
        tick_font = scaled_font()
        for side in ("left", "bottom"):
            axis = self.plot.getAxis(side)
            axis.setTickFont(tick_font)
            axis.setPen(pg.mkPen(theme.foreground))
            axis.setTextPen(pg.mkPen(theme.foreground))
        self.landscape.apply_look(look)
        for arrow in self.arrows.values():
            arrow.set_look(look)
        self.marks.apply_look(look)
        self.readouts.apply_look(look)
        self._label_pt = 0.0  # the zoom changed: refit the labels on the plane
        self._set_axis_labels()
        self._fit_readouts()

    def _set_axis_labels(self) -> None:
        style = {"font-size": f"{points(READING):g}pt", "color": self.look.theme.foreground}
        self.plot.setLabel("bottom", tr("playground.axis_x"), **style)
        self.plot.setLabel("left", tr("playground.axis_y"), **style)
        for side in ("bottom", "left"):
            self.plot.getAxis(side).showLabel(not self._cramped)

    def retranslate(self) -> None:
        self.readouts.retranslate()
        self._hint_page.set_texts(tr("playground.teaching_hint"), tr("playground.switch_world"))
        self.canvas.setToolTip(tr("playground.canvas_tip"))
        self._set_axis_labels()
        self.refresh()
        self._fit_readouts()

    # --- repaint from the document -------------------------------------------------------

    def refresh(self) -> None:
        view = self.document.view
        if view.world != "dialogue" or view.plane is None:
            self.stack.setCurrentWidget(self._hint_page)
            return
        self.stack.setCurrentWidget(self._content)
        state = self.document.state
        if state.key != self._seen_key:  # a new selection, here or in another panel
            self._seen_key = state.key
            self._active = ("k", state.key)
        land = view.landscape_at(self.plane_aspect())  # the plot's shape: no white bands
        self._fit_range(land)
        formula = SCORERS[view.scorer].formula
        self.landscape.paint(land, formula if self._cramped else "")
        self.caption.setText(tr("playground.landscape_title", formula=formula))
        self.caption.setVisible(not self._cramped)
        self._fit_labels()
        pixel = self.plot.vb.viewPixelSize()
        marks = self.marks.paint(view, state.key, self.arrows[("k", state.key)].colour,
                                 self._extent, pixel, self.plot.vb.viewRange())
        self._paint_arrows(view, state.key, marks)
        self.readouts.paint(view, state.key, self.look.spotlight)

    def _fit_labels(self) -> None:
        size = min(points(HEADING), max(BODY_PT, round(LABEL_PT_PER_PX * self.plot.vb.height())))
        if size != self._label_pt:
            self._label_pt = size
            for arrow in self.arrows.values():
                arrow.label.setFont(ui_font(size, bold=True))
            for label in (self.marks.theta_label, self.marks.projection_label):
                label.setFont(ui_font(size * READING / HEADING, bold=True))
            for label in self.landscape.labels:  # iso-score values, smaller still
                label.setFont(ui_font(max(BODY_PT, size * BODY_PT / HEADING)))

    def plane_aspect(self) -> float:
        """Width : height of the plot's view box, the shape the landscape is computed for."""
        box = self.plot.vb
        return box.width() / box.height() if box.width() > 0 and box.height() > 0 else 1.0

    def _fit_range(self, land: Landscape) -> None:
        """Show exactly the landscape's rectangle (its shorter half-side holds every vector
        with a quarter to spare for their labels), but never while dragging: the plot must not
        slide under the pointer (a growing range would chase the mouse outwards)."""
        shown = (land.half_width, land.half_height)
        if self.document.dragging or shown == self._shown:
            return
        self._shown, self._extent = shown, land.extent
        self.plot.setRange(xRange=(-shown[0], shown[0]), yRange=(-shown[1], shown[1]),
                           padding=0)

    def _paint_arrows(self, view: View, key: int, marks: list[QRectF]) -> None:
        """Labels are placed clear of `marks` (the pair's θ and projection labels) and of the
        labels placed before them: q's first, then the selected key's."""
        pixel = self.plot.vb.viewPixelSize()
        bounds = self.plot.vb.viewRange()
        q = view.q[0]
        placed = [*marks, self.arrows[("q", 0)].set_tip(
            float(q[0]), float(q[1]),
            tr("playground.q_label", name=shown_name(view.query_names[0])), pixel, bounds, marks)]
        # the selected key labels next, so it gets the best place after q
        for j in sorted(range(len(view.k)), key=lambda j: j != key):
            arrow = self.arrows[("k", j)]
            k = view.k[j]
            placed.append(arrow.set_tip(
                float(k[0]), float(k[1]),
                tr("playground.k_label", number=j + 1, name=shown_name(view.key_names[j])),
                pixel, bounds, placed))
            arrow.set_selected(j == key)
            arrow.set_opacity(self.look.opacity(j == key))
        for vector_id, arrow in self.arrows.items():
            arrow.handle.set_active(vector_id == self._active)

    # --- gestures ------------------------------------------------------------------------

    def _on_drag_started(self, role: str, index: int) -> None:
        self._active = (role, index)
        self.document.begin_drag()

    def _on_dragged(self, role: str, index: int, x: float, y: float, free: bool) -> None:
        shown = np.array([snapped(x, free), snapped(y, free)])
        self._edit(role, index, shown)

    def _on_drag_finished(self, _role: str, _index: int) -> None:
        self.document.end_drag()  # every panel refits its held scales

    def _on_arrow_clicked(self, role: str, index: int) -> None:
        self._select((role, index))

    def _edit(self, role: str, index: int, shown: np.ndarray) -> None:
        """Store the vector that is drawn at `shown` (RoPE may rotate what is drawn)."""
        state = self.document.state
        if state.world != "dialogue":
            return
        self.document.set_vector(role, index, editable_values(state, role, index, shown))

    def _select(self, vector_id: VectorId) -> None:
        self._active = vector_id
        if vector_id[0] == "k":
            self.document.select(key=vector_id[1])
        self.refresh()

    def _nudge(self, dx: float, dy: float) -> None:
        view = self.document.view
        role, index = self._active
        current = view.q[0] if role == "q" else view.k[index]
        self._edit(role, index, np.round(current + np.array([dx, dy]), 6))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.canvas and event.type() == QEvent.Type.KeyPress:
            return self._on_key(event)
        return super().eventFilter(watched, event)

    def _on_key(self, event: QKeyEvent) -> bool:
        """Tab / Shift+Tab / digits pick the vector, arrows nudge it (Shift: finer)."""
        if self.document.state.world != "dialogue":
            return False
        order: list[VectorId] = list(self.arrows)
        key = event.key()
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            step = -1 if key == Qt.Key.Key_Backtab else 1
            self._select(order[(order.index(self._active) + step) % len(order)])
            return True
        if key in NUMBER_KEYS or key == Qt.Key.Key_Q:
            number = NUMBER_KEYS.get(key, 0)
            if number == 0:
                self._select(("q", 0))
            elif number <= self._key_count:
                self._select(("k", number - 1))
            return True
        if key in ARROW_STEPS:
            fine = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            size = FINE_NUDGE if fine else NUDGE
            dx, dy = ARROW_STEPS[key]
            self._nudge(dx * size, dy * size)
            return True
        return False
