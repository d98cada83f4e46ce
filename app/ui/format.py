"""How numbers are written on screen: one place, so every panel shows the same precision."""

from __future__ import annotations

import html
import math

from app.model.scoring import Undefined

UNDEFINED_TEXT = "—"
ROUNDING_NOISE = 1e-12
"""Below this a score is floating-point residue (0.1 + 0.2 − 0.3), not a value a student made:
shown as 0 so every panel agrees with the heatmap."""
BYTE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


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
