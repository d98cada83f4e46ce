"""Owns reading one language's catalogue: a gettext `.po` file whose msgids are the app's
string keys (a monolingual catalogue, as Weblate and Poedit open them), and the headers that
say what else the language needs.

Headers beyond gettext's own:
- `X-Qt-Catalogue`: Qt's own translation of its dialogs and buttons (e.g. `qtbase_zh_CN`);
- `X-Number-Words`: large numbers in the language's own words, as `12 万亿, 8 亿, 4 万`
  (the power of ten, then the word), largest first;
- `X-Token-Glosses`: `yes` when a reader needs the English meaning beside a Chinese token;
- `X-Fallback`: the language a string missing here is taken from;
- `X-Menu-Order`: where the language stands in the menu (smaller first);
- `X-Shortcut`: the keys that switch to it (`Ctrl+Shift+C`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

DEFAULT_MENU_ORDER = 100
CACHE_FOLDER = "__pycache__"
"""Where a catalogue's parsed form is kept, beside it, as Python keeps a module's bytecode."""


class CatalogueError(ValueError):
    """A catalogue that cannot be used, named with the file and the problem."""


@dataclass(frozen=True)
class Language:
    """One interface language: its code, its strings and how it writes what strings cannot."""

    code: str
    locale: str
    """gettext's `Language` header (`zh_CN`): the system locale this language answers."""
    strings: MappingProxyType[str, str]
    qt_catalogue: str | None = None
    number_words: tuple[tuple[int, str], ...] = ()
    token_glosses: bool = False
    fallback: str | None = None
    menu_order: int = DEFAULT_MENU_ORDER
    shortcut: str | None = None
    path: Path = field(default=Path())

    @property
    def name(self) -> str:
        """The language's own name ("中文", "English"), as its menu entry shows it."""
        return self.strings.get("language.name", self.code)


def _number_words(text: str, path: Path) -> tuple[tuple[int, str], ...]:
    words = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        exponent, _, word = part.partition(" ")
        if not exponent.isdigit() or not word.strip():
            raise CatalogueError(f"{path.name}: X-Number-Words: {part!r} is not 'POWER WORD'")
        words.append((int(exponent), word.strip()))
    return tuple(sorted(words, reverse=True))


def read_catalogue(path: Path) -> Language:
    """The language in `path` (its code is the file's stem). Raises CatalogueError."""
    import polib  # parsing is the slow part of a start: cached reads skip it and its import

    try:
        po = polib.pofile(str(path), encoding="utf-8")
    except (OSError, ValueError, UnicodeDecodeError) as error:
        raise CatalogueError(f"{path.name}: {error}") from None
    meta = po.metadata
    strings = {entry.msgid: entry.msgstr for entry in po if entry.msgid and entry.msgstr
               and not entry.obsolete and "fuzzy" not in entry.flags}
    try:
        order = int(meta.get("X-Menu-Order", DEFAULT_MENU_ORDER))
    except ValueError:
        raise CatalogueError(f"{path.name}: X-Menu-Order must be a whole number") from None
    return Language(
        code=path.stem,
        locale=meta.get("Language", path.stem),
        strings=MappingProxyType(strings),
        qt_catalogue=meta.get("X-Qt-Catalogue") or None,
        number_words=_number_words(meta.get("X-Number-Words", ""), path),
        token_glosses=meta.get("X-Token-Glosses", "no").strip().lower() == "yes",
        fallback=meta.get("X-Fallback") or None,
        menu_order=order,
        shortcut=meta.get("X-Shortcut") or None,
        path=path,
    )


def _cache_key(path: Path) -> list[int]:
    """The catalogue's and this reader's sizes and modification times: a change to either
    makes the parsed form stale."""
    po, reader = path.stat(), Path(__file__).stat()
    return [po.st_mtime_ns, po.st_size, reader.st_mtime_ns, reader.st_size]


def read_cached(path: Path) -> Language:
    """`read_catalogue`, from the parsed form kept beside the file while the file is unchanged
    (the catalogues are read at every start). A folder that cannot be written only costs the
    parse. Raises CatalogueError."""
    cache = path.parent / CACHE_FOLDER / f"{path.stem}.json"
    try:
        key = _cache_key(path)
    except OSError:
        return read_catalogue(path)
    try:
        kept = json.loads(cache.read_text(encoding="utf-8"))
        if kept["key"] == key:
            return _language(kept["language"], path)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    found = read_catalogue(path)
    with contextlib.suppress(OSError):  # a read-only install
        _write(cache, {"key": key, "language": _fields(found)}, path.stat().st_mode & 0o666)
    return found


def _fields(found: Language) -> dict[str, object]:
    return {"locale": found.locale, "strings": dict(found.strings),
            "qt_catalogue": found.qt_catalogue, "number_words": found.number_words,
            "token_glosses": found.token_glosses, "fallback": found.fallback,
            "menu_order": found.menu_order, "shortcut": found.shortcut}


def _language(kept: dict[str, Any], path: Path) -> Language:
    return Language(code=path.stem, locale=kept["locale"],
                    strings=MappingProxyType(kept["strings"]),
                    qt_catalogue=kept["qt_catalogue"],
                    number_words=tuple((power, word) for power, word in kept["number_words"]),
                    token_glosses=kept["token_glosses"], fallback=kept["fallback"],
                    menu_order=kept["menu_order"], shortcut=kept["shortcut"], path=path)


def _write(cache: Path, content: dict[str, object], mode: int) -> None:
    """Write beside the target, then rename over it: a reader never sees half a file. It
    takes the catalogue's permissions, as Python's bytecode takes its source's."""
    cache.parent.mkdir(exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{cache.name}.", suffix=".tmp", dir=cache.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(content, stream, ensure_ascii=False)
        os.chmod(temp, mode)
        os.replace(temp, cache)
    except OSError:
        Path(temp).unlink(missing_ok=True)
        raise
