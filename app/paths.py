"""Where the app keeps what a user made: autosave, settings, recorded questions, the error log.

The folders are Qt's (`QStandardPaths`: AppDataLocation for the user folder, StateLocation for
the log), named after the application and organization set here. Qt is imported only when a
user folder is really asked for, so the headless `--export-csv` run never loads it.
`ATTENTION_LAB_HOME` overrides both (the log then goes to its `logs/`). The first start after
the move to Qt's folders carries the files of the folder earlier versions used over.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

HOME_VARIABLE = "ATTENTION_LAB_HOME"
APPLICATION_NAME = "Attention Lab"
ORGANIZATION_NAME = "AttentionLab"
LOG_FOLDER = "logs"
"""The log's folder inside ATTENTION_LAB_HOME (and inside the folder of earlier versions)."""


class UserFolderError(OSError):
    """The user folder cannot be used (a file is in its way, or it cannot be created).

    An OSError, so every writer that already survives a full disk (autosave, log, question
    log) survives this too; start-up asks `user_folder_problem()` first and turns autosave off.
    """


def name_application() -> None:
    """Give Qt the names its standard folders are made of; needs no QApplication, so a
    folder can be found before one exists (the names are the ones the app runs under)."""
    from PySide6.QtCore import QCoreApplication

    QCoreApplication.setOrganizationName(ORGANIZATION_NAME)
    QCoreApplication.setApplicationName(APPLICATION_NAME)


def _standard_location(name: str) -> Path:
    """Qt's writable folder of kind `name` (a `QStandardPaths.StandardLocation`) for this app."""
    from PySide6.QtCore import QStandardPaths

    name_application()
    return Path(QStandardPaths.writableLocation(getattr(QStandardPaths.StandardLocation, name)))


def _configured_dir() -> Path:
    """The folder the user data belongs in, whether or not it exists yet."""
    override = os.environ.get(HOME_VARIABLE)
    if override:
        return Path(override)
    return _standard_location("AppDataLocation")


def earlier_user_dir() -> Path:
    """The user folder versions before the move to Qt's folders worked out by hand."""
    if os.name == "nt":
        return Path(os.environ.get("APPDATA", Path.home())) / "AttentionLab"
    if os.uname().sysname == "Darwin":
        return Path.home() / "Library" / "Application Support" / "AttentionLab"
    xdg = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(xdg) / "attention-lab"


def _carried(entry: Path) -> bool:
    """A file of the earlier folder worth carrying: not a lock, a write probe or a temp file."""
    return entry.is_file() and entry.suffix != ".lock" and not entry.name.startswith(".")


def _copy_logs(earlier: Path) -> None:
    """The earlier folder's logs, into the log folder, if it has none yet; a log is
    technical detail, so a copy that fails costs nothing else."""
    try:
        target = _standard_location("StateLocation")
        if (earlier / LOG_FOLDER).is_dir() and not target.exists():
            shutil.copytree(earlier / LOG_FOLDER, target)
    except OSError:
        pass


def _carry_over(folder: Path) -> Path:
    """The user folder to use. On the first start after the move (`folder` does not exist,
    the earlier one does), the earlier folder's files are copied into a new folder first,
    which appears complete or not at all; the earlier folder is left as it was. When the copy
    fails, the earlier folder is used as before, and the next start tries again."""
    earlier = earlier_user_dir()
    if os.environ.get(HOME_VARIABLE) or folder.exists() or not earlier.is_dir():
        return folder
    staging = folder.with_name(f".{folder.name}.carrying-{os.getpid()}")
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        for entry in earlier.iterdir():
            if _carried(entry):
                shutil.copy2(entry, staging / entry.name)
        os.rename(staging, folder)  # fails if another copy of the app got there first
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        return folder if folder.is_dir() else earlier
    _copy_logs(earlier)
    return folder


def _describe(base: Path, error: OSError) -> str:
    where = f"{HOME_VARIABLE}={base}" if os.environ.get(HOME_VARIABLE) else str(base)
    if base.exists() and not base.is_dir():
        return f"the user folder {where} is not a folder"
    return f"cannot create the user folder {where}: {error.strerror or error}"


def ensure_user_data_dir() -> Path:
    """The per-user folder, created if needed; raises UserFolderError saying why it cannot be."""
    base = _configured_dir()
    try:
        base = _carry_over(base)
        base.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserFolderError(error.errno, _describe(base, error)) from error
    if not base.is_dir():  # mkdir(exist_ok) accepts a symlink to a file on some systems
        raise UserFolderError(0, f"the user folder {base} is not a folder")
    return base


def ensure_log_dir() -> Path:
    """The error log's folder, created if needed: `logs/` in ATTENTION_LAB_HOME, else Qt's
    StateLocation (on Linux under $XDG_STATE_HOME, where the XDG rules put logs); raises
    OSError when it cannot be made."""
    override = os.environ.get(HOME_VARIABLE)
    folder = Path(override) / LOG_FOLDER if override else _standard_location("StateLocation")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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
