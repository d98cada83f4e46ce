"""Owns the four landscapes side by side: the dot product, cosine, −distance and the additive
scorer over the same 2-D plane and the same q, each with one line on what its contour shape
means — the picture of why the dot product won (its contours are straight: linear in k) — and
the q-length buttons that stretch q so the class sees which maps change."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetricsF, QResizeEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.landscape import compared_shapes
from app.model.scoring import SCORERS
from app.model.stretch import length_factor, stretched
from app.state.document import Document
from app.ui.figure_plot import GridFigure
from app.ui.fonts import READING, emphasize
from app.ui.panels.base import Panel
from app.ui.panels.landscapes.plot import LandscapePlot, wrapping
from app.ui.panels.landscapes.q_length import QLength
from app.ui.qt_known import layout_of
from app.ui.widgets.world_hint import WorldHint, pages_with_hint

MINIMUM_SIZE = (240, 150)
MIN_PLOT = 80
"""Pixels (at 100 %) a plot needs to show its shape; with less, the captions make room."""
ROOMY_LINES = 22
"""Panel heights, in text lines, from which the intro line above the plots is shown."""
CAPTION_SHARE = 0.45
"""Share of a cell's width a caption beside its plot takes."""


def best_plan(width: float, height: float, title_height: Callable[[float], float],
              caption_height: Callable[[float], float], spacing: float = 6,
              count: int = 4) -> tuple[int, bool, float]:
    """(columns, caption beside its plot, the plot's side) that give each plot the largest
    square in a panel of `width` × `height` pixels, where the titles and captions take the
    height their text needs at a width (the labels' own height-for-width): 4 in a row in a
    wide dock, 2 × 2 with captions beside in a wide and short one, one column in a tall one."""
    best: tuple[float, int, bool] = (-1.0, 2, False)
    for columns in (c for c in (1, 2, 4) if c <= count):
        rows = -(-count // columns)
        cell_w = (width - spacing * (columns - 1)) / columns
        cell_h = height / rows - 3 * spacing - title_height(cell_w)  # rows of one cell
        for beside in (False, True):
            if beside:
                text_w = cell_w * CAPTION_SHARE
                fits = caption_height(text_w) <= cell_h
                side = min(cell_w - text_w, cell_h) if fits else 0.0
            else:
                side = min(cell_w, cell_h - caption_height(cell_w))
            if side > best[0]:
                best = (side, columns, beside)
    return best[1], best[2], best[0]


class LandscapesPanel(Panel):
    """Four small plots on one q; in the 4-D world, a page that offers the 2-D sample."""

    name = "landscapes"
    depends_on = ("world", "scorer", "dialogue_q", "dialogue_keys", "key", "positions",
                  "options")
    """The 2-D world's q and keys: a drag in the 4-D editor leaves the maps alone."""
    holds_while_dragging = True
    """Contours are left out while a drag runs and drawn when it ends."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.intro = QLabel(objectName="landscapes_intro")  # type: ignore[call-overload]
        wrapping(self.intro)
        emphasize(self.intro, READING)
        self.q_length = QLength()
        self.q_length.picked.connect(self._on_length_picked)
        self.plots = {name: LandscapePlot(name) for name in compared_shapes()}
        self._withheld = False
        self._grid = QGridLayout()
        self._grid.setSpacing(6)
        self._columns = 0
        self._beside = False
        self._content = QWidget()
        body = QVBoxLayout(self._content)
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.intro)
        body.addWidget(self.q_length)
        body.addLayout(self._grid, 1)
        self._hint_page = WorldHint("landscapes", lambda: self.document.set_world("dialogue"))
        self.hint, self.switch_button = self._hint_page.hint, self._hint_page.switch_button
        self.stack = pages_with_hint(self, self._content, self._hint_page, MINIMUM_SIZE)
        self._arrange(2, beside=False)
        self.apply_look()
        self.retranslate()
        self.refresh()

    def _arrange(self, columns: int, beside: bool = False) -> None:
        """Put the titles, plots and captions in shared rows: per row of plots, a title row,
        then the plots with their captions below (or beside, in a second column each)."""
        if (columns, beside) == (self._columns, self._beside):
            return
        self._columns, self._beside = columns, beside
        grid = self._grid
        for plot in self.plots.values():
            for widget in (plot.title, plot.graphics, plot.caption):
                grid.removeWidget(widget)
        for row in range(grid.rowCount()):
            grid.setRowStretch(row, 0)
        for column in range(grid.columnCount()):
            grid.setColumnStretch(column, 0)
        top = Qt.AlignmentFlag.AlignTop
        span = 2 if beside else 1
        rows_per_cell = 2 if beside else 3
        for index, plot in enumerate(self.plots.values()):
            row, column = (index // columns) * rows_per_cell, (index % columns) * span
            grid.addWidget(plot.title, row, column, 1, span)
            grid.addWidget(plot.graphics, row + 1, column)
            grid.setRowStretch(row + 1, 1)
            grid.setColumnStretch(column, 1 if not beside else 11)
            if beside:
                grid.addWidget(plot.caption, row + 1, column + 1, top)
                grid.setColumnStretch(column + 1, 9)
                plot.caption.setAlignment(Qt.AlignmentFlag.AlignLeft | top)
            else:
                grid.addWidget(plot.caption, row + 2, column, top)
                plot.caption.setAlignment(Qt.AlignmentFlag.AlignHCenter | top)

    def _title_height(self, width: float) -> float:
        return max(p.title.heightForWidth(int(width)) for p in self.plots.values()) + 8

    def _caption_height(self, width: float) -> float:
        return max(p.caption.heightForWidth(int(width)) for p in self.plots.values()) + 8

    def _above(self, width: int, roomy: bool) -> int:
        """The height the intro (where there is room) and the q-length row take."""
        intro = self.intro.heightForWidth(width) if roomy else 0
        return intro + self.q_length.sizeHint().height() + layout_of(self._content).spacing()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Arrange the four for the new size; the intro line only where there is room."""
        size = event.size()
        line = QFontMetricsF(self.intro.font()).lineSpacing()
        roomy = size.height() > ROOMY_LINES * line
        self.intro.setVisible(roomy)
        height = size.height() - self._above(size.width(), roomy)
        plots = list(self.plots.values())
        title_height, caption_height = self._title_height, self._caption_height
        width, height = size.width() - 8, max(1, height - 8)
        columns, beside, side = best_plan(width, height, title_height, caption_height,
                                          count=len(self.plots))
        captions = side >= self.look.px(MIN_PLOT)
        if not captions:  # a dock too short for them: each caption waits in its plot's tip
            columns, beside, side = best_plan(width, height, title_height, lambda _w: 0.0,
                                              count=len(self.plots))
        for plot in plots:
            plot.caption.setVisible(captions)
            plot.graphics.setToolTip("" if captions else plot.caption.text())
        self._arrange(columns, beside)
        super().resizeEvent(event)

    def readable_size(self) -> QSize:
        """Each plot at least the side where it writes its contour values and key names, with
        its title and caption whole: four in a row where the screen is that wide, else 2 × 2
        (the two arrangements the panel itself picks at such sizes), and the q-length row."""
        side = math.ceil(max(plot.detail_side() + plot.frame() for plot in self.plots.values())) + 2
        spacing = self._grid.spacing()
        sizes = []
        for columns in (4, 2):
            rows = len(self.plots) // columns
            width = math.ceil(columns * side + spacing * (columns - 1)) + 8
            cell = self._title_height(side) + side + self._caption_height(side) + 3 * spacing
            height = math.ceil(rows * cell) + self._above(width, False) + 8
            if height > ROOMY_LINES * QFontMetricsF(self.intro.font()).lineSpacing():
                height += self.intro.heightForWidth(width)  # so tall that the intro shows
            sizes.append(QSize(width, height))
        screen = self.room()
        fits = [size for size in sizes if size.width() <= screen.width()
                and size.height() <= screen.height()]
        best = fits[0] if fits else min(sizes, key=lambda s: max(
            s.width() / screen.width(), s.height() / screen.height()))
        return best.expandedTo(super().readable_size())

    def _on_length_picked(self, factor: float) -> None:
        """q at `factor` × its length in the lesson, its direction kept: one undo step."""
        state = self.document.state
        if state.world != "dialogue":
            return
        q = stretched(state.dialogue_q, self.document.data.dialogue.q, factor)
        if q is not None:
            self.document.set_vector("q", 0, q)

    def apply_look(self) -> None:
        for plot in self.plots.values():
            plot.apply_look(self.look)

    def retranslate(self) -> None:
        self.intro.setText(tr("landscapes.intro"))
        self.q_length.retranslate()
        self.setToolTip(tr("landscapes.intro"))
        self._hint_page.set_texts(tr("landscapes.teaching_hint"), tr("playground.switch_world"))
        for name, plot in self.plots.items():
            scorer = SCORERS[name]
            compared = scorer.compared
            assert compared is not None  # the plots are the compared scorers'
            plot.title.setText(tr(compared.title))
            plot.title.setToolTip(f"{tr(f'scorer.{name}')}: {scorer.formula}")
            plot.caption.setText(tr(compared.shape_only if self._withheld else compared.shape))

    def withhold(self, on: bool) -> None:
        """Before the reveal each caption names its shape only, not what the shape means."""
        if bool(on) != self._withheld:
            self._withheld = bool(on)
            self.retranslate()
            self.resizeEvent(QResizeEvent(self.size(), self.size()))  # captions of new heights

    def figure(self) -> GridFigure | None:
        """The four plots as drawn, two by two under the panel's title, without the intro,
        the q-length buttons and the captions; None outside the 2-D sample."""
        view = self.document.view
        if view.world != "dialogue" or view.plane is None:
            return None
        axes = (tr("playground.axis_x"), tr("playground.axis_y"))
        plots = [figure for plot in self.plots.values()
                 if (figure := plot.figure(axes)) is not None]
        return GridFigure(tr("landscapes.title"), plots, 2) if plots else None

    def refresh(self) -> None:
        view = self.document.view
        if view.world != "dialogue" or view.plane is None:
            self.stack.setCurrentWidget(self._hint_page)
            return
        self.stack.setCurrentWidget(self._content)
        contours = not self.document.dragging  # back when the gesture ends (base Panel)
        for plot in self.plots.values():
            plot.repaint_from(view, contours)
        q = self.document.state.dialogue_q
        self.q_length.show_length(view.plane.norm_q,
                                  length_factor(q, self.document.data.dialogue.q))
