"""One module per docked panel; `registry.py` lists them for the main window."""
