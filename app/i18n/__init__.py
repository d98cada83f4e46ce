"""Run-time language switching: one string table per language, looked up by key.

Keys instead of `self.tr()` because tr() loses its context in subclasses and a two-language
app is simpler with explicit tables (see STYLE.md). Every key used in app/ appears there as
a full string literal, so a test can find missing and unused keys.
"""

from __future__ import annotations

from collections.abc import Callable

from app.i18n import en, zh

TABLES: dict[str, dict[str, str]] = {"zh": zh.STRINGS, "en": en.STRINGS}
LANGUAGES: tuple[str, ...] = ("zh", "en")

_current = "zh"
_listeners: list[Callable[[str], None]] = []


def default_language(locale_name: str) -> str:
    """Chinese on a Chinese system, English elsewhere."""
    return "zh" if locale_name.lower().startswith("zh") else "en"


def language() -> str:
    return _current


def set_language(lang: str) -> None:
    """Switch every later `tr` call, then tell listeners so open windows retranslate."""
    global _current
    if lang not in TABLES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if lang == _current:
        return
    _current = lang
    for listener in list(_listeners):
        listener(lang)


def on_language_changed(listener: Callable[[str], None]) -> None:
    _listeners.append(listener)


def remove_listener(listener: Callable[[str], None]) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def tr(key: str, /, **values: object) -> str:
    """The current language's text for `key`, with `{name}` fields filled in."""
    text = TABLES[_current][key]
    return text.format(**values) if values else text
