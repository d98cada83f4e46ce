"""Owns where the playground's readouts go: beside the plane where it keeps the larger square
and the table's every column fits, else below it with the height they need (scrolling only
past a share of the panel), and the panel size at which they show whole below a plane."""

from __future__ import annotations

import math

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QBoxLayout, QScrollArea

from app.ui.look import Look
from app.ui.panels.playground.readouts import PlaneReadouts
from app.ui.widgets.sizes import QWIDGETSIZE_MAX

READOUT_SHARE = 0.52
"""Below the plane, the readouts take at most this share of the panel's height."""
STAGE_CUTS: tuple[tuple[str, ...], ...] = ((), ("vector",), ("vector", "norm", "angle"))
"""The columns the stage leaves out, in turn, where the plane would be left too small: the
coordinates first (the plane shows where each key is), then |k| and θ (the plane draws them)."""
MINIMUM_PLANE = 160
"""Pixels at 100 %: readouts go beside the plane only if it keeps at least this width, and
under it they leave it at least this height where the panel allows."""


class ReadoutRoom:
    """Lays out the panel's body (the plane, then the scrolled readouts) for its size."""

    def __init__(self, body: QBoxLayout, scroll: QScrollArea, readouts: PlaneReadouts) -> None:
        self.body, self.scroll, self.readouts = body, scroll, readouts

    def beside(self, width: int, height: int, look: Look) -> bool:
        """Whether the readouts go beside the plane in a `width` × `height` panel: where the
        plane keeps the larger square, and only if the table's every column fits beside it.

        Read from the table's own size hint, never fed back into the dock's minimum size
        (which would collapse the plane of a narrow dock at a large scale)."""
        table = self.beside_width(height) + self.body.spacing()
        beside = min(height, width - table)
        below = min(width, height - min(self.readouts.needed_height(width),
                                        self.below_room(height, look)))
        return beside >= look.px(MINIMUM_PLANE) and beside > below

    def below_room(self, height: int, look: Look) -> int:
        """The most height the readouts take under the plane: a share of the panel, less
        where the plane would be left under its minimum (then the table scrolls), but never
        under a third of the panel."""
        room = int(READOUT_SHARE * height)
        plane = look.px(MINIMUM_PLANE)
        if height - room < plane:
            room = max(height // 3, int(height - plane))
        return room

    def beside_width(self, height: int) -> int:
        """The width the readouts take beside the plane: the table's own, and a scroll bar's
        if it is taller than the panel."""
        table = self.readouts.full_width()
        if self.readouts.needed_height(table) > height:
            table += self._bar_width()
        return table

    def _bar_width(self) -> int:
        return self.scroll.verticalScrollBar().sizeHint().width()

    def options(self, width: int, height: int, chrome: tuple[float, float],
                hidden: tuple[str, ...]) -> list[tuple[float, bool]]:
        """On the stage, where nothing may scroll: (the plane's side, beside) for each
        arrangement that shows the readouts whole, without the `hidden` columns, in a
        `width` × `height` panel whose plane has `chrome` (axes, colour bar, caption)."""
        found = []
        spacing = self.body.spacing()
        table = max(self.readouts.table_width(hidden), self.readouts.line_width())
        for beside in (True, False):
            if beside:
                whole = self.readouts.needed_height(table) <= height
                plane = (width - table - spacing - chrome[0], height - chrome[1])
            else:
                whole = table <= width
                plane = (width - chrome[0],
                         height - self.readouts.needed_height(width) - spacing - chrome[1])
            if whole and min(plane) > 0:
                found.append((min(plane), beside))
        return found

    def choose(self, width: int, height: int, chrome: tuple[float, float],
               least: float) -> tuple[bool, tuple[str, ...]] | None:
        """(beside, hidden columns) on the stage: every column while the plane keeps its
        `least` side, else the coordinates left out (the plane shows where each key is),
        else |k| and θ too; where none leaves the plane that, the largest plane."""
        best: tuple[float, bool, tuple[str, ...]] | None = None
        for hidden in STAGE_CUTS:
            options = self.options(width, height, chrome, hidden)
            if not options:
                continue
            side, beside = max(options)
            if side >= least:
                return beside, hidden
            if best is None or side > best[0]:
                best = (side, beside, hidden)
        return None if best is None else best[1:]

    def fit(self, width: int, height: int, look: Look,
            chrome: tuple[float, float] = (0.0, 0.0), least: float = 0.0,
            keep: bool = False) -> None:
        """Beside the plane the readouts take exactly the table's width (the plane takes the
        rest) and scroll within the full height; below it, the height they need. On the
        stage, nothing scrolls: see `choose` (`least`: the plane's readable side).

        With `keep` (a drag runs) the readouts stay where they are, with the same columns,
        and only their room follows the texts: a plane laid out anew under the pointer (a
        column dropped, the table moved below) slid the dragged key away from it."""
        was_beside = self.body.direction() == QBoxLayout.Direction.LeftToRight
        if look.stage:
            chosen = ((was_beside, self.readouts.hidden_columns()) if keep
                      else self.choose(width, height, chrome, least))
            if chosen is not None:
                self._place(*chosen, width)
                return
        beside = was_beside if keep else self.beside(width, height, look)
        direction = (QBoxLayout.Direction.LeftToRight if beside
                     else QBoxLayout.Direction.TopToBottom)
        if self.body.direction() != direction:
            self.body.setDirection(direction)
        scroll = self.scroll
        if direction == QBoxLayout.Direction.LeftToRight:
            self.readouts.show_coordinates(True)
            scroll.setFixedWidth(self.beside_width(height))
            scroll.setMinimumHeight(0)
            scroll.setMaximumHeight(QWIDGETSIZE_MAX)
        else:
            scroll.setMinimumWidth(0)
            scroll.setMaximumWidth(QWIDGETSIZE_MAX)
            room = width - self._bar_width()
            if not keep:  # during a drag the coordinates stay as they are
                self.readouts.show_coordinates(self.readouts.full_width() <= room)
            # the height at the width a scroll bar leaves: one shown while the layout settles
            # must not wrap a line and so keep itself shown
            scroll.setFixedHeight(min(self.readouts.needed_height(room) + 2,
                                      self.below_room(height, look)))

    def _place(self, beside: bool, hidden: tuple[str, ...], width: int) -> None:
        direction = (QBoxLayout.Direction.LeftToRight if beside
                     else QBoxLayout.Direction.TopToBottom)
        if self.body.direction() != direction:
            self.body.setDirection(direction)
        self.readouts.show_columns(hidden)
        scroll = self.scroll
        if beside:
            table = max(self.readouts.table_width(hidden), self.readouts.line_width())
            scroll.setFixedWidth(table)
            scroll.setMinimumHeight(0)
            scroll.setMaximumHeight(QWIDGETSIZE_MAX)
        else:
            scroll.setMinimumWidth(0)
            scroll.setMaximumWidth(QWIDGETSIZE_MAX)
            scroll.setFixedHeight(self.readouts.needed_height(width) + 2)

    def _beside_kept(self, width: int, height: int) -> bool:
        """Whether a `width` × `height` body keeps the readouts beside the plane at the desk:
        the plane as square beside them as below them (see `beside`)."""
        beside = min(height, width - self.beside_width(height) - self.body.spacing())
        below = min(width, height - min(self.readouts.needed_height(width),
                                        int(READOUT_SHARE * height)))
        return beside > below

    def below_height(self) -> int:
        """The readouts' height below the plane as laid out now (0 beside it)."""
        if self.body.direction() == QBoxLayout.Direction.TopToBottom:
            return self.scroll.maximumHeight()
        return 0

    def stage_arrangement(self, plane_width: float, plane_height: float,
                          screen: QSize) -> tuple[int, int]:
        """On the stage, the body's size with a plane of at least `plane_width` ×
        `plane_height` and the readouts whole: beside it where that fits `screen` (a
        projector is wider than tall), else below it, else whichever overflows it least."""
        beside = self._beside(plane_width, plane_height)
        if beside[0] <= screen.width() and beside[1] <= screen.height():
            return beside
        below = self._below(plane_width, plane_height, True)
        if below[0] <= screen.width() and below[1] <= screen.height():
            return below
        return min(beside, below, key=lambda s: max(s[0] / screen.width(),
                                                    s[1] / screen.height()))

    def desk_arrangements(self, plane_width: float, plane_height: float,
                          screen: QSize | None = None) -> list[tuple[int, int]]:
        """At the desk, the body's least readable size in each arrangement `fit` can make:
        readouts below the plane, and beside it where that fits `screen` and `fit` would
        keep them there. A body as large as either reads whole."""
        below = self._below(plane_width, plane_height, False)
        beside = self._beside(plane_width, plane_height)
        roomy = screen is None or beside[0] <= screen.width()
        if roomy and beside[1] >= plane_height and self._beside_kept(*beside):
            return [below, beside]
        return [below]

    def _beside(self, plane_width: float, plane_height: float) -> tuple[int, int]:
        """The body with the readouts beside the plane, the table whole."""
        table = self.readouts.full_width()
        return (math.ceil(plane_width + self.body.spacing() + table),
                math.ceil(max(plane_height, self.readouts.needed_height(table) + 2)))

    def _below(self, plane_width: float, plane_height: float,
               stage: bool) -> tuple[int, int]:
        """The body with the readouts below the plane: every column, every line, no scroll
        bar, and (at the desk) within the share of the height they may take."""
        bar = 0 if stage else self._bar_width()
        width = math.ceil(max(plane_width, self.readouts.full_width() + bar,
                              self.readouts.query_line.sizeHint().width() * (not stage)))
        readouts = self.readouts.needed_height(width - bar) + 2
        height = math.ceil(plane_height + readouts + self.body.spacing())
        if stage:
            return width, height
        return width, math.ceil(max(height, (readouts + 1) / READOUT_SHARE))
