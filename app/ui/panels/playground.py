"""Owns the 2-D playground: drag q and the keys of the dialogue sample over the active scorer's
landscape, with live q·k, |q|, |k|, cos θ and the projection that makes q·k = |q|·|k| cos θ."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QGridLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.plane import arc_points, editable_values
from app.model.scoring import SCORERS, Undefined
from app.model.view import View
from app.state.document import Document
from app.ui.fonts import ui_font
from app.ui.format import UNDEFINED_TEXT, format_score
from app.ui.look import OKABE_ITO, QUERY_COLOUR, SELECTION_COLOUR, diverging_map
from app.ui.panels.arrows import LABEL_GAP_PX, VectorArrow, VectorId
from app.ui.panels.base import Panel

SNAP = 0.5
NUDGE, FINE_NUDGE = 0.5, 0.1
ISO_LABELS = 16
"""Label items kept for iso-score lines; nice_levels yields about eight, so this never runs out."""
LANDSCAPE_OPACITY = 0.6
"""The landscape is washed out so the arrows and their labels stay the strongest marks."""
COLUMNS = ("key", "vector", "dot", "norm", "cos", "angle", "active")
NUMBER_KEYS = {getattr(Qt.Key, f"Key_{n}"): n for n in range(10)}
ARROW_STEPS = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0),
               Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1)}


def snapped(value: float, free: bool) -> float:
    """Dragged coordinates land on the 0.5 grid; with Shift they keep two decimals."""
    return round(value, 2) if free else round(value / SNAP) * SNAP


def short_number(value: float) -> str:
    """A coordinate without trailing zeros: 2, −0.5, 1.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


class PlaygroundPanel(Panel):
    """The dialogue sample as arrows; every gesture goes through the document."""

    name = "playground"
    title_key = "playground.title"

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self._dragging = False
        self._extent = 0.0
        self._key_count = len(document.state.dialogue_keys)
        self._active: VectorId = ("k", 0)
        self._build_plot()
        self._build_readouts()
        self._build_hint()
        self.stack = QStackedWidget()
        self.stack.addWidget(self._content)
        self.stack.addWidget(self._hint_page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.stack)
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
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setOpacity(LANDSCAPE_OPACITY)
        self.image.setZValue(-20)
        self.plot.addItem(self.image)
        self.colorbar = pg.ColorBarItem(values=(-1, 1), colorMap=diverging_map(),
                                        interactive=False, width=18)
        self.colorbar.bar.setOpacity(LANDSCAPE_OPACITY)
        self.colorbar.setImageItem(self.image, insert_in=self.plot)
        for angle in (0, 90):
            self.plot.addItem(pg.InfiniteLine(pos=0, angle=angle,
                                              pen=pg.mkPen("#444444", width=1)))
        self.iso = pg.PlotDataItem(connect="pairs")
        self.iso.setZValue(-10)
        self.plot.addItem(self.iso)
        self.iso_labels = [self._text_item(anchor=(0.5, 0.5)) for _ in range(ISO_LABELS)]
        self.projection_line = pg.PlotDataItem()
        self.projection_span = pg.PlotDataItem()
        self.foot = pg.ScatterPlotItem(symbol="o")
        self.arc = pg.PlotDataItem()
        for item in (self.projection_span, self.projection_line, self.arc, self.foot):
            item.setZValue(15)
            self.plot.addItem(item)
        self.theta_label = self._text_item(anchor=(0.5, 0.5))
        self.projection_label = self._text_item(anchor=(0.5, 0.5))
        self.arrows: dict[VectorId, VectorArrow] = {}
        specs = [("q", 0, QUERY_COLOUR)] + [
            ("k", j, OKABE_ITO[j % len(OKABE_ITO)]) for j in range(self._key_count)]
        for role, index, colour in specs:
            arrow = VectorArrow(self.plot, role, index, colour)
            arrow.handle.started.connect(self._on_drag_started)
            arrow.handle.moved.connect(self._on_dragged)
            arrow.handle.finished.connect(self._on_drag_finished)
            arrow.handle.clicked.connect(self._on_arrow_clicked)
            arrow.shaft.sigClicked.connect(
                lambda _item, _ev, r=role, i=index: self._on_arrow_clicked(r, i))
            self.arrows[(role, index)] = arrow

    def _text_item(self, anchor: tuple[float, float]) -> pg.TextItem:
        item = pg.TextItem("", color="#222222", anchor=anchor,
                           fill=pg.mkBrush(255, 255, 255, 190))
        item.setZValue(25)
        item.hide()
        self.plot.addItem(item)
        return item

    def _build_readouts(self) -> None:
        self._content = QWidget()
        self._body = QBoxLayout(QBoxLayout.Direction.TopToBottom, self._content)
        self._body.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel(objectName="playground_caption")
        self.caption.setWordWrap(True)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        plane = QVBoxLayout()
        plane.setSpacing(0)
        plane.addWidget(self.caption)
        plane.addWidget(self.canvas, 1)
        self._body.addLayout(plane, 1)
        self._readouts = QWidget()
        self._body.addWidget(self._readouts)
        layout = QVBoxLayout(self._readouts)
        layout.setContentsMargins(0, 0, 0, 0)
        self.query_line = QLabel(objectName="playground_query")
        layout.addWidget(self.query_line)
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        self.headers = {name: QLabel() for name in COLUMNS}
        for column, name in enumerate(COLUMNS):
            grid.addWidget(self.headers[name], 0, column)
        self.cells: list[dict[str, QLabel]] = []
        for j in range(self._key_count):
            row = {name: QLabel(objectName=f"playground_{name}_{j}") for name in COLUMNS}
            for column, name in enumerate(COLUMNS):
                side = Qt.AlignmentFlag.AlignLeft if column < 2 else Qt.AlignmentFlag.AlignRight
                row[name].setAlignment(side | Qt.AlignmentFlag.AlignVCenter)
                grid.addWidget(row[name], j + 1, column)
            self.cells.append(row)
        grid.setColumnStretch(len(COLUMNS), 1)
        layout.addLayout(grid)
        self.identity = QLabel(objectName="playground_identity")
        self.identity.setWordWrap(True)
        self.help_line = QLabel(objectName="playground_help")
        self.help_line.setWordWrap(True)
        for label in (self.identity, self.help_line):
            # wrapped prose takes the width the table leaves; it must not widen the column
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.identity)
        layout.addWidget(self.help_line)
        layout.addStretch(1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Readouts go beside the plane in a wide dock and below it in a tall one, so the
        plane keeps most of the room at any presentation scale."""
        size = event.size()
        wide = size.width() > 1.25 * size.height()
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self._body.direction() != direction:
            self._body.setDirection(direction)
        super().resizeEvent(event)

    def _build_hint(self) -> None:
        self._hint_page = QWidget()
        layout = QVBoxLayout(self._hint_page)
        self.hint = QLabel(objectName="playground_hint")
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.switch_button = QPushButton(objectName="playground_switch_world")
        self.switch_button.clicked.connect(lambda: self.document.set_world("dialogue"))
        layout.addStretch(1)
        layout.addWidget(self.hint)
        layout.addWidget(self.switch_button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)

    # --- look and language ---------------------------------------------------------------

    def apply_look(self) -> None:
        look = self.look
        theme = look.theme
        self.canvas.setBackground(theme.background)
        tick_font = ui_font(look.pt(11))
        for side in ("left", "bottom"):
            axis = self.plot.getAxis(side)
            axis.setTickFont(tick_font)
            axis.setPen(pg.mkPen(theme.foreground))
            axis.setTextPen(pg.mkPen(theme.foreground))
        self.colorbar.axis.setTickFont(tick_font)
        self.colorbar.axis.setTextPen(pg.mkPen(theme.foreground))
        for arrow in self.arrows.values():
            arrow.set_look(look)
        self.iso.setPen(pg.mkPen("#333333", width=look.px(1)))
        for item in self.iso_labels:
            item.setFont(ui_font(look.pt(11)))
        for item in (self.theta_label, self.projection_label):
            item.setFont(ui_font(look.pt(12), bold=True))
        self.projection_line.setPen(pg.mkPen("#333333", width=look.px(2),
                                             style=Qt.PenStyle.DashLine))
        self.arc.setPen(pg.mkPen(SELECTION_COLOUR, width=look.px(2.5)))
        self.foot.setSize(look.px(11))
        self.foot.setBrush(pg.mkBrush("white"))
        self.foot.setPen(pg.mkPen("#333333", width=look.px(2)))
        for widget in (self.query_line, self.identity):
            widget.setFont(ui_font(look.pt(13), bold=True))
        for label in self.headers.values():
            label.setFont(ui_font(look.pt(11)))
            label.setStyleSheet(f"color: {theme.muted};")
        for row in self.cells:
            for name, label in row.items():
                label.setFont(ui_font(look.pt(13 if name in ("key", "dot") else 12),
                                      bold=name in ("key", "dot", "active")))
        self.caption.setFont(ui_font(look.pt(12)))
        self.help_line.setFont(ui_font(look.pt(11)))
        self.help_line.setStyleSheet(f"color: {theme.muted};")
        self.hint.setFont(ui_font(look.pt(14)))
        self.switch_button.setFont(ui_font(look.pt(13), bold=True))
        self._set_axis_labels()

    def _set_axis_labels(self) -> None:
        style = {"font-size": f"{self.look.pt(12):g}pt", "color": self.look.theme.foreground}
        self.plot.setLabel("bottom", tr("playground.axis_x"), **style)
        self.plot.setLabel("left", tr("playground.axis_y"), **style)

    def retranslate(self) -> None:
        headers = {"key": "playground.col_key", "vector": "playground.col_vector",
                   "dot": "playground.col_dot", "norm": "playground.col_norm",
                   "cos": "playground.col_cos", "angle": "playground.col_angle"}
        for name, key in headers.items():
            self.headers[name].setText(tr(key))
        self.help_line.setText(tr("playground.help"))
        self.hint.setText(tr("playground.teaching_hint"))
        self.switch_button.setText(tr("playground.switch_world"))
        self.canvas.setToolTip(tr("playground.canvas_tip"))
        self._set_axis_labels()
        self.refresh()

    # --- repaint from the document -------------------------------------------------------

    def refresh(self) -> None:
        view = self.document.view
        if view.world != "dialogue" or view.plane is None or view.landscape is None:
            self.stack.setCurrentWidget(self._hint_page)
            return
        self.stack.setCurrentWidget(self._content)
        state = self.document.state
        if self._active[0] == "k":
            self._active = ("k", state.key)
        self._fit_range(view.landscape.extent)
        self._paint_landscape(view)
        self._paint_arrows(view, state.key)
        self._paint_selected(view, state.key)
        self._paint_readouts(view, state.key)

    def _fit_range(self, extent: float) -> None:
        """Follow the landscape's square, but never while dragging: the plot must not slide
        under the pointer (a growing range would chase the mouse outwards). The padding leaves
        room for the labels of the outermost arrows."""
        if self._dragging or extent == self._extent:
            return
        self._extent = extent
        self.plot.setRange(xRange=(-extent, extent), yRange=(-extent, extent), padding=0.06)

    def _paint_landscape(self, view: View) -> None:
        land, iso = view.landscape, view.plane.iso
        step = 2 * land.extent / (len(land.xs) - 1)
        self.image.setImage(land.values, autoLevels=False)
        self.image.setRect(QRectF(-land.extent - step / 2, -land.extent - step / 2,
                                  2 * land.extent + step, 2 * land.extent + step))
        self.colorbar.setLevels((-land.limit, land.limit))
        points = iso.segments.reshape(-1, 2)
        self.iso.setData(points[:, 0], points[:, 1], connect="pairs")
        for index, item in enumerate(self.iso_labels):
            visible = index < len(iso.levels) and bool(np.all(np.isfinite(iso.label_points[index])))
            item.setVisible(visible)
            if visible:
                item.setText(format_score(float(iso.levels[index]), iso.decimals))
                item.setPos(*iso.label_points[index])
        self.caption.setText(tr("playground.landscape_title",
                                formula=SCORERS[view.scorer].formula))

    def _paint_arrows(self, view: View, key: int) -> None:
        pixel = self.plot.vb.viewPixelSize()
        bounds = self.plot.vb.viewRange()
        q = view.q[0]
        self.arrows[("q", 0)].set_tip(float(q[0]), float(q[1]),
                                      tr("playground.q_label", name=view.query_names[0]),
                                      pixel, bounds)
        for j, k in enumerate(view.k):
            arrow = self.arrows[("k", j)]
            arrow.set_tip(float(k[0]), float(k[1]),
                          tr("playground.k_label", number=j + 1, name=view.key_names[j]),
                          pixel, bounds)
            arrow.set_selected(j == key)
        for vector_id, arrow in self.arrows.items():
            arrow.handle.set_active(vector_id == self._active)

    def _paint_selected(self, view: View, key: int) -> None:
        """The angle arc between q and the selected key, and k's projection onto q."""
        plane, pair = view.plane, view.pair
        k = view.k[key]
        sweep = plane.arc_sweep_deg
        has_angle = not isinstance(sweep, Undefined) and not isinstance(pair.angle_deg, Undefined)
        self.arc.setVisible(has_angle)
        self.theta_label.setVisible(has_angle)
        if has_angle:
            radius = float(np.clip(0.35 * min(plane.norm_q, plane.norm_k[key]),
                                   0.3, 0.2 * self._extent))
            points = arc_points(plane.arc_start_deg, sweep, radius)
            self.arc.setData(points[:, 0], points[:, 1])
            middle = arc_points(plane.arc_start_deg + sweep / 2, 0.0, radius * 1.45, 1)[0]
            self.theta_label.setText(tr("playground.theta"))
            self.theta_label.setPos(*middle)
        foot = plane.foot
        for item in (self.projection_line, self.projection_span, self.foot,
                     self.projection_label):
            item.setVisible(foot is not None)
        if foot is None:
            return
        self.projection_line.setData([k[0], foot[0]], [k[1], foot[1]])
        colour = self.arrows[("k", key)].colour
        self.projection_span.setData([0, foot[0]], [0, foot[1]])
        self.projection_span.setPen(pg.mkPen(colour, width=self.look.px(8)))
        self.projection_span.setOpacity(0.45)
        self.foot.setData([foot[0]], [foot[1]])
        self.projection_label.setText(tr("playground.projection",
                                         value=format_score(plane.projection)))
        # beside the foot, on the side of q away from k, so it covers neither arrow
        q = view.q[0]
        side = -1.0 if not isinstance(sweep, Undefined) and sweep > 0 else 1.0
        normal = side * np.array([-q[1], q[0]]) / plane.norm_q
        gap = LABEL_GAP_PX * self.look.scale * max(self.plot.vb.viewPixelSize())
        self.projection_label.setAnchor((0.5 - 0.5 * normal[0], 0.5 + 0.5 * normal[1]))
        self.projection_label.setPos(*(foot + gap * normal))

    def _paint_readouts(self, view: View, key: int) -> None:
        plane, pair = view.plane, view.pair
        scorer = SCORERS[view.scorer]
        q = view.q[0]
        self.query_line.setText(tr("playground.query_line", name=view.query_names[0],
                                   vector=self._vector_text(q),
                                   norm=format_score(plane.norm_q)))
        show_active = view.scorer != "dot"
        self.headers["active"].setVisible(show_active)
        self.headers["active"].setText(scorer.formula)
        dots, cosines, active = view.scores["dot"][0], view.scores["cosine"][0], view.active[0]
        for j, row in enumerate(self.cells):
            colour = self.arrows[("k", j)].colour
            weight = "font-weight: bold;" if j == key else ""
            mark = "▶ " if j == key else "   "
            name = tr("playground.k_label", number=j + 1, name=view.key_names[j])
            row["key"].setText(mark + name)
            row["key"].setStyleSheet(f"color: {colour}; {weight}")
            row["vector"].setText(self._vector_text(view.k[j]))
            row["dot"].setText(format_score(float(dots[j])))
            row["norm"].setText(format_score(float(plane.norm_k[j])))
            undefined = cosines[j] is np.ma.masked
            row["cos"].setText(UNDEFINED_TEXT if undefined else format_score(float(cosines[j])))
            row["cos"].setToolTip(tr("playground.cos_undefined") if undefined else "")
            angle = float(plane.angle_deg[j])
            row["angle"].setText(UNDEFINED_TEXT if np.isnan(angle)
                                 else f"{format_score(angle, 1)}°")
            row["angle"].setToolTip(tr("playground.cos_undefined") if np.isnan(angle) else "")
            row["active"].setVisible(show_active)
            row["active"].setText(UNDEFINED_TEXT if active[j] is np.ma.masked
                                  else format_score(float(active[j])))
            row["active"].setToolTip(tr("playground.cos_undefined")
                                     if active[j] is np.ma.masked else "")
        projection = plane.projection
        self.identity.setText(tr(
            "playground.identity",
            token=view.key_names[key],
            dot=format_score(pair.total),
            norm_q=format_score(pair.norm_q),
            projection=format_score(projection),
        ))
        self.identity.setToolTip(tr("playground.cos_undefined")
                                 if isinstance(projection, Undefined) else "")

    @staticmethod
    def _vector_text(vector: np.ndarray) -> str:
        return "(" + ", ".join(short_number(float(v)) for v in vector) + ")"

    # --- gestures ------------------------------------------------------------------------

    def _on_drag_started(self, role: str, index: int) -> None:
        self._dragging = True
        self._active = (role, index)
        self.document.begin_drag()

    def _on_dragged(self, role: str, index: int, x: float, y: float, free: bool) -> None:
        shown = np.array([snapped(x, free), snapped(y, free)])
        self._edit(role, index, shown)

    def _on_drag_finished(self, _role: str, _index: int) -> None:
        self.document.end_drag()
        self._dragging = False
        self.refresh()

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
