"""Owns the read-only mapping whose values are worked out when first read.

A view lists every scorer's matrix, its selected row and the row's ranks, but a drag step in
most layouts reads only one scorer's: the others are computed for the panels that ask, once
per view, from the same inputs (the value read is the value a full pass would hold). The
window's panels are built the same way, when first looked up (`LazyPanels`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypeVar

Value = TypeVar("Value")


class LazyMap(Mapping[str, Value]):
    """`keys` known now; `compute(key)` runs on the first read of a key and is kept."""

    def __init__(self, keys: Iterable[str], compute: Callable[[str], Value]) -> None:
        self._keys = tuple(keys)
        self._compute = compute
        self._values: dict[str, Value] = {}

    def __getitem__(self, key: str) -> Value:
        values = self._values
        if key not in values:
            if key not in self._keys:
                raise KeyError(key)
            values[key] = self._compute(key)
        return values[key]

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def computed(self) -> dict[str, Value]:
        """The values worked out so far, in the keys' order."""
        return {key: self._values[key] for key in self._keys if key in self._values}

    def is_computed(self, key: str) -> bool:
        return key in self._values

    def __repr__(self) -> str:
        return f"LazyMap({list(self._keys)!r}, computed={list(self._values)!r})"
