"""The application icon: every size from 16 to 512 px on the QApplication (so on every window
and in the task bar), the desktop entry's name for Wayland, and PNGs that still look like the
SVG they are rendered from."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication

from app.ui.app_icon import DESKTOP_ENTRY, ICON_DIR, app_icon, icon_files

ROOT = Path(__file__).resolve().parents[2]


def _make_icons():
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "tools" / "make_icons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_application_and_its_windows_carry_every_icon_size(qtbot, open_window) -> None:
    window = open_window()
    icon = QApplication.windowIcon()
    assert not icon.isNull()
    sizes = {size.width() for size in icon.availableSizes()}
    assert sizes == set(_make_icons().SIZES) and {16, 512} <= sizes
    assert window.windowIcon().cacheKey() == icon.cacheKey()
    assert QApplication.desktopFileName() == DESKTOP_ENTRY
    small = icon.pixmap(QSize(16, 16))
    assert small.width() == 16 and not small.toImage().isNull()


def test_the_pngs_match_the_svg(qapp) -> None:
    make_icons = _make_icons()
    assert icon_files(ICON_DIR).keys() == set(make_icons.SIZES)
    assert make_icons.stale() == []


def test_a_changed_svg_makes_its_pngs_stale(qapp, tmp_path) -> None:
    make_icons = _make_icons()
    svg = tmp_path / "other.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
                   '<rect width="16" height="16" fill="#ffffff"/></svg>', encoding="utf-8")
    assert len(make_icons.stale(svg)) == len(make_icons.SIZES)
    assert app_icon(tmp_path).isNull(), "a folder without the hicolor tree gives no icon"
