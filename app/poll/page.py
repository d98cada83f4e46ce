"""Owns the student page as the server sends it: the bundled files of resources/poll/, read
once into memory, and the page's own words in each language (falling back as the
interface's strings do).

The server maps a fixed set of paths to these bytes; no request ever names a file on disk.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from app.i18n import BASE_LANGUAGE, chain
from app.model.bundled import bundled_dir

__all__ = ["PAGE_DIR", "Asset", "Page", "load_page"]

PAGE_DIR = bundled_dir("resources") / "poll"
FILES = {
    "/": ("index.html", "text/html"),
    "/student.js": ("student.js", "text/javascript"),
    "/student.css": ("student.css", "text/css"),
}
"""Every file the server sends, by the only path it answers to."""
STRINGS_FILE = "strings.json"


@dataclass(frozen=True)
class Asset:
    """One bundled file: its bytes and its media type (always UTF-8 text)."""

    body: bytes
    content_type: str


@dataclass(frozen=True)
class Page:
    """The page's files by path, and its words by language."""

    assets: MappingProxyType[str, Asset]
    strings: MappingProxyType[str, MappingProxyType[str, str]]

    def words(self, lang: str) -> dict[str, str]:
        """The page's words in `lang`, each missing one from its fallbacks, as the
        interface's own strings are (a new interface language may not have them yet)."""
        found: dict[str, str] = {}
        for code in reversed(chain(lang)):
            found.update(self.strings.get(code, {}))
        return found


def _strings(folder: Path) -> MappingProxyType[str, MappingProxyType[str, str]]:
    tables = json.loads((folder / STRINGS_FILE).read_text(encoding="utf-8"))
    if not isinstance(tables, dict) or BASE_LANGUAGE not in tables:
        raise ValueError(f"{STRINGS_FILE} must hold a table for {BASE_LANGUAGE} at least")
    keys = set(tables[BASE_LANGUAGE])
    for lang, table in tables.items():
        if not isinstance(table, dict) or not set(table) <= keys or not all(
                isinstance(v, str) and v for v in table.values()):
            raise ValueError(f"{STRINGS_FILE}: {lang} must give texts to {BASE_LANGUAGE}'s keys")
    return MappingProxyType({lang: MappingProxyType(dict(table))
                             for lang, table in tables.items()})


@functools.cache
def load_page(folder: Path = PAGE_DIR) -> Page:
    """The bundled page, read once per process (a broken bundle raises at the poll's start)."""
    assets = {route: Asset((folder / name).read_bytes(), f"{kind}; charset=utf-8")
              for route, (name, kind) in FILES.items()}
    return Page(MappingProxyType(assets), _strings(folder))
