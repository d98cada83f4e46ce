"""Owns what the state layer says to the user: a `Notice` is a string key and its values,
worded by the interface (`app.ui.notices.word`) in the language on screen when it is shown,
so the state layer never holds text of one language."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Term:
    """A value that is itself a string key (a scorer's name): worded with the notice."""

    key: str


@dataclass(frozen=True)
class Notice:
    """A message for the user, as a string key and the values its text is filled with."""

    key: str
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, key: str, /, **params: object) -> Notice:
        return cls(key, MappingProxyType(dict(params)))


def scorer_term(name: str) -> Term:
    """A scorer's display name, looked up when the notice is worded."""
    return Term(f"scorer.{name}")
