"""Owns the few text rules a panel follows on the projector's stage: the least point size
fitted text may shrink to (STAGE_MIN_PX at the screen's dpi), sub- and superscripts that
stay at least that large, numbers and names a line never breaks inside, how wide wrapped
text is, and which of a panel's readable sizes suits the stage's room best."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontInfo, QGuiApplication, QTextDocument
from PySide6.QtWidgets import QLabel

from app.ui.fonts import STAGE_MIN_PX

NBSP = "\u00a0"
WORD_JOINER = "\u2060"
"""Invisible; no line may break beside it (Chinese text may otherwise break anywhere)."""
SCRIPT_SHARE = 2 / 3
"""Qt draws a <sub> or <sup> at two thirds of the surrounding font."""
STAGE_SHAPE = (16, 10)
"""The shape of the stage's room under its header (a 1024×768 or 1280×720 projector's)."""
_UNIT = re.compile(r"(?<=\d) (?=(%|[KMGTP]?i?B\b|s\b|ms\b|token))")
_TIMES = re.compile(r"(?<=\S) × (?=\S)")
_EQUALS = re.compile(r"(?<![^\s>;])([^\s<>&;]{1,6}) = (?=[−\-+]?\d)"
                     r"|(?<=\S) = (?=[−\-+]?\d)|= (?=[−\-+]?\d)")
"""A number with what it equals: a symbol of up to 6 characters before " = " ("|q|") is
held whole with it; a longer run only keeps its last character with the "=", so it still
wraps inside. Never a tag or an entity of rich text (a word joiner in one breaks it)."""
_SCRIPT = re.compile(r"<(sub|sup)>")


def least_pt(stage: bool, desk_pt: float) -> float:
    """The smallest point size fitted text (a heatmap cell, a readout) may take: `desk_pt`
    at the desk; on the stage STAGE_MIN_PX logical pixels, rounded up to half a point."""
    if not stage:
        return desk_pt
    screen = QGuiApplication.primaryScreen()
    dpi = screen.logicalDotsPerInchY() if screen is not None else 96.0
    return max(desk_pt, math.ceil(STAGE_MIN_PX * 72.0 / dpi * 2) / 2)


def font_px(font: QFont) -> float:
    """A font's size in logical pixels, as it is drawn."""
    return float(QFontInfo(font).pixelSize())


def legible_scripts(html: str, font: QFont, stage: bool) -> str:
    """On the stage, every <sub>/<sup> of `html` (rich text shown in `font`) enlarged so that
    at two thirds it is still STAGE_MIN_PX: "d<sub>h</sub>" at 20 px would draw its h at 13."""
    if not stage or "<su" not in html:
        return html
    size = max(font_px(font), math.ceil(STAGE_MIN_PX / SCRIPT_SHARE))
    return _SCRIPT.sub(lambda m: f'<{m.group(1)} style="font-size:{size:g}px">', html)


def stage_shaped(sizes: Iterable[QSize]) -> QSize:
    """Of a panel's possible readable sizes (its text wrapped at several widths), the one
    closest to the stage's room, which is wider than tall (STAGE_SHAPE)."""
    return min(sizes, key=lambda size: max(size.width() / STAGE_SHAPE[0],
                                           size.height() / STAGE_SHAPE[1]))


def least_width(label: QLabel, most: int) -> int:
    """How wide `label` is with its text wrapped at `most` pixels: narrower where its lines
    are shorter, wider where a table or a no-break run cannot be wrapped."""
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.setDefaultFont(label.font())
    if label.textFormat() == Qt.TextFormat.PlainText:
        document.setPlainText(label.text())
    else:
        document.setHtml(label.text())
    document.setTextWidth(most)
    margins = label.contentsMargins()
    return math.ceil(document.idealWidth()) + margins.left() + margins.right() + 2 * (
        label.margin())


def unbroken(text: str) -> str:
    """A number kept with its unit ("56.5 %", "8.0 GiB") and with what it equals ("|q| =
    3.61"), a shape kept whole ("T × T × dₐ"): the spaces inside become no-break spaces, so
    a wrapped line never splits them."""
    return _EQUALS.sub(_held_equals, _TIMES.sub(f"{NBSP}×{NBSP}", _UNIT.sub(NBSP, text)))


def _held_equals(match: re.Match[str]) -> str:
    """"|q| = 3.61" held whole. A no-break space alone still lets a line break after a
    character such as "|" (Unicode allows a break after it, before any space), so a word
    joiner goes before it, and between the characters of a short symbol."""
    symbol, text = match.group(1), match.group(0)
    if symbol is not None:
        return f"{WORD_JOINER.join(symbol)}{WORD_JOINER}{NBSP}={NBSP}"
    return f"{WORD_JOINER}{NBSP}={NBSP}" if text.startswith(" ") else f"={NBSP}"


SEARCH_BY_PIECES = 16
"""`kept_whole` looks the text's pieces up among the names once they are at most this many
times as many as the names: a name searched for reads the text (a match table's reasons run
to thousands of characters), a piece looked up reads one hash."""


def kept_whole(text: str, names: Iterable[str]) -> str:
    """`text` with each of `names` (tokens) held together by word joiners, so a wrapped
    line never breaks a name between its characters ("给/了"): longer names first, names
    of one length in the order given."""
    first, lengths = _name_index(tuple(names))
    found: Iterable[str] = first
    if lengths and len(lengths) * len(text) <= SEARCH_BY_PIECES * len(first):  # an import's
        # thousands: joiners only split names, never make one, so those met are in the text
        found = {text[at:at + size] for size in lengths
                 for at in range(len(text) - size + 1)}.intersection(first)
    for name in sorted((name for name in found if len(name) > 1),
                       key=lambda name: (-len(name), first[name])):
        if name in text:
            text = text.replace(name, WORD_JOINER.join(name))
    return text


@functools.lru_cache(maxsize=4)
def _name_index(names: tuple[str, ...]) -> tuple[dict[str, int], tuple[int, ...]]:
    """Each name's first place, and the names' lengths (none when a name holds a word
    joiner: the text must then be searched name by name). Kept between calls, and made by
    loops inside Python's builtins: an import has 8,192 names, read at every drag step."""
    count = len(names)
    first = dict(zip(reversed(names), range(count - 1, -1, -1), strict=True))
    joined = WORD_JOINER in "".join(names)
    return first, () if joined else tuple(sorted(set(map(len, first))))
