"""Owns the rule for a teaching-world token's name, shared by the data loader, the editor's
reshape controls and the scenario reader: a name one of them accepts, the others accept too,
so a world read from data/ and then reshaped is saved and read back like any other."""

from __future__ import annotations

import unicodedata

MIN_TOKENS = 2
"""A score needs a query and a key that differ; one token would leave nothing to compare."""
MAX_NAME = 20
"""Characters in a token's name: longer would crowd the heatmap's axis and the match table."""
NAME_RULES = {
    "empty": "must be a non-empty name",
    "spaces": "must not start or end with a space",
    "too_long": f"must be at most {MAX_NAME} characters",
    "control": "must not hold control characters",
    "taken": "appears twice; token names must differ",
}
"""`name_problem`'s answers as a file's error says them (files are read in English)."""


def name_problem(name: object, tokens: tuple[str, ...], ignore: int | None = None
                 ) -> str | None:
    """Why `name` cannot name a token, as a string-table key suffix, or None if it can.

    `ignore` is the token being renamed (its own name does not count as taken)."""
    if not isinstance(name, str) or not name.strip():
        return "empty"
    if name != name.strip():
        return "spaces"
    if len(name) > MAX_NAME:
        return "too_long"
    if any(unicodedata.category(c)[0] == "C" for c in name):
        return "control"
    if any(other == name for i, other in enumerate(tokens) if i != ignore):
        return "taken"
    return None
