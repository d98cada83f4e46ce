"""The stage's rules for where a wrapped line may break: never inside a number with its unit,
a value with what it equals, or a shape."""

from __future__ import annotations

import pytest

from app.ui.widgets.stage_text import NBSP, unbroken


@pytest.mark.parametrize(("text", "kept"), [
    ("Query q = (2, 3)   |q| = 3.61", "|q|" + NBSP + "=" + NBSP + "3.61"),
    ("q·k = −4", "q·k" + NBSP + "=" + NBSP + "−4"),
    ("= 4.4 in all", "=" + NBSP + "4.4"),
    ("56.5 % of it", "56.5" + NBSP + "%"),
    ("T × T × dₐ", "T" + NBSP + "×" + NBSP + "T" + NBSP + "×" + NBSP + "dₐ"),
])
def test_a_number_stays_with_what_it_belongs_to(text: str, kept: str) -> None:
    assert kept in unbroken(text)


def test_words_still_break_where_no_number_follows() -> None:
    assert unbroken("the class = everyone") == "the class = everyone"
