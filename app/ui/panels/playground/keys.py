"""Owns what a key pressed on the plane means: Tab / Shift+Tab / a digit (0 or Q is q) picks a
vector, an arrow key nudges it by 0.5 (with Shift by 0.1); the panel carries it out."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.ui.panels.playground.arrows import VectorId

NUDGE, FINE_NUDGE = 0.5, 0.1
NUMBER_KEYS = {getattr(Qt.Key, f"Key_{n}"): n for n in range(10)}
ARROW_STEPS: dict[int, tuple[int, int]] = {
    Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1)}


def key_action(key: int, shift: bool, order: list[VectorId], active: VectorId,
               key_count: int) -> tuple[str, object] | None:
    """("pick", vector id), ("nudge", (dx, dy)), ("none", None) for a digit past the keys,
    or None for a key the plane does not use."""
    if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
        step = -1 if key == Qt.Key.Key_Backtab else 1
        return "pick", order[(order.index(active) + step) % len(order)]
    if key in NUMBER_KEYS or key == Qt.Key.Key_Q:
        number = NUMBER_KEYS.get(key, 0)
        if number == 0:
            return "pick", ("q", 0)
        return ("pick", ("k", number - 1)) if number <= key_count else ("none", None)
    if key in ARROW_STEPS:
        size = FINE_NUDGE if shift else NUDGE
        dx, dy = ARROW_STEPS[key]
        return "nudge", (dx * size, dy * size)
    return None
