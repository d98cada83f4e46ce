"""Owns the playground's background: the active scorer's score landscape as an image with its
colour bar, and the labelled iso-score lines on top (all geometry comes from the view)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

from app.model.view import View
from app.ui.fonts import READING, points, scaled_font
from app.ui.format import format_score
from app.ui.look import Look, diverging_map
from app.ui.widgets.axes import reserve_room

ISO_LABELS = 16
"""Label items kept for iso-score lines; nice_levels yields about eight, so this never runs out."""
WASH = 0.4
"""The landscape's colours are mixed this much with white, so arrows and labels stay the
strongest marks on it in every theme (opacity would mix them with a dark background)."""


def washed_map() -> pg.ColorMap:
    """The diverging map of look.py, lightened towards white, for the landscape and its bar."""
    stops = np.linspace(0.0, 1.0, 256)
    colours = diverging_map().map(stops, mode="float")[:, :3]
    return pg.ColorMap(stops, np.round(255 * ((1 - WASH) * colours + WASH)).astype(np.uint8))


class LandscapeLayer:
    """Image, colour bar, iso-lines and their labels, created once and updated with setData."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setZValue(-20)
        plot.addItem(self.image)
        self.colorbar = pg.ColorBarItem(values=(-1, 1), colorMap=washed_map(),
                                        interactive=False, width=18)
        self.colorbar.setImageItem(self.image, insert_in=plot)
        self.iso = pg.PlotDataItem(connect="pairs")
        self.iso.setZValue(-10)
        plot.addItem(self.iso)
        self.labels = []
        self._tick_font = scaled_font()
        self._title_style: dict[str, str] = {}
        self._titled: tuple[str, float] | None = None
        for _ in range(ISO_LABELS):
            label = pg.TextItem("", color="#222222", anchor=(0.5, 0.5),
                                fill=pg.mkBrush(255, 255, 255, 150))
            label.setZValue(25)
            label.hide()
            plot.addItem(label)
            self.labels.append(label)

    def apply_look(self, look: Look) -> None:
        self._tick_font = scaled_font()
        self._title_style = {"font-size": f"{points(READING):g}pt", "color": look.theme.foreground}
        self._titled = None
        self.colorbar.axis.setTickFont(self._tick_font)
        self.colorbar.axis.setTextPen(pg.mkPen(look.theme.foreground))
        self.iso.setPen(pg.mkPen("#333333", width=look.px(1)))

    def paint(self, view: View, title: str = "") -> None:
        """Fixed symmetric levels ±limit, so zero is always the middle (white) colour; the
        colour bar carries `title` (the score's formula) when the plane has no caption."""
        land, iso = view.landscape, view.plane.iso
        step = 2 * land.extent / (len(land.xs) - 1)
        self.image.setImage(land.values, autoLevels=False)
        self.image.setRect(QRectF(-land.extent - step / 2, -land.extent - step / 2,
                                  2 * land.extent + step, 2 * land.extent + step))
        self.colorbar.setLevels((-land.limit, land.limit))
        if (title, land.limit) != self._titled:  # relaying the plot on every drag step is slow
            self._titled = (title, land.limit)
            axis = self.colorbar.axis
            axis.setLabel(title, **self._title_style)
            reserve_room(axis, self._tick_font, [f"{-land.limit:.0f}", f"{land.limit:.0f}"])
        points = iso.segments.reshape(-1, 2)
        self.iso.setData(points[:, 0], points[:, 1], connect="pairs")
        for index, label in enumerate(self.labels):
            visible = (index < len(iso.levels)
                       and bool(np.all(np.isfinite(iso.label_points[index]))))
            label.setVisible(visible)
            if visible:
                label.setText(format_score(float(iso.levels[index]), iso.decimals))
                label.setPos(*iso.label_points[index])
