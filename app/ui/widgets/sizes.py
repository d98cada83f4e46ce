"""Owns Qt's largest widget size, which PySide6 does not export."""

QWIDGETSIZE_MAX = (1 << 24) - 1
"""Qt's QWIDGETSIZE_MAX: a widget's maximum width or height when nothing bounds it."""
