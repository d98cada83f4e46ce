"""Widgets: the main window and one module per docked panel."""
