"""Widgets: the main window and one module per docked panel.

pyqtgraph is imported here, before any widget module reads it, in the way that spares
start-up from creating every Qt class (`pyqtgraph_import`)."""

from app.ui.pyqtgraph_import import import_pyqtgraph

import_pyqtgraph()
