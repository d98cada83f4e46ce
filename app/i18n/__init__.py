"""Run-time language switching: one string table per language, looked up by key.

Keys instead of `self.tr()` because tr() loses its context in subclasses and a two-language
app is simpler with explicit tables (see STYLE.md). Every key used in app/ appears there as
a full string literal, so a test can find missing and unused keys.
"""

from __future__ import annotations

from app.i18n import en, zh

TABLES: dict[str, dict[str, str]] = {"zh": zh.STRINGS, "en": en.STRINGS}
LANGUAGES: tuple[str, ...] = ("zh", "en")

_current = "zh"


def default_language(locale_name: str) -> str:
    """Chinese on a Chinese system, English elsewhere."""
    return "zh" if locale_name.lower().startswith("zh") else "en"


def language() -> str:
    return _current


def set_language(lang: str) -> None:
    """Switch every later `tr` call. Open windows learn of it from `app.ui.language`, which
    sends Qt's LanguageChange event; this table itself knows nothing of Qt."""
    global _current
    if lang not in TABLES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    _current = lang


def tr(key: str, /, **values: object) -> str:
    """The current language's text for `key`, with `{name}` fields filled in."""
    text = TABLES[_current][key]
    return text.format(**values) if values else text
