"""Owns the interface languages and run-time switching: one catalogue per language in
`catalogues/` (gettext `.po`, keyed by the app's string keys), looked up by key.

Keys instead of `self.tr()` because tr() loses its context in subclasses (see STYLE.md). The
languages are data: a new `.po` file in `catalogues/` is a new language, with no list to
extend. Every key used in app/ appears as a full string literal, so a test can find missing
and unused keys. This module knows nothing of Qt; `app.ui.language` tells the widgets.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from app.i18n.catalogue import CatalogueError, Language, read_cached, read_catalogue

__all__ = ["CatalogueError", "Language", "add_catalogue", "chain", "current", "default_language",
           "forget", "get", "language", "languages", "set_language", "strings", "tr"]

CATALOGUES = Path(__file__).resolve().with_name("catalogues")
BASE_LANGUAGE = "en"
"""Where a missing string is looked up last, and the language of a system no catalogue
speaks."""

_languages: dict[str, Language] = {}
_current = ""
_lookup: tuple[Language, ...] = ()
"""The catalogues `tr` reads, in order (the current language's chain), kept for speed."""


def _registry() -> dict[str, Language]:
    if not _languages:
        for path in sorted(CATALOGUES.glob("*.po")):
            _languages[path.stem] = read_cached(path)
    return _languages


def add_catalogue(path: Path) -> Language:
    """Register the language in one more catalogue file (a translator's, or a test's)."""
    found = read_catalogue(Path(path))
    _registry()[found.code] = found
    _relink()
    return found


def forget(code: str) -> None:
    """Undo `add_catalogue` for `code`: a language it added is gone again, a bundled language
    it replaced is read from its bundled catalogue again."""
    bundled = CATALOGUES / f"{code}.po"
    if bundled.exists():
        _registry()[code] = read_catalogue(bundled)
    else:
        _registry().pop(code, None)
    _relink()


def languages() -> tuple[str, ...]:
    """Every language's code, in menu order."""
    found = _registry().values()
    return tuple(lang.code for lang in sorted(found, key=lambda lang: (lang.menu_order,
                                                                         lang.code)))


def get(code: str) -> Language:
    """The language `code`; raises ValueError naming the choices for one there is not."""
    found = _registry().get(code)
    if found is None:
        raise ValueError(f"unknown language {code!r}; choose one of {', '.join(languages())}")
    return found


def default_language(locale_name: str) -> str:
    """The language of a system locale ("zh_CN" → zh), else the base language."""
    wanted = locale_name.replace("-", "_").lower()
    by_locale = sorted(_registry().values(), key=lambda lang: -len(lang.locale))
    for lang in by_locale:
        if wanted.startswith(lang.locale.lower()) or wanted.split("_")[0] == lang.code:
            return lang.code
    return BASE_LANGUAGE


def language() -> str:
    return _current or BASE_LANGUAGE


def current() -> Language:
    return get(language())


def set_language(code: str) -> None:
    """Switch every later `tr` call. Open windows learn of it from `app.ui.language`, which
    sends Qt's LanguageChange event. Raises ValueError for a language there is not."""
    global _current
    get(code)
    _current = code
    _relink()


def _relink() -> None:
    global _lookup
    _lookup = tuple(_registry()[code] for code in chain() if code in _registry())


def chain(code: str | None = None) -> tuple[str, ...]:
    """Where a text in `code` (default: the current language) is looked for, in order: the
    language, its fallbacks, then the base language."""
    order: list[str] = []
    step: str | None = code or language()
    while step is not None and step not in order and step in _registry():
        order.append(step)
        step = _languages[step].fallback
    if BASE_LANGUAGE not in order:
        order.append(BASE_LANGUAGE)
    return tuple(order)


def strings(code: str) -> Mapping[str, str]:
    """Every string of one language's own catalogue (without its fallbacks)."""
    return get(code).strings


def tr(key: str, /, **values: object) -> str:
    """The current language's text for `key`, with `{name}` fields filled in."""
    if not _lookup:
        _relink()
    for lang in _lookup:
        text = lang.strings.get(key)
        if text is not None:
            return text.format(**values) if values else text
    raise KeyError(key)
