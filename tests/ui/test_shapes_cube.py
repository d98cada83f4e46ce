"""The shapes panel's square beside the cube through real widgets: one T slider and a dₐ box
drive both, the bytes come from app/model/memory.py, and the ratio is computed from them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.i18n import tr
from app.model.memory import additive_intermediate_bytes, score_matrix_bytes
from app.ui.format import format_bytes, format_number
from app.ui.panels.shapes.cube import MAX_SHEETS
from app.ui.panels.shapes.panel import ShapesPanel


@pytest.fixture
def panel(open_panel):
    return open_panel(ShapesPanel, (1200, 700))


def slide_to(qtbot, panel: ShapesPanel, T: int) -> None:
    panel.slider.setFocus()
    qtbot.keyClick(panel.slider, Qt.Key.Key_Home)
    while panel.T < T:
        qtbot.keyClick(panel.slider, Qt.Key.Key_Right)
    assert panel.T == T


def type_d_a(qtbot, panel: ShapesPanel, d_a: int) -> None:
    panel.d_a_spin.setFocus()
    panel.d_a_spin.selectAll()
    qtbot.keyClicks(panel.d_a_spin, str(d_a))
    qtbot.keyClick(panel.d_a_spin, Qt.Key.Key_Return)


def test_the_t_slider_moves_the_square_and_the_cube_together(qtbot, panel):
    item = panel.anchor.dtype_bytes
    slide_to(qtbot, panel, 4096)
    labels = panel.cube.labels
    assert labels.square_size == format_bytes(score_matrix_bytes(4096, item)) == "32 MiB"
    assert labels.cube_size == format_bytes(
        additive_intermediate_bytes(4096, panel.anchor.head_dim, item)) == "8.0 GiB"
    assert labels.times == f"× {format_number(panel.anchor.head_dim)}"
    assert panel.cube_caption.text() == tr(
        "shapes.cube_caption", ratio=format_number(panel.anchor.head_dim),
        additive="8.0 GiB", scores="32 MiB")


def test_d_a_sets_the_cubes_depth_its_bytes_and_the_ratio(qtbot, panel):
    slide_to(qtbot, panel, 1024)
    type_d_a(qtbot, panel, 64)
    assert panel.d_a == 64
    additive = additive_intermediate_bytes(1024, 64, panel.itemsize)
    assert panel.numbers["additive"][1].text() == format_bytes(additive)
    assert panel.cube.labels.cube_size == format_bytes(additive)
    assert panel.cube.labels.times == "× 64" and panel.cube.labels.depth == "dₐ = 64"
    assert additive // score_matrix_bytes(1024, panel.itemsize) == 64
    assert panel.cube.sheets == min(64, MAX_SHEETS)
    type_d_a(qtbot, panel, 2)
    assert panel.cube.sheets == 2  # a thin cube looks thin


def test_the_square_and_the_cubes_face_are_drawn_the_same_size(panel):
    square, front, depth = panel.cube.geometry_of()
    assert square.size() == front.size() and square.width() > 20
    assert depth.x() > 0 and depth.y() < 0  # the depth goes back and up
    assert front.right() + depth.x() <= panel.cube.width()


def test_the_picture_of_the_selected_scorer_comes_first(qtbot, panel):
    document = panel.document
    assert document.state.scorer != "additive"
    assert panel.picture.indexOf(panel.qk_box) == 0
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_scorer("additive")
    assert panel.picture.indexOf(panel.cube_box) == 0
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_scorer("dot")
    assert panel.picture.indexOf(panel.qk_box) == 0
