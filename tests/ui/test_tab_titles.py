"""A dock tab bar keeps every title whole: its text shrinks to fit, not below the desk's least
size, and grows back when there is room (the windows it runs in: test_desk_worlds.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar

from app.startup import make_application
from app.ui.layout.tab_titles import fit_titles

TITLES = ("Term by term", "Three kinds of match", "Four landscapes", "Score matrix")


@pytest.fixture
def bar(qtbot) -> QTabBar:
    make_application()
    tabs = QTabBar()
    qtbot.addWidget(tabs)
    tabs.setElideMode(Qt.TextElideMode.ElideNone)
    tabs.setUsesScrollButtons(True)
    for title in TITLES:
        tabs.addTab(title)
    tabs.show()
    return tabs


def _least(bar: QTabBar) -> float:
    return bar.font().pointSizeF() - 1.0


def test_tabs_a_little_too_wide_shrink_until_every_title_is_in_view(bar: QTabBar) -> None:
    inherited = bar.font().pointSizeF()
    least = _least(bar)
    bar.resize(bar.sizeHint().width() - 12, bar.sizeHint().height())
    fit_titles(bar, least)
    assert bar.sizeHint().width() <= bar.width()
    assert least <= bar.font().pointSizeF() < inherited


def test_tabs_that_fit_keep_the_inherited_size_and_get_it_back_with_room(bar: QTabBar) -> None:
    inherited = bar.font().pointSizeF()
    wide = bar.sizeHint().width()
    bar.resize(wide - 12, bar.sizeHint().height())
    fit_titles(bar, _least(bar))
    bar.resize(wide + 40, bar.height())
    fit_titles(bar, _least(bar))
    assert bar.font().pointSizeF() == inherited
    assert not bar.testAttribute(Qt.WidgetAttribute.WA_SetFont)  # zoom steps still reach it


def test_no_title_goes_below_the_least_size_however_narrow_the_bar(bar: QTabBar) -> None:
    least = _least(bar)
    bar.resize(bar.sizeHint().width() // 2, bar.sizeHint().height())
    fit_titles(bar, least)
    assert bar.font().pointSizeF() == least
