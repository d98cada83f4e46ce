"""Owns the application icon: every PNG size shipped in resources/icons, as one QIcon.

Set on the QApplication, it is every window's icon and the task bar's; the PNGs are rendered
from the SVG by tools/make_icons.py, so no SVG plugin is needed at run time.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon

from app.model.lesson.bundled import bundled_dir

__all__ = ["DESKTOP_ENTRY", "ICON_DIR", "ICON_NAME", "app_icon", "icon_files"]

ICON_NAME = "attention-lab"
"""The icon's name in the freedesktop theme, as the .desktop entry names it."""
DESKTOP_ENTRY = "attention-lab"
"""The .desktop entry's name without its suffix: Wayland compositors find the icon through it."""
ICON_DIR = bundled_dir("resources") / "icons"


def icon_files(folder: Path = ICON_DIR) -> dict[int, Path]:
    """Pixel size → PNG, from the hicolor tree (`<n>x<n>/apps/attention-lab.png`)."""
    found = {}
    for path in (folder / "hicolor").glob(f"*/apps/{ICON_NAME}.png"):
        width, _, height = path.parts[-3].partition("x")
        if width == height and width.isdigit():
            found[int(width)] = path
    return dict(sorted(found.items()))


def app_icon(folder: Path = ICON_DIR) -> QIcon:
    """Every size in one icon, so Qt never scales a large picture down to 16 px."""
    icon = QIcon()
    for size, path in icon_files(folder).items():
        icon.addFile(str(path), QSize(size, size))
    return icon
