"""How things look: colour maps, themes and the presentation scale, shared by every panel.

Colours come from the Okabe–Ito palette and a blue–white–orange diverging map, which stay
distinguishable under deuteranopia and protanopia (unlike red–green), and survive a
washed-out projector because both ends are dark.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import numpy as np
import pyqtgraph as pg

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
"""Token colours, by colour slot (`token_colour`): the colour-blind-safe categorical palette."""

QUERY_COLOUR = "#000000"
SELECTION_COLOUR = "#D55E00"

MIN_SCALE, MAX_SCALE = 1.0, 2.5
SPOTLIGHT_VEIL = 0.72
"""How much of the background covers what the spotlight dims: still there, no longer read."""


def token_colour(slot: int) -> str:
    """The colour of the token holding colour slot `slot` (app/model/reshape.py
    `colour_slots`): every panel asks here, so a token has one colour everywhere and keeps
    it when others are added, removed or renamed."""
    return OKABE_ITO[slot % len(OKABE_ITO)]


def blend(colour: str, toward: str, amount: float) -> str:
    """`colour` moved `amount` (0 … 1) of the way to `toward`; both are "#RRGGBB"."""
    a, b = (np.array([int(c[i:i + 2], 16) for i in (1, 3, 5)]) for c in (colour, toward))
    return "#" + "".join(f"{v:02X}" for v in np.round((1 - amount) * a + amount * b).astype(int))


@functools.cache
def diverging_map() -> pg.ColorMap:
    """Signed scores: dark blue (negative) → white (zero) → dark orange (positive)."""
    stops = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    colours = ["#08306B", "#6BAED6", "#FFFFFF", "#FDAE6B", "#A63603"]
    return pg.ColorMap(stops, colours, name="attention-lab-diverging")


@functools.cache
def rising_map() -> pg.ColorMap:
    """Scores of one sign (−|q−k| ≤ 0): white (lowest) → dark orange (highest), the diverging
    map's upper half, so "higher" has the same colour in every landscape; monotone in
    lightness, so it reads in grey and under colour-blindness."""
    stops = np.array([0.0, 0.5, 1.0])
    return pg.ColorMap(stops, ["#FFFFFF", "#FDAE6B", "#A63603"], name="attention-lab-rising")


def washed(cmap: pg.ColorMap, amount: float) -> pg.ColorMap:
    """`cmap` mixed `amount` (0 … 1) with white: a background that marks drawn over it beat."""
    stops = np.linspace(0.0, 1.0, 256)
    colours = cmap.map(stops, mode="float")[:, :3]
    return pg.ColorMap(stops, np.round(255 * ((1 - amount) * colours + amount)).astype(np.uint8))


LANDSCAPE_WASH = 0.4
"""A landscape's colours are mixed this much with white, so arrows and labels stay the
strongest marks on it in every theme (opacity would mix them with a dark background)."""


def landscape_map(signed: bool) -> pg.ColorMap:
    """A score landscape's colours: the diverging map for scores of both signs (zero in the
    middle), the one-sided rising map for −|q−k| (≤ 0 everywhere), both washed."""
    return washed(diverging_map() if signed else rising_map(), LANDSCAPE_WASH)


@functools.cache
def sequential_map() -> pg.ColorMap:
    """Weights in [0, 1]: white → dark blue, monotone in lightness."""
    stops = np.array([0.0, 0.5, 1.0])
    return pg.ColorMap(stops, ["#FFFFFF", "#6BAED6", "#08306B"], name="attention-lab-sequential")


def use_light_plots() -> None:
    """pyqtgraph's defaults for every plot: smooth lines, black on white (a theme recolours
    the chrome around them, not the data), and every mouse move delivered. pyqtgraph's own
    rate limit drops a move that comes sooner than 10 ms after the last, and when that was
    the last move of a burst the dragged vector stayed a step behind the pointer until
    release; the document already folds a burst of edits into one recompute and one
    painted frame, keeping the last."""
    pg.setConfigOptions(antialias=True, background="w", foreground="k", mouseRateLimit=0)


@dataclass(frozen=True)
class Theme:
    """Colours of the chrome around the data; the data colour maps do not change."""

    name: str
    background: str
    foreground: str
    muted: str
    grid: str


LIGHT = Theme("light", background="#FFFFFF", foreground="#000000", muted="#555555",
              grid="#BBBBBB")
DARK = Theme("dark", background="#1E1E1E", foreground="#F0F0F0", muted="#AAAAAA",
             grid="#555555")


@dataclass(frozen=True)
class Look:
    """The presentation settings every panel draws with (scale 1.0 … 2.5). Text sizes follow
    the application font instead (app.ui.fonts), which presentation mode scales."""

    scale: float = 1.0
    theme: Theme = LIGHT
    spotlight: bool = False
    stage: bool = False
    """On the projector's stage (app.ui.layout.stage): every text at least STAGE_MIN_PX, a
    panel at least its `readable_size`, the teacher's controls out of the class's way."""

    def px(self, width: float) -> float:
        """A line width or marker size in pixels, scaled."""
        return width * self.scale

    def opacity(self, selected: bool) -> float:
        """Full for the selected pair's marks, faded for the rest while the spotlight is on."""
        return 1.0 if selected or not self.spotlight else 1.0 - SPOTLIGHT_VEIL

    def faded(self, colour: str) -> str:
        """A text colour as the spotlight dims it: most of the way to the background."""
        return blend(colour, self.theme.background, SPOTLIGHT_VEIL)

    def scaled(self, scale: float) -> Look:
        return replace(self, scale=min(MAX_SCALE, max(MIN_SCALE, scale)))
