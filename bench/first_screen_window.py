"""A start-up reference child: the first screen's kind of content, from the libraries alone.

The bare window (`bare_window`) shows what importing NumPy, Qt and pyqtgraph and painting an
empty window costs. The app's first screen also builds and paints a plot: a docked pyqtgraph
plot with axis titles, an image, a colour bar and two points, beside a docked page of rich
text. This window builds exactly that from the same libraries, with nothing of the app, so
its first paint is the least any app of these libraries could show that screen in: the
app's start-up minus this is what the app's own code adds (its modules, lesson data, docks,
actions and fonts). Reported beside the bare window; it judges no target.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from bench.bare_window import main

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

IMAGE_SIDE = 200
"""The image's side in pixels, as the playground's landscape is sampled."""
GUIDE_PARAGRAPHS = 8


def fill(window: QMainWindow) -> None:
    """The plot's dock and the text's, built from the libraries the bare window imported."""
    import numpy as np
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget, QTextBrowser

    pg = sys.modules["pyqtgraph"]  # imported by `bare_window.main` as the app imports it
    plot = pg.PlotWidget()
    y, x = np.mgrid[-2:2:IMAGE_SIDE * 1j, -2:2:IMAGE_SIDE * 1j]
    image = pg.ImageItem(np.cos(x) * np.sin(y))
    plot.addItem(image)
    plot.setLabel("bottom", "x₁")
    plot.setLabel("left", "x₂")
    bar = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get("viridis"))
    bar.setImageItem(image, insert_in=plot.getPlotItem())
    plot.addItem(pg.ScatterPlotItem([0.5, -1.0], [1.0, 0.2], size=12))
    guide = QTextBrowser()
    guide.setHtml("<h2>Q · K</h2>" + "<p>A paragraph of the guide's text.</p>" * GUIDE_PARAGRAPHS)
    for title, widget, area in (("plot", plot, Qt.DockWidgetArea.LeftDockWidgetArea),
                                ("guide", guide, Qt.DockWidgetArea.RightDockWidgetArea)):
        dock = QDockWidget(title)
        dock.setWidget(widget)
        window.addDockWidget(area, dock)


if __name__ == "__main__":
    sys.exit(main(fill))
