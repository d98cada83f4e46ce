"""Owns View → Language: one entry per catalogue, in the language's own name, with the keys
its catalogue gives it (`X-Shortcut`)."""

from __future__ import annotations

from app import i18n
from app.ui.actions.spec import ActionSpec
from app.ui.language import choose_language


def _spec(language: i18n.Language) -> ActionSpec:
    code, name = language.code, language.name  # its own name, whatever language is on
    return ActionSpec(f"lang_{code}", lambda: name, lambda _=False: choose_language(code),
                      (language.shortcut,) if language.shortcut else (),
                      menu="view.language", checkable=True, group="language",
                      checked=lambda: i18n.language() == code)


def language_specs() -> list[ActionSpec]:
    return [_spec(i18n.get(code)) for code in i18n.languages()]
