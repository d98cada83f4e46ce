"""Owns the settings file and every key in it, so what the app remembers is listed in one place.

Settings live beside the autosave (`settings.ini` in the user folder), so one folder holds
everything the app remembers about a user. A settings file the app cannot use (a FIFO, a
device, a huge file) is left exactly as it is: the app keeps its settings for this run in a
private temporary file instead, and says so once. Like the autosave, the settings file is
never written through a link: a `settings.ini` that is a symbolic link becomes a regular file
of its own first (with the settings the link pointed to), and the link's target is left alone.
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from app.model.atomic import write_bytes_atomic
from app.model.jsonfile import FileRefused, read_small_file
from app.paths import user_data_dir

SETTINGS_NAME = "settings.ini"
MAX_SETTINGS_BYTES = 1024 * 1024
"""A real settings file is a few kilobytes; anything far larger is not one of ours."""

WINDOW_GEOMETRY = "window/geometry"
WINDOW_STATE = "window/state"
RECENT_FILES = "recent/files"
PRESENTATION_SCALE = "presentation/scale"
PRESENTATION_THEME = "presentation/theme"
LANGUAGE = "ui/language"
CHECKLIST_DONE = "guide/checklist_done"
LESSON_ACTIVE = "lesson/active"
LESSON_SCENE = "lesson/scene"
LESSON_DAY = "lesson/day"
"""The day (ISO date) the lesson was left on its scene: a later start asks where to begin."""

_stand_in: Path | None = None


def settings_path() -> Path:
    return user_data_dir() / SETTINGS_NAME


def settings_problem() -> str | None:
    """Why the settings file cannot be used (it is then never opened), or None."""
    path = settings_path()
    if not path.exists() and not path.is_symlink():
        return None  # a first start: Qt creates it
    if path.is_symlink():  # still a link: `settings` could not replace it (read-only folder)
        return f"{path}: is a link to another file, which the app does not write through"
    try:
        read_small_file(path, MAX_SETTINGS_BYTES)
    except FileRefused as refused:
        return f"{path}: {refused.problem}"
    return None


def _stand_in_path() -> Path:
    """A private file for this run's settings, removed when the app exits."""
    global _stand_in
    if _stand_in is None:
        folder = tempfile.mkdtemp(prefix="attention-lab-settings-")
        atexit.register(shutil.rmtree, folder, True)
        _stand_in = Path(folder) / SETTINGS_NAME
    return _stand_in


def _replace_link(path: Path) -> None:
    """Turn a settings file that is a symbolic link into a regular file holding what the link
    pointed to (nothing, for a dangling link or one to a FIFO), so Qt, which writes through
    links, never rewrites a file elsewhere. When the folder cannot be written the link stays,
    and `settings_problem` then names it."""
    if not path.is_symlink():
        return
    try:
        content = read_small_file(path, MAX_SETTINGS_BYTES)
    except FileRefused:
        content = b""
    with contextlib.suppress(OSError):
        write_bytes_atomic(path, content, private=True)  # replaces the link, not its target


def settings() -> QSettings:
    """The user's settings file (INI, readable and editable by hand), or this run's stand-in
    when that file cannot be used (see `settings_problem`)."""
    _replace_link(settings_path())
    path = _stand_in_path() if settings_problem() is not None else settings_path()
    return QSettings(str(path), QSettings.Format.IniFormat)
