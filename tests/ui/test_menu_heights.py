"""Every menu opens as one column on a student's laptop: taller than the screen, Qt splits it
into columns and pushes its top over the window's title bar."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMenu

LAPTOP_HEIGHT = 768
"""The shortest screen the desk is made for (1366×768)."""


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_menu_fits_a_laptop_screen_in_one_column(open_window, language) -> None:
    window = open_window(language)
    menus = [menu for menu in window.findChildren(QMenu) if menu.objectName().startswith("menu_")]
    assert {"menu_view", "menu_view.panels"} <= {menu.objectName() for menu in menus}
    bar = window.menuBar().sizeHint().height()
    for menu in menus:
        assert menu.sizeHint().height() <= LAPTOP_HEIGHT - bar, menu.objectName()
