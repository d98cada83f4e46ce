"""Owns keeping a dock tab bar's titles whole: a bar whose tabs are wider than itself scrolls,
and the tab at its edge is cut mid-title ("…by term" reads as another panel's name). Its text
shrinks first, not below the desk's least size; only past that does the bar scroll."""

from __future__ import annotations

import math

from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QTabBar

STEP_PT = 0.5
"""How much smaller each try is: type sizes on the zoom grid's half-points."""


def fit_titles(bar: QTabBar, least_pt: float) -> None:
    """Every tab of `bar` in view at the inherited size if it can be, else at the largest
    size down to `least_pt` at which the tabs fit (at `least_pt` when none does: the bar
    scrolls then, as little as it can)."""
    bar.setFont(QFont())  # inherit: the zoom's size, whenever the tabs fit at it
    size = bar.font().pointSizeF()
    while bar.sizeHint().width() > bar.width() and size - STEP_PT >= least_pt:
        size -= STEP_PT
        font = QFont(bar.font())
        font.setPointSizeF(size)
        bar.setFont(font)


def least_width(bar: QTabBar, least_pt: float) -> int:
    """The width `bar`'s tabs take at `least_pt`: what a column holding them needs so no
    title is cut (the tabs' padding as now, their texts measured at that size)."""
    titles = [bar.tabText(index) for index in range(bar.count())]
    smaller = QFont(bar.font())
    smaller.setPointSizeF(least_pt)
    now, least = QFontMetricsF(bar.font()), QFontMetricsF(smaller)
    texts = sum(least.horizontalAdvance(title) - now.horizontalAdvance(title) for title in titles)
    return math.ceil(bar.sizeHint().width() + texts)
