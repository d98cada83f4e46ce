"""Owns fitting the score matrix's text to a short dock at a large scale: the two lines under
the plot (one gives up its room, the other shrinks) and the colour bar's numbers."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QLabel

from app.ui.fonts import BODY_PT, HEADING, points, ui_font
from app.ui.widgets.text_fit import largest_size, wrapped_height
from app.ui.widgets.tips import set_tip

ROOMY_PLOT_HEIGHT = 150
"""Pixels at 100 %: a plot shorter than this takes the room of the less important line."""
LINE_FONTS = (HEADING, True), (BODY_PT, False)
"""Point size at 100 % and boldness of the readout line, then of the info line."""


def fit_lines(readout: QLabel, info: QLabel, scale_mode: bool, width: float, room: float,
              plot_height: float, roomy_height: float, least: float = 0.0) -> None:
    """Share `room` pixels between the plot (at least `plot_height`, and `roomy_height` to
    keep both lines) and the two lines.

    The line that matters less in this mode (the lesson's help line, scale mode's seed line)
    hides and becomes the other's tooltip when the plot would be cramped; the line kept then
    shrinks, not below 11 pt nor `least` (the stage's floor), rather than run over the plot.
    """
    fonts = {readout: (points(LINE_FONTS[0][0]), LINE_FONTS[0][1]),
             info: (points(LINE_FONTS[1][0]), LINE_FONTS[1][1])}
    spare, keep = (readout, info) if scale_mode else (info, readout)

    def height(label: QLabel, size: float) -> float:
        return wrapped_height(label.text(), ui_font(size, fonts[label][1]), width)

    full = {label: height(label, fonts[label][0]) for label in (spare, keep)}
    spare.setVisible(room - full[spare] - full[keep] >= roomy_height)
    keep.setVisible(True)
    set_tip(keep, "" if spare.isVisible() else spare.text())
    left = room - plot_height - (full[spare] if spare.isVisible() else 0.0)
    size = max(least, largest_size(fonts[keep][0], lambda size: height(keep, size) <= left))
    keep.setFont(ui_font(size, fonts[keep][1]))
    spare.setFont(ui_font(*fonts[spare]))


def fit_colorbar(colorbar: pg.ColorBarItem, plot_height: float, least: float = 7.0) -> None:
    """The colour bar's numbers shrink with a short plot rather than overlap each other
    (about five of them share its height), never below `least` points."""
    size = min(max(points(BODY_PT), least), max(least, 0.12 * plot_height))
    colorbar.axis.setStyle(tickFont=ui_font(round(size * 2) / 2))
