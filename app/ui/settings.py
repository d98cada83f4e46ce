"""Owns the settings file and every key in it, so what the app remembers is listed in one place.

Settings live beside the autosave (`settings.ini` in the user folder), so one folder holds
everything the app remembers about a user.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings

from app.paths import user_data_dir

SETTINGS_NAME = "settings.ini"

WINDOW_GEOMETRY = "window/geometry"
WINDOW_STATE = "window/state"
RECENT_FILES = "recent/files"
PRESENTATION_SCALE = "presentation/scale"
PRESENTATION_THEME = "presentation/theme"
LANGUAGE = "ui/language"


def settings() -> QSettings:
    """The user's settings file (INI, readable and editable by hand)."""
    return QSettings(str(user_data_dir() / SETTINGS_NAME), QSettings.Format.IniFormat)
