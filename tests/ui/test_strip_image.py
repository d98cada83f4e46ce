"""The heatmap's picture coloured strip by strip is the picture coloured whole."""

from __future__ import annotations

import numpy as np
import pytest
from pyqtgraph.functions import ndarray_from_qimage
from PySide6 import QtGui
from PySide6.QtCore import QEvent, QObject

from app.ui.look import diverging_map
from app.ui.panels.heatmap.canvas import HeatmapCanvas
from app.ui.panels.heatmap.image import StripImage, changed_box
from app.ui.panels.heatmap.large import causal_triangle


def _coloured(item: StripImage) -> np.ndarray:
    if item._renderRequired:
        item.render()
    return np.array(ndarray_from_qimage(item.qimage))


def _item(image: np.ndarray, levels: tuple[float, float]) -> StripImage:
    item = StripImage(axisOrder="row-major")
    item.setLookupTable(diverging_map().getLookupTable(nPts=256))
    item.show_picture(image, levels)
    return item


@pytest.mark.parametrize("blanks", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
def test_a_patched_strip_equals_a_full_render(qtbot, blanks, axis) -> None:
    rng = np.random.default_rng(3)
    before = rng.normal(size=(64, 48)).astype(np.float32)
    if blanks:
        before[np.triu_indices(64, 1, 48)] = np.nan
    levels = (-2.0, 2.0)
    item = _item(before, levels)
    _coloured(item)
    after = before.copy()
    strip = (slice(None), 17) if axis else (17, slice(None))
    after[strip] = rng.normal(size=after[strip].shape) * 3
    if blanks:
        after[np.triu_indices(64, 1, 48)] = np.nan
    item.show_picture(after, levels)
    assert not item._renderRequired  # the strip was coloured into the picture shown
    assert np.array_equal(_coloured(item), _coloured(_item(after, levels)))


def test_new_levels_colour_the_whole_picture(qtbot) -> None:
    image = np.linspace(-1, 1, 64 * 64, dtype=np.float32).reshape(64, 64)
    item = _item(image, (-1.0, 1.0))
    _coloured(item)
    changed = image.copy()
    changed[5] = 0.5
    item.show_picture(changed, (-2.0, 2.0))
    assert item._renderRequired
    assert np.array_equal(_coloured(item), _coloured(_item(changed, (-2.0, 2.0))))


def test_changed_box_bounds_the_changes_and_treats_blanks_as_equal() -> None:
    old = np.zeros((6, 5))
    old[0, 0] = np.nan
    new = old.copy()
    assert changed_box(old, new) is None
    new[2, 1], new[3, 3] = 1.0, 2.0
    assert changed_box(old, new) == (slice(2, 4), slice(1, 4))


def test_the_repainted_region_covers_the_changed_strip(qtbot) -> None:
    canvas = HeatmapCanvas()
    qtbot.addWidget(canvas.graphics)
    canvas.graphics.resize(400, 400)
    canvas.graphics.show()
    qtbot.waitExposed(canvas.graphics)
    rng = np.random.default_rng(5)
    before = rng.normal(size=(64, 64)).astype(np.float32)
    canvas.set_scale(before.shape, (-2.0, 2.0), diverging_map(), 1, "")
    canvas.show_image(before, (-2.0, 2.0))
    qtbot.wait(100)  # the first picture painted
    painted = QtGui.QRegion()

    class Regions(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            nonlocal painted
            if event.type() == QEvent.Type.Paint:
                painted = painted.united(event.region())  # type: ignore[attr-defined]
            return False

    regions = Regions()
    canvas.graphics.viewport().installEventFilter(regions)
    after = before.copy()
    after[17] = -before[17]
    canvas.show_image(after, (-2.0, 2.0))
    qtbot.waitUntil(lambda: not painted.isEmpty())
    band = canvas.row_rect(17, 64)
    assert painted.subtracted(QtGui.QRegion(band)) != painted  # something of the row
    assert QtGui.QRegion(band).subtracted(painted).isEmpty()  # and all of it


def test_the_same_mask_path_is_not_set_again(qtbot, monkeypatch) -> None:
    canvas = HeatmapCanvas()
    qtbot.addWidget(canvas.graphics)
    canvas.set_mask_path(causal_triangle(64, 64))
    set_paths = []
    monkeypatch.setattr(canvas.mask_item, "setPath", set_paths.append)
    canvas.set_mask_path(causal_triangle(64, 64))
    assert set_paths == []  # a repaint of the whole triangle avoided
    canvas.set_mask_path(causal_triangle(64, 80))
    assert set_paths == [causal_triangle(64, 80)]
