"""Owns how a text goes into a CSV cell that a spreadsheet will open: never as a formula."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""Characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection)."""


def text_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that would start a formula gets a leading `'`.

    Token names and poll choices come from data files and scenarios, so `=HYPERLINK(...)` must
    not run when a student opens the export (OWASP CSV injection). Numbers never go through here.
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text
