"""The stage's rules for where a wrapped line may break: never inside a number with its unit,
a value with what it equals, or a shape."""

from __future__ import annotations

import math

import pytest
from PySide6.QtGui import QFont, QFontMetricsF, QTextLayout, QTextOption

from app.ui.widgets.stage_text import NBSP, WORD_JOINER, kept_whole, unbroken


@pytest.mark.parametrize(("text", "kept"), [
    ("Query q = (2, 3)   |q| = 3.61",
     WORD_JOINER.join("|q|") + WORD_JOINER + NBSP + "=" + NBSP + "3.61"),
    ("q·k = −4", WORD_JOINER.join("q·k") + WORD_JOINER + NBSP + "=" + NBSP + "−4"),
    ("= 4.4 in all", "=" + NBSP + "4.4"),
    ("56.5 % of it", "56.5" + NBSP + "%"),
    ("T × T × dₐ", "T" + NBSP + "×" + NBSP + "T" + NBSP + "×" + NBSP + "dₐ"),
])
def test_a_number_stays_with_what_it_belongs_to(text: str, kept: str) -> None:
    assert kept in unbroken(text)


def test_a_long_run_before_the_equals_still_wraps_inside() -> None:
    assert unbroken("q「给了」·k「给了」 = −2.40") == (
        "q「给了」·k「给了」" + WORD_JOINER + NBSP + "=" + NBSP + "−2.40")


def test_rich_text_keeps_its_markup() -> None:
    text = "<span style='color:#D55E00'>q·k</span> = 10 &amp; x = 3"
    assert unbroken(text).replace(WORD_JOINER, "").replace(NBSP, " ") == text
    assert "<span style='color:#D55E00'>" in unbroken(text)


def test_words_still_break_where_no_number_follows() -> None:
    assert unbroken("the class = everyone") == "the class = everyone"


def test_qt_never_wraps_a_value_away_from_what_it_equals(qapp) -> None:
    """Qt's line breaker, not only the string: "|" allows a break after it, even before a
    no-break space, so "|q|" once ended one line and "= 3.61" began the next."""
    text = unbroken("query q = (2, 3)      |q| = 3.61")
    font = QFont()
    whole = math.ceil(QFontMetricsF(font).horizontalAdvance("|q| = 3.61"))
    for width in range(whole + 2, 400, 7):  # wide enough for the value with what it equals
        layout = QTextLayout(text, font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(option)
        layout.beginLayout()
        lines = []
        while (line := layout.createLine()).isValid():
            line.setLineWidth(width)
            shown = text[line.textStart():line.textStart() + line.textLength()]
            lines.append(shown.replace(WORD_JOINER, ""))
        layout.endLayout()
        assert any("|q|" in line and "3.61" in line for line in lines), (width, lines)


def test_names_are_kept_whole_among_thousands_as_among_a_few() -> None:
    """An import's thousands of names are looked up by the text's own pieces: the names it
    holds are joined exactly as a search name by name joins them, longest first."""
    names = (*(f"t{i}" for i in range(3000)), "给了", "苹果", "给了苹果", "a b", "x")

    def one_by_one(text: str) -> str:
        for name in sorted({n for n in names if len(n) > 1}, key=len, reverse=True):
            text = text.replace(name, WORD_JOINER.join(name))
        return text

    for text in ("t12 · t1299 = 3.5", "给了苹果 and 给了 t7", "a b t2999t3", "nothing here", ""):
        assert kept_whole(text, names) == one_by_one(text)
    assert WORD_JOINER.join("t1299") in kept_whole("q · t1299", names)
