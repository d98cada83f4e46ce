"""Widgets that several docks share (no dock owns them)."""
