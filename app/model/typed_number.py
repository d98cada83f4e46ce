"""Owns reading a number a student typed: one rule for every box, so no box reads "1,5" as 15
or "0x10" as 10, and each refusal can say what was wrong.

Students type with a Chinese input method, so full-width digits and signs ("１．５", "－２")
and the ideographic full stop ("1。5") are read as their ASCII forms, and a decimal comma
("1,5") as a point. What is refused, and why:

- a comma that could be a thousands separator ("1,500": 1.5 or 1500?) and text with both
  a comma and a point ("1,500.2", "1.500,2"): the two conventions disagree, so the student
  is asked to write a point and no separators. A whole-number box reads commas in groups of
  three as thousands ("4,096"), the way it shows its own value;
- hexadecimal ("0x10"), letters, "nan" and "inf", several numbers in one box, a number
  outside the box's range (or too large for a float), and a fraction in a whole-number box.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

PLAIN = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
"""A number written the one way Python and the boxes both read."""
HEX = re.compile(r"[+-]?0[xX]")
GROUPED = re.compile(r"[+-]?[1-9]\d{0,2}(,\d{3})+(\.\d*)?")
"""Thousands in groups of three, as a whole-number box shows them ("4,096")."""
NUMBERISH = re.compile(r"[+-]?[\d.,]+([eE][+-]?\d+)?")
"""One of several numbers in a pasted text, in any form this module reads."""
SEPARATORS = re.compile(r"[\s;、]+|,\s+")
"""Between numbers in pasted text: spaces, tabs, semicolons, "、", or a comma and a space."""
SIGNS = str.maketrans({"−": "-", "‒": "-", "–": "-", "。": ".", "\uFE52": "."})
"""What NFKC leaves alone but a student's keyboard types for a minus sign or a point."""


@dataclass(frozen=True)
class Reading:
    """What a typed text says: a `value`, or a `problem` (then `value` is None).

    `reread` is True when the text was read in another form than it was typed (a decimal
    comma, full-width characters), so the box can say what it took. `parts` are the
    numbers of a text that held several; `meanings` the two values an ambiguous comma
    could stand for.
    """

    value: float | None = None
    problem: str | None = None
    reread: bool = False
    parts: tuple[str, ...] = ()
    meanings: tuple[float, float] | None = None


def normalised(text: str) -> str:
    """Full-width digits, signs and points as ASCII, without the spaces around them."""
    return unicodedata.normalize("NFKC", text).translate(SIGNS).strip()


def split_numbers(text: str) -> tuple[str, ...]:
    """The numbers in a pasted text, as typed: "1.5, 2.5  3.5" → three parts. A text with
    commas and no point or space between numbers ("1,2,3") is a list too."""
    plain = normalised(text)
    parts = tuple(part for part in SEPARATORS.split(plain) if part)
    if len(parts) == 1 and plain.count(",") > 1 and "." not in plain \
            and not GROUPED.fullmatch(plain):
        parts = tuple(part for part in plain.split(",") if part)
    return parts


def read_number(text: str, low: float, high: float, whole: bool = False) -> Reading:
    """The number in `text` if it is one number from `low` to `high` (a whole one when
    `whole`), else the problem with it."""
    plain = normalised(text)
    if not plain:
        return Reading(problem="empty")
    if HEX.match(plain):
        return Reading(problem="hex")
    parts = split_numbers(text)
    if len(parts) > 1:
        numbers = any(NUMBERISH.fullmatch(part) for part in parts)  # a row with a slip
        return Reading(problem="several" if numbers else "not_number", parts=parts)
    reread = plain != text.strip().replace("−", "-")  # the app's own minus sign is plain
    if "," in plain:
        grouped = GROUPED.fullmatch(plain) is not None
        whole_part, _, fraction = plain.partition(",")
        if whole and grouped:
            plain = plain.replace(",", "")
        elif grouped and fraction.isdigit():
            return Reading(problem="ambiguous", meanings=(
                float(f"{whole_part}.{fraction}"), float(whole_part + fraction)))
        elif grouped:
            return Reading(problem="grouped")
        elif "." in plain:
            return Reading(problem="mixed")
        else:
            plain, reread = f"{whole_part}.{fraction}", True
    if not PLAIN.fullmatch(plain):
        return Reading(problem="not_number")
    value = float(plain)
    if whole and math.isfinite(value) and not value.is_integer():
        return Reading(problem="whole")
    if not math.isfinite(value) or not low <= value <= high:
        return Reading(problem="range")
    return Reading(value=value, reread=reread)
