"""Where the app keeps what a user made: autosave, settings, logs, recorded questions."""

from __future__ import annotations

import os
from pathlib import Path

HOME_VARIABLE = "ATTENTION_LAB_HOME"


class UserFolderError(OSError):
    """The user folder cannot be used (a file is in its way, or it cannot be created).

    An OSError, so every writer that already survives a full disk (autosave, log, question
    log) survives this too; start-up asks `user_folder_problem()` first and turns autosave off.
    """


def _configured_dir() -> Path:
    """The folder the user data belongs in, whether or not it exists yet."""
    override = os.environ.get(HOME_VARIABLE)
    if override:
        return Path(override)
    if os.name == "nt":
        return Path(os.environ.get("APPDATA", Path.home())) / "AttentionLab"
    if os.uname().sysname == "Darwin":
        return Path.home() / "Library" / "Application Support" / "AttentionLab"
    xdg = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(xdg) / "attention-lab"


def _describe(base: Path, error: OSError) -> str:
    where = f"{HOME_VARIABLE}={base}" if os.environ.get(HOME_VARIABLE) else str(base)
    if base.exists() and not base.is_dir():
        return f"the user folder {where} is not a folder"
    return f"cannot create the user folder {where}: {error.strerror or error}"


def ensure_user_data_dir() -> Path:
    """The per-user folder, created if needed; raises UserFolderError saying why it cannot be."""
    base = _configured_dir()
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserFolderError(error.errno, _describe(base, error)) from error
    if not base.is_dir():  # mkdir(exist_ok) accepts a symlink to a file on some systems
        raise UserFolderError(0, f"the user folder {base} is not a folder")
    return base


def user_folder_problem() -> str | None:
    """One line saying why the user folder is unusable, or None when it is fine.

    Start-up asks this before building anything: with no folder the app still starts, with
    autosave off and a note on screen; a command-line run exits with this line instead.
    """
    try:
        ensure_user_data_dir()
    except UserFolderError as error:
        return error.strerror
    return None


def user_data_dir() -> Path:
    """The per-user folder; ATTENTION_LAB_HOME overrides it so tests and kiosks stay isolated.

    Never raises: when the folder cannot be made, the path is still returned so readers find
    nothing there and writers fail with an OSError they already handle.
    """
    try:
        return ensure_user_data_dir()
    except UserFolderError:
        return _configured_dir()


def output_problem(path: Path) -> str | None:
    """Why a file cannot be written at `path` (a folder, a FIFO or device, an unwritable or
    impossible folder), or None when it looks writable. Checked before any long work starts,
    so a command-line run fails at once with one line instead of after the whole run."""
    path = Path(path)
    if path.name in ("", ".", ".."):
        return f"cannot write {path}: not a file name"
    if path.exists():
        if path.is_dir():
            return f"cannot write {path}: it is a folder"
        if not path.is_file():
            return f"cannot write {path}: not a regular file"
        if not os.access(path, os.W_OK):
            return f"cannot write {path}: permission denied"
        return None
    parent = path.parent
    while not parent.exists():
        if parent.is_symlink() or parent == parent.parent:  # a dangling link, or no root
            return f"cannot write {path}: the folder {parent} cannot be created"
        parent = parent.parent
    if not parent.is_dir():
        return f"cannot write {path}: {parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot write {path}: permission denied in {parent}"
    return None
