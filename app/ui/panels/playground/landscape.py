"""Owns the playground's background: the active scorer's score landscape as an image with its
colour bar (diverging for signed scores, one-sided for −|q−k|), and the labelled iso-score
lines on top (all geometry comes from the model's landscape)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

from app.model.landscape import Landscape
from app.ui.fonts import READING, points, scaled_font
from app.ui.format import format_score
from app.ui.look import Look, landscape_map
from app.ui.widgets.axes import keep_still, reserve_room
from app.ui.widgets.plot_text import PlotText

ISO_LABELS = 16
"""Label items kept for iso-score lines; nice_levels yields about eight, so this never runs out."""


def washed_map(signed: bool = True) -> pg.ColorMap:
    """A landscape's colours (look.py): diverging for scores of both signs, one-sided for
    −|q−k|, which is ≤ 0 everywhere."""
    return landscape_map(signed)


def widest_tick(end: float) -> str:
    """A stand-in for the widest tick label a colour key ending at `end` prints, which
    changes only with the end's sign and number of digits: a key within ±10 is ticked in
    tenths (cosine's −0.5), wider than its whole ends, and pyqtgraph leaves out a label it
    has no room for. The room follows the levels and the levels the plane's size: room that
    followed each end's own digits would resize the plane, and so move the levels again."""
    sign = "−" if end < 0 else ""
    return sign + ("0.5" if abs(end) < 10 else "8" * len(f"{abs(end):.0f}"))


class LandscapeLayer:
    """Image, colour bar, iso-lines and their labels, created once and updated with setData."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setZValue(-20)
        plot.addItem(self.image)
        self.colorbar = pg.ColorBarItem(values=(-1, 1), colorMap=washed_map(),
                                        interactive=False, width=18)
        self.colorbar.setImageItem(self.image, insert_in=plot)
        self.colorbar.axis.enableAutoSIPrefix(False)  # −0.5 is −0.5, never −500 (×0.001)
        self.iso = pg.PlotDataItem(connect="pairs")
        self.iso.setZValue(-10)
        plot.addItem(self.iso)
        keep_still(self.image, self.iso.curve)
        self.labels = []
        self._tick_font = scaled_font()
        self._title_style: dict[str, str] = {}
        self._titled: tuple[str, tuple[str, ...]] | None = None
        self._title = ""
        self._ends: tuple[str, ...] = ()
        self._signed = True
        self._painted: Landscape | None = None  # identity: a drag often keeps it
        self._levelled: tuple[Landscape, tuple[tuple[pg.TextItem, tuple[float, float]],
                                               ...]] | None = None
        """The landscape whose contour labels were last listed, and that list."""
        for _ in range(ISO_LABELS):
            label = PlotText("", color="#222222", anchor=(0.5, 0.5),
                             fill=pg.mkBrush(255, 255, 255, 150))
            label.setZValue(25)
            label.hide()
            plot.addItem(label)
            self.labels.append(label)

    def apply_look(self, look: Look) -> None:
        self._tick_font = scaled_font()
        self._title_style = {"font-size": f"{points(READING):g}pt", "color": look.theme.foreground}
        self._titled = None
        self._painted = None
        self.colorbar.axis.setTickFont(self._tick_font)
        self.colorbar.axis.setTextPen(pg.mkPen(look.theme.foreground))
        self.iso.setPen(pg.mkPen("#333333", width=look.px(1)))

    def paint(self, land: Landscape) -> None:
        """Fixed levels: ±limit for a signed score, so zero is always the middle (white)
        colour; lowest to highest on a one-sided scale for −|q−k|. The image spans the whole
        rectangle the landscape was computed for (the plot's shape), half a sample beyond
        each edge. The very landscape painted last (a key dragged inside the same rectangle)
        is left as it is: a new image and new contours would repaint the whole plane."""
        if self._painted is land:
            return
        self._painted = land
        iso = land.iso
        sx = 2 * land.half_width / (len(land.xs) - 1)
        sy = 2 * land.half_height / (len(land.ys) - 1)
        self.image.setImage(land.values, autoLevels=False)
        self.image.setRect(QRectF(-land.half_width - sx / 2, -land.half_height - sy / 2,
                                  2 * land.half_width + sx, 2 * land.half_height + sy))
        if land.signed != self._signed:
            self._signed = land.signed
            self.colorbar.setColorMap(washed_map(land.signed))
        levels = land.levels
        self.colorbar.setLevels(levels)
        self._ends = tuple(widest_tick(value) for value in levels)
        self._show_title()
        points = iso.segments.reshape(-1, 2)
        self.iso.setData(points[:, 0], points[:, 1], connect="pairs")

    def set_title(self, title: str) -> None:
        """The colour bar carries `title` (the formula) when the plane has no caption."""
        self._title = title
        self._show_title()

    def _show_title(self) -> None:
        if (self._title, self._ends) != self._titled:  # relaying the plot is slow: a drag
            self._titled = (self._title, self._ends)  # rarely changes either
            axis = self.colorbar.axis
            axis.setLabel(self._title, **self._title_style)
            reserve_room(axis, self._tick_font, list(self._ends))

    def level_labels(self, land: Landscape) -> list[tuple[pg.TextItem, tuple[float, float]]]:
        """Each contour's value label with the point of its line it belongs on (the panel
        shows it there only where it covers no other label and no arrow); the rest hidden.
        The landscape a drag keeps gives the labels it gave at the last step."""
        if self._levelled is not None and self._levelled[0] is land:
            return list(self._levelled[1])
        iso = land.iso
        shown = []
        for index, label in enumerate(self.labels):
            visible = (index < len(iso.levels)
                       and bool(np.all(np.isfinite(iso.label_points[index]))))
            if not visible:
                label.hide()
                continue
            text = format_score(float(iso.levels[index]), iso.decimals)
            if text != label.toPlainText():
                label.setText(text)
            point = iso.label_points[index]
            shown.append((label, (float(point[0]), float(point[1]))))
        self._levelled = (land, tuple(shown))
        return shown
