"""Owns the student page as the server sends it: the bundled files of resources/poll/, read
once into memory, and the page's own words, taken from the interface's catalogue of the
language the page is in (falling back as the interface's strings do), so a language's one
catalogue carries the phones' page too.

The server maps a fixed set of paths to these bytes; no request ever names a file on disk.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from app.i18n import chain, strings
from app.model.lesson.bundled import bundled_dir

__all__ = ["PAGE_DIR", "PAGE_KEYS", "Asset", "Page", "load_page"]

PAGE_DIR = bundled_dir("resources") / "poll"
FILES = {
    "/": ("index.html", "text/html"),
    "/student.js": ("student.js", "text/javascript"),
    "/student.css": ("student.css", "text/css"),
}
"""Every file the server sends, by the only path it answers to."""
PAGE_KEYS = (
    "poll_page.brand", "poll_page.title", "poll_page.room_label", "poll_page.join",
    "poll_page.room_format", "poll_page.room_wrong", "poll_page.waiting", "poll_page.tap",
    "poll_page.sending", "poll_page.sent", "poll_page.frozen", "poll_page.frozen_none",
    "poll_page.right", "poll_page.mine", "poll_page.too_fast", "poll_page.full",
    "poll_page.changed", "poll_page.offline", "poll_page.error", "poll_page.checking",
    "poll_page.join_offline", "poll_page.ended", "poll_page.queued",
    "poll_page.dropped_changed", "poll_page.dropped_frozen",
)
"""The catalogue keys of the page's words; the page names each by what follows the dot."""


@dataclass(frozen=True)
class Asset:
    """One bundled file: its bytes and its media type (always UTF-8 text)."""

    body: bytes
    content_type: str


@dataclass(frozen=True)
class Page:
    """The page's files by path."""

    assets: MappingProxyType[str, Asset]

    def words(self, lang: str) -> dict[str, str]:
        """The page's words in `lang`, each missing one from its fallbacks, as the
        interface's own strings are."""
        found: dict[str, str] = {}
        for code in reversed(chain(lang)):
            table = strings(code)
            found.update({key.partition(".")[2]: table[key] for key in PAGE_KEYS
                          if key in table})
        return found


@functools.cache
def load_page(folder: Path = PAGE_DIR) -> Page:
    """The bundled page, read once per process (a broken bundle raises at the poll's start)."""
    assets = {route: Asset((folder / name).read_bytes(), f"{kind}; charset=utf-8")
              for route, (name, kind) in FILES.items()}
    return Page(MappingProxyType(assets))
