"""How numbers and token names are written on screen: one place, so every panel shows the
same precision, and a token name of any length takes the same bounded room everywhere."""

from __future__ import annotations

import functools
import html
import math
import re
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from typing import cast

from app.i18n import current, tr
from app.model.decoder_flow import Shape
from app.model.lesson.data import LessonData
from app.model.lesson.figures import Figure, decimals_of
from app.model.modelconfig import Claim
from app.model.scoring import Undefined

UNDEFINED_TEXT = "—"
ROUNDING_NOISE = 1e-12
"""Below this a score is floating-point residue (0.1 + 0.2 − 0.3), not a value a student made:
shown as 0 so every panel agrees with the heatmap."""
BYTE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
SIZE_UNITS = ("KiB", "MiB", "GiB")
"""Units a lesson figure is printed in (its value is already in that unit)."""


def format_score(value: float | Undefined | None, decimals: int = 2) -> str:
    """Fixed decimals for classroom-sized numbers, scientific notation for huge or tiny ones."""
    if value is None or isinstance(value, Undefined):
        return UNDEFINED_TEXT
    value = float(value)
    if not math.isfinite(value):
        return "−∞" if value < 0 else "∞"
    magnitude = abs(value)
    if magnitude < ROUNDING_NOISE:
        value = magnitude = 0.0
    if magnitude >= 1e5 or (0 < magnitude < 10 ** -decimals / 2):
        text = f"{value:.{max(decimals, 1)}e}"
    else:
        text = f"{value:.{decimals}f}"
        if text.startswith("-") and float(text) == 0:
            text = text[1:]
    return text.replace("-", "−")


APART_DECIMALS = 4
"""The most decimals `format_apart` gives two different numbers so that they read apart."""


def as_factor(text: str) -> str:
    """A printed number that follows × : a negative one in parentheses, "× (−0.992)", as
    the term-by-term sums write their operands (× −0.992 reads as a subtraction)."""
    return f"({text})" if text.startswith(("−", "-")) else text


def format_apart(a: float, b: float, decimals: int = 2) -> tuple[str, str]:
    """Two numbers a sentence compares ("2.19 < 2.26"), with a decimal more each time they
    would print alike though they differ: "2.19 < 2.19" reads as a mistake."""
    for places in range(decimals, APART_DECIMALS + 1):
        texts = format_score(a, places), format_score(b, places)
        if texts[0] != texts[1]:
            return texts
    return format_score(a, decimals), format_score(b, decimals)


def format_percent(weight: float, decimals: int = 1) -> str:
    """A softmax weight (0..1) as a percentage."""
    return f"{100 * weight:.{decimals}f} %"


def format_bytes(count: int) -> str:
    """Powers of 1024 with the IEC unit: 33554432 → "32 MiB", 8589934592 → "8.0 GiB"."""
    value, unit = float(count), 0
    while value >= 1024 and unit < len(BYTE_UNITS) - 1:
        value /= 1024
        unit += 1
    if unit == 0:
        return f"{count:,} B"
    decimals = 0 if value >= 100 or (value >= 10 and value.is_integer()) else 1
    return f"{value:,.{decimals}f} {BYTE_UNITS[unit]}"


def plain_tip(text: str) -> str:
    """A tooltip that shows `text` literally: Qt reads a tooltip as rich text when it looks like
    markup, so a token named `<img src=…>` from a data file would otherwise load a local file."""
    return "<p>" + html.escape(text).replace("\n", "<br>") + "</p>"


def _rounded(value: float, places: int) -> str:
    """Half-up rounding of the shortest decimal form, as a reader rounds what they see."""
    step = Decimal(1).scaleb(-places)
    text = str(Decimal(repr(float(value))).quantize(step, rounding=ROUND_HALF_UP))
    if text.startswith("-") and Decimal(text) == 0:
        text = text[1:]
    return text


def format_number(value: float, places: int = 0) -> str:
    """Fixed decimals, thousands separators, a real minus sign."""
    text = _rounded(value, places)
    whole, _, fraction = text.lstrip("-").partition(".")
    grouped = f"{int(whole):,}" + (f".{fraction}" if fraction else "")
    return ("−" if text.startswith("-") else "") + grouped


PAIRS_IN_WORDS = 1e8
"""A count of pairs this large is written in the language's own number words, if it has
them (68,719,476,736 → 687.2 亿): a row of eleven digits is not read aloud in class."""


def format_in_words(value: float, significant: int = 2,
                    words: tuple[tuple[int, str], ...] | None = None) -> str | None:
    """`value` in the number words of the language on screen (or `words`), with
    `significant` digits: a Chinese reader says 4.9 亿, not 4.9 × 10⁸. None for a language
    without number words, or a value below its smallest."""
    magnitude = abs(value)
    for exponent, unit in current().number_words if words is None else words:
        if magnitude >= 10 ** exponent:
            scaled = value / 10 ** exponent
            places = max(significant - len(str(int(abs(scaled)))), 0)
            text = format_number(scaled, places)
            if places and len(text.lstrip("−").split(".")[0]) > significant - places:
                text = format_number(scaled, places - 1)  # 9.96 rounds to 10: keep 2 digits
            return f"{text} {unit}"
    return None


def _scientific(value: float, places: int) -> str:
    if words := format_in_words(value, places + 1):
        return words
    mantissa, exponent = f"{value:.{places}e}".split("e")
    mantissa = mantissa.replace("-", "−")
    if int(exponent) < 0:  # the bundled font has no superscript minus
        return f"{mantissa}e−{-int(exponent)}"
    superscript = str(int(exponent)).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mantissa} × 10{superscript}"


def _one(value: float, published: str, unit: str) -> str:
    places, scientific = decimals_of(published)
    if scientific:
        return _scientific(float(value), places)
    finer = Decimal(_rounded(value, places + 2))
    if unit in SIZE_UNITS and Decimal(_rounded(value, places)) != finer:
        places += 2  # the data changed: keep the precision the new value needs
    if unit == "pairs" and abs(value) >= PAIRS_IN_WORDS and (words := format_in_words(value, 4)):
        return words
    text = format_number(float(value), places)
    if unit == "pct":
        return f"{text} %"
    if unit in (*SIZE_UNITS, "B"):
        return f"{text} {unit}"
    return text


def format_figure(figure: Figure) -> str:
    """A figure as the lesson prints it, from its computed value."""
    value, published = figure.value, figure.published
    # the comparison says the value's shape (see `Figure.matches`)
    if figure.comparison in ("set", "order"):
        return tr("timeline.sep").join(str(name) for name in cast("tuple[str, ...]", value))
    if isinstance(published, tuple):
        values = tuple(cast("tuple[float, ...]", value))
        shown = [_one(v, p, "") for v, p in zip(values, published, strict=False)]
        suffix = " %" if figure.unit == "pct" else ""
        return " / ".join(f"{s}{suffix}" for s in shown) if suffix else ", ".join(shown)
    return _one(cast(float, value), published, figure.unit)


def format_claim(claim: Claim) -> str:
    """A reported value with its unit, at the precision it was reported."""
    text = repr(float(claim.value))
    places = len(text.split(".")[1]) if "." in text and not text.endswith(".0") else 0
    number = format_number(claim.value, places)
    if claim.unit == "pct":
        return f"{number} %"
    if claim.unit in ("B", "s"):
        return f"{number} {claim.unit}"
    return number


def format_length_ratio(ratio: float) -> str:
    """One decimal, or two when one would round a real difference away (1.04 → "1.04")."""
    return format_score(ratio, 1 if ratio >= 1.1 else 2)


def format_times(ratio: float) -> str:
    """How many times slower or larger: "12.3×", two decimals below ten."""
    return f"{format_number(ratio, 1 if ratio >= 10 else 2)}×"


def format_seconds(seconds: float) -> str:
    """A measured duration: milliseconds below a second."""
    if seconds < 1:
        return f"{format_number(seconds * 1000, 1)} ms"
    return f"{format_number(seconds, 2)} s"


def format_shape(shape: Shape) -> str:
    """(T, 24, 256) → "T × 24 × 256", numbers with thousands separators."""
    return " × ".join(d if isinstance(d, str) else format_number(d) for d in shape)


def token_glosses(data: LessonData, world: str) -> dict[str, str]:
    """Each token of the lesson's worlds with its English gloss from the data files; none in
    the imported world, whose tokens are a model's even when one is spelled like a lesson's."""
    if world == "imported":
        return {}
    dialogue, teaching = data.dialogue, data.teaching
    pairs = [(dialogue.query_token, dialogue.query_gloss),
             *zip(dialogue.key_tokens, dialogue.key_glosses, strict=True),
             *zip(teaching.tokens, teaching.glosses, strict=True)]
    return dict(pairs)


NAME_ROOM = 24
"""Columns a token name takes in a label at most (a CJK character counts two): the lesson's
names (at most 20 characters) show whole; an imported tokenizer's piece of up to 200
characters would otherwise make a panel, and so the window, thousands of pixels wide."""
_LINE_BREAK = re.compile("\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
ELLIPSIS = "…"


def _width(char: str) -> int:
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def _fit(text: str, columns: int) -> str:
    """The longest start of `text` that takes at most `columns` columns."""
    used = 0
    for i, char in enumerate(text):
        used += _width(char)
        if used > columns:
            return text[:i]
    return text


NAMES_KEPT = 8192
"""Token names whose shown form is remembered: every refresh shows the same names again
(a drag step wrote each of the lesson's a dozen times), and an import has up to 4,096."""


@functools.lru_cache(maxsize=NAMES_KEPT)
def one_line_name(name: str) -> str:
    """A token name on one line: each line break shown as ⏎, other control characters as
    spaces, so a newline in a name never adds a line to a label or a table row."""
    text = _LINE_BREAK.sub("⏎", name)
    return "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)


@functools.lru_cache(maxsize=NAMES_KEPT)
def shown_name(name: str, room: int = NAME_ROOM, keep_end: bool = True) -> str:
    """A token name as every label shows it: one line (`one_line_name`) of at most `room`
    columns, a longer one cut in the middle so both its start and its end stay readable
    (`keep_end=False`: cut at the end, where a number beside it tells names apart). The
    label then carries the whole name in its tooltip (`name_tip`)."""
    text = one_line_name(name)
    if _fit(text, room) == text:
        return text
    budget = room - 1  # the ellipsis takes one column
    head = _fit(text, (budget + 1) // 2 if keep_end else budget)
    tail = _fit(text[len(head):][::-1], budget - sum(map(_width, head)))[::-1]
    return head + ELLIPSIS + tail


def name_tip(*names: str) -> str:
    """The tooltip of a label that names these tokens: the whole names, one a line, when a
    label had to shorten one of them (`shown_name`); empty when every name shows whole."""
    cut = [one_line_name(name) for name in names if shown_name(name) != one_line_name(name)]
    return plain_tip("\n".join(dict.fromkeys(cut))) if cut else ""


def with_gloss(name: str, glosses: dict[str, str]) -> str:
    """A token as a reader of the current language needs it: an English reader gets the
    meaning beside the Chinese word ("给了 (gave)"); a Chinese reader, the word alone. The
    name is shown in its bounded room (`shown_name`)."""
    gloss = glosses.get(name)
    shown = shown_name(name)
    return f"{shown} ({gloss})" if gloss and current().token_glosses else shown


_SYMBOL = re.compile(r"(?<![A-Za-z])([qk])(?![A-Za-z])")


def pair_symbol(symbol: str, token: str) -> str:
    """A vector named by its token as the language writes it: q「给了」 in Chinese, q[给了] in
    English; never q_给了, whose underscore the class would read as a character."""
    return tr("format.pair_symbol", symbol=symbol, token=token)


def pair_formula(formula: str, query: str, key: str) -> str:
    """The scorer's formula with the tokens filled in: "q·k" → "q「给了」·k「苹果」"."""
    return _SYMBOL.sub(lambda m: pair_symbol(m.group(1), query if m.group(1) == "q" else key),
                       formula)
