"""Owns where the files that ship with the app are found: the lesson's data/ and resources/.

The repository keeps them at its top, beside app/; the wheel maps them into the package
(app/data, app/resources; see pyproject.toml), so an installed app finds them wherever it is
run from. `importlib.resources` answers for the package; a checkout (`python main.py`, the
editable install dev.py makes) has no such folder inside the package and reads the one
beside it. Standard library only, so the model and the headless CSV export use it too.
"""

from __future__ import annotations

import atexit
import contextlib
from importlib.resources import as_file, files
from pathlib import Path

__all__ = ["BUNDLED", "bundled_dir"]

BUNDLED = ("data", "resources")
"""The top-level folders the wheel carries inside the package, under the same names."""

_kept = contextlib.ExitStack()
atexit.register(_kept.close)


def _on_disk(resource: object) -> Path:
    """A real folder for a package resource: itself for an ordinary install (no copy is
    made); extracted until exit for a package that is not plain files on disk."""
    return _kept.enter_context(as_file(resource))  # type: ignore[arg-type]


def bundled_dir(name: str, package: str = "app") -> Path:
    """The folder `name` (one of BUNDLED) as shipped with `package`: inside it when installed
    from a wheel, else beside it in the checkout. Loaders take it as a Path, so a test can
    point them at a copy instead."""
    inside = files(package) / name
    if inside.is_dir():
        return _on_disk(inside)
    return _on_disk(files(package)).parent / name
