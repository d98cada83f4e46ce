"""Owns importing pyqtgraph without making PySide6 create every Qt class at start-up.

PySide6 creates a Qt class the first time its name is read from the module. pyqtgraph's
`pyqtgraph.Qt` copies every name of QtCore, QtGui and QtWidgets into mirror modules of its
own (`_copy_attrs`: `dir()`, then `getattr` of each), which created all 721 of them before
the window could be built: about 0.2 s of every start, for classes the app never uses.

Here, the mirrors are made first, each reading a name it lacks from the PySide6 module
itself when asked (module `__getattr__`), and while pyqtgraph is imported each PySide6
module lists only the names it has already created, so the copy creates nothing new. Every
name still resolves through the mirrors, to the very same class as before.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager

MIRRORED = ("QtCore", "QtGui", "QtWidgets")
"""The PySide6 modules `pyqtgraph.Qt` mirrors by copying every name."""


def _forward(module: types.ModuleType) -> Callable[[str], object]:
    def read(name: str) -> object:
        return getattr(module, name)
    return read


def _listed(module: types.ModuleType) -> Callable[[], list[str]]:
    def names() -> list[str]:
        return [name for name in module.__dict__ if not name.startswith("__")]
    return names


@contextmanager
def _created_names_only(modules: list[types.ModuleType]) -> Iterator[None]:
    """While open, `dir()` of each module lists only the names it has already created."""
    kept = [module.__dict__.get("__dir__") for module in modules]
    # a module's own __dir__ / __getattr__ (PEP 562): typeshed types them as ModuleType's
    for module in modules:
        module.__dir__ = _listed(module)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for module, own in zip(modules, kept, strict=True):
            if own is None:
                del module.__dir__
            else:
                module.__dir__ = own  # type: ignore[method-assign]


def import_pyqtgraph() -> None:
    """Import pyqtgraph with lazily filled mirrors; a no-op once it is imported (a test or a
    tool that imported it first simply keeps the slower, complete copy)."""
    if "pyqtgraph" in sys.modules:
        return
    modules = [importlib.import_module(f"PySide6.{name}") for name in MIRRORED]
    for name, module in zip(MIRRORED, modules, strict=True):
        mirror = types.ModuleType(f"pyqtgraph.Qt.{name}", module.__doc__)
        mirror.__getattr__ = _forward(module)  # type: ignore[method-assign]
        sys.modules[mirror.__name__] = mirror
    with _created_names_only(modules):
        import pyqtgraph  # noqa: F401
