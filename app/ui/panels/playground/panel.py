"""Owns the 2-D playground: drag q and the keys of the dialogue sample over the active scorer's
landscape, with live q·k, |q|, |k|, cos θ, the projection that makes q·k = |q|·|k| cos θ, and
the chosen scorer's own calculation for the selected key (identity.py)."""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QFontMetricsF, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGraphicsItem,
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
from app.model.state import Role
from app.model.view import View
from app.state.document import Document
from app.ui.figure_plot import Arrow, PlotFigure
from app.ui.fonts import (
    BODY_PT,
    HEADING,
    READING,
    SMALL,
    emphasize,
    points,
    scaled_font,
    ui_font,
)
from app.ui.format import shown_name, token_glosses
from app.ui.look import QUERY_COLOUR, token_colour
from app.ui.panels.base import Panel
from app.ui.panels.playground.arrows import VectorArrow, VectorId
from app.ui.panels.playground.identity import vector_text
from app.ui.panels.playground.keys import key_action
from app.ui.panels.playground.labels import arrange
from app.ui.panels.playground.landscape import LandscapeLayer
from app.ui.panels.playground.marks import PairMarks
from app.ui.panels.playground.placement import Rect
from app.ui.panels.playground.readouts import PlaneReadouts
from app.ui.panels.playground.room import MINIMUM_PLANE, ReadoutRoom
from app.ui.qt_known import layout_of
from app.ui.widgets.axes import cache_axes, repaint_in_one_rect
from app.ui.widgets.stage_text import kept_whole
from app.ui.widgets.world_hint import WorldHint, pages_with_hint

SNAP = 0.5
MINIMUM_SIZE = (240, 220)
CRAMPED_HEIGHT = 250
"""Pixels at 100 % of height left for the plane (the panel less any readouts below it): with
less, the plane drops its axis titles and the caption above it (the colour bar names the
score instead), so the arrows keep the room."""
PLANE_LINES = 10
"""The plane's least side, in lines of its vectors' names: the grid's ticks, and room for the
names beside their arrows and clear of each other."""
LABEL_PT_PER_PX = 0.06
"""A vector label's point size per pixel of plane height (its line is then about a ninth of
the plane): in a small dock at a large scale labels shrink before they bury the arrows."""


def _within(sizes: tuple[tuple[bool, int, int], ...],
            room: tuple[tuple[bool, int, int], ...]) -> bool:
    """Each text fits the size it had (the same texts shown and hidden), none grew."""
    return len(sizes) == len(room) and all(
        hidden == was_hidden and width <= was_width and height <= was_height
        for (hidden, width, height), (was_hidden, was_width, was_height)
        in zip(sizes, room, strict=True))


def _moved_quietly(*items: QGraphicsItem) -> None:
    """Items the plane moves at every drag step, inside the range it sets itself: a move
    of a pyqtgraph item calls its Python `itemChange`, which tells the view box its bounds
    changed for an automatic range this plane never uses (a dozen calls a step)."""
    for item in items:
        item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges, False)


def snapped(value: float, free: bool) -> float:
    """Dragged coordinates land on the 0.5 grid; with Shift they keep two decimals."""
    return round(value, 2) if free else round(value / SNAP) * SNAP


class PlaygroundPanel(Panel):
    """The dialogue sample as arrows; every gesture goes through the document."""

    name = "playground"
    depends_on = ("world", "scorer", "dialogue_q", "dialogue_keys", "query", "key",
                  "positions", "options")
    """The 2-D world only: a drag in the 4-D editor leaves the plane alone."""
    holds_while_dragging = True
    """The plot's range stays still under the pointer; it refits when the drag ends."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self._cramped = False
        self._label_pt = 0.0
        self._extent = 0.0
        self._shown: tuple[float, float] = (0.0, 0.0)  # the half-sides of the plotted range
        self._key_count = len(document.state.dialogue_keys)
        self._key_colours = [token_colour(j) for j in range(self._key_count)]
        self._active: VectorId = ("k", document.state.key)
        """The vector the arrow keys move: the last one picked, dragged or selected."""
        self._seen_key = document.state.key
        self.placed: dict[pg.TextItem, Rect] = {}
        """Where the last refresh put each shown label (plot units): no two overlap."""
        self._build_plot()
        self._build_readouts()
        self._hint_page = WorldHint("playground", lambda: self.document.set_world("dialogue"))
        self.hint, self.switch_button = self._hint_page.hint, self._hint_page.switch_button
        self.stack = pages_with_hint(self, self._content, self._hint_page, MINIMUM_SIZE)
        self.apply_look()
        self.retranslate()
        self.refresh()

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
        specs: list[tuple[Role, int, str]] = [
            ("q", 0, QUERY_COLOUR),
            *(("k", j, colour) for j, colour in enumerate(self._key_colours))]
        for role, index, colour in specs:
            arrow = VectorArrow(self.plot, role, index, colour)
            arrow.handle.started.connect(self._on_drag_started)
            arrow.handle.moved.connect(self._on_dragged)
            arrow.handle.finished.connect(self._on_drag_finished)
            arrow.handle.clicked.connect(self._on_arrow_clicked)
            arrow.shaft.sigClicked.connect(
                lambda _item, _ev, r=role, i=index: self._on_arrow_clicked(r, i))
            self.arrows[(role, index)] = arrow
        cache_axes(self.canvas)
        repaint_in_one_rect(self.canvas)
        marks = self.marks
        _moved_quietly(*(item for arrow in self.arrows.values() for item in arrow.items),
                       marks.arc, marks.foot, marks.projection_line, marks.projection_span,
                       marks.theta_label, marks.projection_label, *self.landscape.labels)

    def _build_readouts(self) -> None:
        self._content = QWidget()
        self._body = QBoxLayout(QBoxLayout.Direction.TopToBottom, self._content)
        self._body.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel(objectName="playground_caption")  # type: ignore[call-overload]
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
        self.readouts.glosses = token_glosses(self.document.data, "dialogue")  # "饭 (rice)"
        self.readouts.relaid.connect(self._on_readouts_relaid)
        self._readout_sizes: tuple[tuple[bool, int, int], ...] = ()
        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setWidget(self.readouts)
        self._body.addWidget(self._scroll)
        self._room = ReadoutRoom(self._body, self._scroll, self.readouts)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_readouts()

    def _fit_chrome(self) -> None:
        """Axis titles and caption only while the plane has the height for them."""
        cramped = self.height() - self._room.below_height() < self.look.px(CRAMPED_HEIGHT)
        if self.look.stage:  # beside the readouts too: the upright title must fit the plane
            title = QFontMetricsF(scaled_font(READING)).horizontalAdvance(tr("playground.axis_y"))
            cramped = cramped or self.canvas.height() < 2 * title
        if cramped != self._cramped:
            self._cramped = cramped
            self._set_axis_labels()
            self._show_formula()

    def _on_readouts_relaid(self) -> None:
        """The table laid out its new texts: fit the room again only if a cell now asks for
        another size; while a drag runs, only if one grew (a number that loses a digit
        keeps its room until the drag ends, as the live labels do)."""
        sizes = self.readouts.cell_sizes()
        if sizes == self._readout_sizes or (
                self.document.dragging and _within(sizes, self._readout_sizes)):
            return
        self._readout_sizes = sizes
        self._fit_readouts(keep=self.document.dragging)

    def refit(self) -> None:
        super().refit()
        self._on_readouts_relaid()  # the room held through the drag, fitted to the texts

    def _fit_readouts(self, keep: bool = False) -> None:
        """Readouts beside the plane or below it (app/ui/panels/playground/room.py), decided
        again when the panel resizes and when the table's texts or fonts change (during a
        drag, `keep`: where they are, with room for their new texts)."""
        margins = layout_of(self).contentsMargins()
        width = self.width() - margins.left() - margins.right()
        around_w, around_h = self._plane_chrome()
        self._room.fit(width, self.height() - margins.top() - margins.bottom(), self.look,
                       (around_w, around_h + self.caption.heightForWidth(width)),
                       self._plane_side(), keep)
        self._fit_chrome()

    def readable_size(self) -> QSize:
        """The plane PLANE_LINES lines of its labels square (and at least its minimum), with
        its axes, colour bar and caption around it, and the readouts whole below it or
        beside it (at the desk, whichever is lower)."""
        if not self.look.stage:
            return min(self.readable_sizes(), key=lambda size: size.height())
        width, height = self._room.stage_arrangement(*self._plane_need(), self.room())
        return self._panel_size(width, height)

    def readable_sizes(self) -> list[QSize]:
        """Readouts below the plane or beside it: at the desk either reads whole."""
        if self.look.stage:
            return [self.readable_size()]
        return [self._panel_size(width, height) for width, height
                in self._room.desk_arrangements(*self._plane_need(), self.room())]

    def _plane_need(self) -> tuple[float, float]:
        """The least plane (`_plane_side`) with its axes, colour bar and caption."""
        side = self._plane_side()
        around_w, around_h = self._plane_chrome()
        caption = self.caption.heightForWidth(math.ceil(side + around_w))
        return side + around_w, side + around_h + caption

    def _panel_size(self, width: int, height: int) -> QSize:
        """The panel around a body of `width` × `height`: its margins, and its floor."""
        margins = layout_of(self).contentsMargins()
        return QSize(width + margins.left() + margins.right(),
                     height + margins.top() + margins.bottom()).expandedTo(
            super().readable_size())

    def _plane_side(self) -> float:
        """The least side of a plane that has room for its labels (PLANE_LINES lines)."""
        line = QFontMetricsF(ui_font(self._label_points()[0], bold=True)).lineSpacing()
        return max(self.look.px(MINIMUM_PLANE), PLANE_LINES * line)

    def _plane_chrome(self) -> tuple[float, float]:
        """The canvas's room around the view box: the axes with their titles and the colour
        bar, as laid out (their titles added where a cramped plane dropped them)."""
        box, metrics = self.plot.vb, QFontMetricsF(scaled_font(READING))
        if box.width() > 0 and self.canvas.width() > box.width():
            titles = metrics.height() if self._cramped else 0.0
            return (self.canvas.width() - box.width() + titles,
                    self.canvas.height() - box.height() + titles)
        return 8 * metrics.height(), 3 * metrics.height()  # not laid out yet: an estimate

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
        self.readouts.query_line.setWordWrap(look.stage)  # nothing is cut on the stage
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
        assert land is not None  # the 2-D world with a plane (checked above) has one
        self._fit_range(land)
        self.landscape.paint(land)
        self._show_formula()
        self._fit_labels()
        key_colour = self.arrows[("k", state.key)].colour
        marks = self.marks.paint(view, state.key, key_colour, self._extent)
        self._paint_arrows(view, state.key)
        self.placed = arrange(
            self._label_order(state.key), marks, self.landscape.level_labels(land),
            [drop] if (drop := self.marks.drop()) else [], self.plot.vb.viewPixelSize(),
            self.plot.vb.viewRange(), self.look.scale, self.look.px(3 * 1.6))
        self.readouts.hold(self.document.dragging)
        self.readouts.paint(view, state.key, self.look.spotlight)

    def figure(self) -> PlotFigure | None:
        """q and the keys as arrows, each named with its coordinates as the readouts print
        them, in the plane's range and axes, q and the selected key bold; without the
        landscape's colours, the readouts and the hints. None outside the 2-D sample,
        where the panel shows only its hint."""
        view = self.document.view
        if view.world != "dialogue" or view.plane is None or self._shown == (0.0, 0.0):
            return None
        key, cells = self.document.state.key, self.readouts.cells
        arrows = []
        for (role, j), arrow in self.arrows.items():
            if role == "k" and j >= len(view.k):
                continue
            where = vector_text(view.q[0]) if role == "q" else cells[j]["vector"].text()
            arrows.append(Arrow(*arrow.tip, arrow.colour, f"{arrow.label.toPlainText()} {where}",
                                role == "q" or j == key))
        half_w, half_h = self._shown
        return PlotFigure(tr("playground.title"), (-half_w, half_w), (-half_h, half_h),
                          (tr("playground.axis_x"), tr("playground.axis_y")),
                          arrows=arrows, equal=True)

    def _show_formula(self) -> None:
        """A cramped plane names its score on the colour bar; on the stage, whose formulas
        are too long for the bar's height, the caption keeps it."""
        formula = SCORERS[self.document.view.scorer].formula
        on_bar = self._cramped and not self.look.stage
        self.landscape.set_title(formula if on_bar else "")
        self.caption.setText(tr("playground.landscape_title",  # a formula breaks nowhere
                                formula=kept_whole(formula, (formula,))))
        self.caption.setVisible(not on_bar)

    def _fit_labels(self) -> None:
        names, marks, levels = self._label_points()
        if names != self._label_pt:
            self._label_pt = names
            for arrow in self.arrows.values():
                arrow.label.setFont(ui_font(names, bold=True))
            for label in (self.marks.theta_label, self.marks.projection_label):
                label.setFont(ui_font(marks, bold=True))
            for label in self.landscape.labels:  # iso-score values
                label.setFont(ui_font(levels))

    def _label_points(self) -> tuple[float, float, float]:
        """Point sizes of the vectors' names, the pair's marks and the contour values: on
        the stage the sizes the last row reads; in a dock they shrink with a small plane
        (before they bury the arrows), never below the body text."""
        if self.look.stage:  # the room's least sizes: the plane keeps room for its labels
            return points(BODY_PT), points(BODY_PT), points(SMALL)
        size = min(points(HEADING), max(BODY_PT, round(LABEL_PT_PER_PX * self.plot.vb.height())))
        return size, size * READING / HEADING, max(BODY_PT, size * BODY_PT / HEADING)

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

    def _label_order(self, key: int) -> list[VectorArrow]:
        """q's name first, then the selected key's, so they get the best places."""
        keys = sorted(range(self._key_count), key=lambda j: j != key)
        return [self.arrows[("q", 0)], *(self.arrows[("k", j)] for j in keys)]

    def _paint_arrows(self, view: View, key: int) -> None:
        q = view.q[0]
        q_name = shown_name(view.query_names[0])
        self.arrows[("q", 0)].set_tip(float(q[0]), float(q[1]),
                                      tr("playground.q_label", name=q_name))
        for j in range(len(view.k)):
            arrow = self.arrows[("k", j)]
            k = view.k[j]
            name = shown_name(view.key_names[j])
            arrow.set_tip(float(k[0]), float(k[1]),
                          tr("playground.k_label", number=j + 1, name=name))
            arrow.set_selected(j == key)
            arrow.set_opacity(self.look.opacity(j == key))
        self._mark_active()

    # --- gestures ------------------------------------------------------------------------

    def _on_drag_started(self, role: Role, index: int) -> None:
        self._active = (role, index)
        self.document.begin_drag()

    def _on_dragged(self, role: Role, index: int, x: float, y: float, free: bool) -> None:
        shown = np.array([snapped(x, free), snapped(y, free)])
        self._edit(role, index, shown)

    def _on_drag_finished(self, _role: str, _index: int) -> None:
        self.document.end_drag()  # every panel refits its held scales

    def _on_arrow_clicked(self, role: Role, index: int) -> None:
        self._select((role, index))

    def _edit(self, role: Role, index: int, shown: np.ndarray) -> None:
        """Store the vector that is drawn at `shown` (RoPE may rotate what is drawn)."""
        state = self.document.state
        if state.world != "dialogue":
            return
        self.document.set_vector(role, index, editable_values(state, role, index, shown))

    def _select(self, vector_id: VectorId) -> None:
        """The arrow keys move `vector_id` from now on; a key is also the document's
        selection, and the document's change repaints what follows from it."""
        self._active = vector_id
        if vector_id[0] == "k":
            self._seen_key = vector_id[1]  # picked here: the refresh to come keeps `_active`
            self.document.select(key=vector_id[1])
        self._mark_active()

    def _mark_active(self) -> None:
        for vector_id, arrow in self.arrows.items():
            arrow.handle.set_active(vector_id == self._active)

    def _nudge(self, dx: float, dy: float) -> None:
        view = self.document.view
        role, index = self._active
        current = view.q[0] if role == "q" else view.k[index]
        self._edit(role, index, np.round(current + np.array([dx, dy]), 6))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.canvas and event.type() == QEvent.Type.KeyPress:
            return self._on_key(cast(QKeyEvent, event))  # a KeyPress event
        return super().eventFilter(watched, event)

    def _on_key(self, event: QKeyEvent) -> bool:
        """Tab / Shift+Tab / digits pick the vector, arrows nudge it (Shift: finer)."""
        if self.document.state.world != "dialogue":
            return False
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        action = key_action(event.key(), shift, list(self.arrows), self._active,
                            self._key_count)
        if action is None:
            return False
        kind, what = action
        if kind == "pick":
            self._select(cast(VectorId, what))  # a pick names a vector
        elif kind == "nudge":
            self._nudge(*cast("tuple[float, float]", what))  # a nudge is (dx, dy)
        return True
