"""Writing a file so that a crash leaves the old content or the new, never half of either.

Two kinds of file go through here. A file the user chose (a saved scenario, an export) is the
user's: if it is a symbolic link the link stays and its target gets the new content, and the
file keeps its permissions. The app's own files (the autosave) are private: written with mode
0600, and a link at that path is replaced by a regular file, never followed.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["write_bytes_atomic", "write_text_atomic"]


def write_text_atomic(path: Path, text: str, *, private: bool = False) -> None:
    """UTF-8 text with "\\n" line ends through `write_bytes_atomic` (same guarantees)."""
    write_bytes_atomic(path, text.encode("utf-8"), private=private)


def write_bytes_atomic(path: Path, data: bytes, *, private: bool = False) -> None:
    """Write beside the target, fsync, then rename over it: a crash leaves old or new, never half.

    `private=False` (a file the user chose): a symlink is resolved and its target written, an
    existing file keeps its mode, a new one gets the usual mode (0666 less the umask).
    `private=True` (the app's own files): mode 0600, and a symlink at `path` is replaced by a
    regular file (its target is left alone), so a planted link cannot redirect the write.
    Raises OSError (no permission, disk full); the temporary file is removed on failure.
    """
    path = Path(path)
    if not private:
        path = Path(os.path.realpath(path))
    mode = None if private else _mode_for(path)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def _mode_for(path: Path) -> int:
    """The permissions the replacement should have: the old file's, or a new file's default."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass
    umask = os.umask(0o022)  # reading the umask means setting it; put it straight back
    os.umask(umask)
    return 0o666 & ~umask


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable where the OS allows it (not on Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
