"""The four landscapes through real widgets: one image per scorer whose pixels are that
scorer's score at the pixel's place, −distance on a one-sided scale, q and the keys marked,
the plots filling their boxes, a page that offers the 2-D sample in the 4-D world."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from app.i18n import tr
from app.model.landscape import compared_shapes
from app.model.scoring import score_pair
from app.model.view import scorer_params
from app.ui.look import landscape_map
from app.ui.panels.landscapes.panel import LandscapesPanel, best_plan


@pytest.fixture
def panel(open_2d_panel):
    return open_2d_panel(LandscapesPanel, (900, 420))


def lut(cmap) -> np.ndarray:
    return cmap.getLookupTable(nPts=16)


def test_four_images_hold_each_scorers_own_scores_where_they_are_drawn(panel):
    document = panel.document
    view = document.view
    params = scorer_params(document.state, document.data)
    assert list(panel.plots) == list(compared_shapes())
    rng = np.random.default_rng(3)
    for name, plot in panel.plots.items():
        image = plot.image
        values = np.asarray(image.image)
        assert values.ndim == 2 and values.size > 1000, name
        for _ in range(10):
            iy, ix = int(rng.integers(values.shape[0])), int(rng.integers(values.shape[1]))
            where = image.mapToView(QPointF(ix + 0.5, iy + 0.5))  # the pixel's centre
            point = np.array([where.x(), where.y()])
            expected = score_pair(name, view.q[0], point, params)
            assert values[iy, ix] == pytest.approx(expected, rel=1e-9, abs=1e-9), (name, point)


def test_negative_distance_uses_the_one_sided_scale_and_the_rest_diverge(panel):
    for name, plot in panel.plots.items():
        land = plot.shown_landscape()
        low, high = plot.image.getLevels()
        if name == "neg_euclidean":
            assert np.array_equal(lut(plot.image.getColorMap()), lut(landscape_map(False)))
            assert high <= 0 and low == pytest.approx(float(land.values.min()))
        else:
            assert np.array_equal(lut(plot.image.getColorMap()), lut(landscape_map(True)))
            assert low == -high == pytest.approx(-land.limit)


def test_q_and_the_keys_are_marked_on_every_plot_and_follow_an_edit(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", 0, [-1.0, 2.5])
    view = document.view
    for plot in panel.plots.values():
        xs, ys = plot.q_shaft.getData()
        assert (xs[-1], ys[-1]) == (-1.0, 2.5)
        assert plot.q_head.pos() == QPointF(-1.0, 2.5)
        assert np.allclose([dot.point for dot in plot.dots if dot.isVisible()], view.k)
        assert np.array_equal(plot.image.image, plot.shown_landscape().values)


def test_each_plot_is_filled_by_its_landscape(panel):
    for name, plot in panel.plots.items():
        box = plot.plot.vb.viewRect()
        covered = plot.image.mapRectToView(plot.image.boundingRect())
        assert covered.contains(box), (name, covered, box)


def test_each_landscape_says_what_its_contour_shape_means(qtbot, panel):
    from app.ui.language import apply_language

    captions = {name: plot.caption.text() for name, plot in panel.plots.items()}
    assert captions == {name: tr(f"landscapes.shape.{name}") for name in compared_shapes()}
    assert "q" in captions["dot"] and "matmul" in captions["dot"]
    apply_language("zh")
    qtbot.waitUntil(lambda: "矩阵乘法" in panel.plots["dot"].caption.text())
    assert "圆" in panel.plots["neg_euclidean"].caption.text()


def test_the_four_world_shows_a_hint_and_a_way_back(panel, world_hint_round_trip):
    world_hint_round_trip(panel, "teaching", "dialogue")


@pytest.mark.parametrize(("size", "columns"), [((1600, 420), 4), ((300, 1200), 1),
                                               ((700, 700), 2)])
def test_the_plots_are_arranged_for_the_docks_shape(size, columns):
    def line(_width: float) -> float:
        return 30.0

    assert best_plan(*size, line, line)[0] == columns


def test_a_short_dock_arranges_four_in_a_row(qtbot, panel):
    panel.resize(1400, 380)
    qtbot.waitUntil(lambda: panel._columns == 4)
    rows = {panel._grid.getItemPosition(panel._grid.indexOf(p.graphics))[0]
            for p in panel.plots.values()}
    assert len(rows) == 1
    panel.resize(300, 1100)
    qtbot.waitUntil(lambda: panel._columns == 1)
    columns = {panel._grid.getItemPosition(panel._grid.indexOf(p.graphics))[1]
               for p in panel.plots.values()}
    assert columns == {0}


def test_a_drag_moves_the_colours_and_the_contours_come_back_on_release(qtbot, panel):
    """Four sets of labelled contours per drag step would cost more than the frame: during
    a drag the colours follow at once and the contour lines wait for the release."""
    document = panel.document
    document.begin_drag()
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", 0, [1.0, -2.0])
    for plot in panel.plots.values():
        assert not plot.iso.isVisible()
        assert np.array_equal(plot.image.image, plot.shown_landscape().values)
    with qtbot.waitSignal(document.gesture_finished, timeout=2000):
        document.end_drag()
    for name, plot in panel.plots.items():
        assert plot.iso.isVisible(), name
        xs, _ys = plot.iso.getData()
        assert xs is not None and len(xs) > 0, name
        assert len(xs) == 2 * len(plot.shown_landscape().iso.segments)


def test_a_dock_too_short_for_captions_keeps_the_plots_and_tips_the_captions(qtbot, panel):
    panel.resize(460, 200)
    qtbot.waitUntil(lambda: panel.plots["dot"].caption.isHidden())
    plot = panel.plots["dot"]
    assert plot.graphics.toolTip() == plot.caption.text()
    panel.resize(900, 600)
    qtbot.waitUntil(lambda: not panel.plots["dot"].caption.isHidden())
    assert plot.graphics.toolTip() == ""


def test_the_q_length_buttons_stretch_q_in_one_undo_step_and_every_map_follows(qtbot, panel):
    """"Make q twice as long": ×2 doubles q along its own direction as one undo step; then no
    point of the cosine map changes while every point of the dot product's map doubles."""
    from PySide6.QtCore import Qt

    document = panel.document
    control = panel.q_length
    lesson = document.data.dialogue.q
    assert control.buttons[1.0].isChecked() and not control.buttons[2.0].isChecked()

    def maps() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        shown = {name: plot.shown_landscape() for name, plot in panel.plots.items()}
        return {name: (land.xs, land.ys, np.asarray(panel.plots[name].image.image))
                for name, land in shown.items()}

    before, steps = maps(), document.undo_stack.count()
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(control.buttons[2.0], Qt.MouseButton.LeftButton)
    assert np.array_equal(document.state.dialogue_q, 2 * lesson)
    assert document.undo_stack.count() == steps + 1
    assert control.buttons[2.0].isChecked() and not control.buttons[1.0].isChecked()
    assert tr("landscapes.q_norm", norm=f"{2 * np.hypot(*lesson):.2f}") == control.norm.text()
    after = maps()
    for name in ("dot", "cosine"):  # compared where both grids have a sample
        xs0, ys0, image0 = before[name]
        xs1, ys1, image1 = after[name]
        cols = [(i, j) for i, x in enumerate(xs0) for j in np.flatnonzero(np.isclose(xs1, x))]
        rows = [(i, j) for i, y in enumerate(ys0) for j in np.flatnonzero(np.isclose(ys1, y))]
        assert len(cols) > 10 and len(rows) > 10
        old = image0[np.ix_([i for i, _ in rows], [i for i, _ in cols])]
        new = image1[np.ix_([j for _, j in rows], [j for _, j in cols])]
        if name == "cosine":
            assert np.allclose(new, old, atol=1e-12)
        else:
            assert np.allclose(new, 2 * old) and not np.allclose(new, old)
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.undo_stack.undo()
    assert np.array_equal(document.state.dialogue_q, lesson)
    assert control.buttons[1.0].isChecked()
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(control.buttons[0.5], Qt.MouseButton.LeftButton)
    assert np.array_equal(document.state.dialogue_q, lesson / 2)


def test_the_q_length_keeps_a_dragged_qs_direction_and_refuses_a_zero_q(qtbot, panel):
    from PySide6.QtCore import Qt

    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", 0, [3.0, 0.0])
    control = panel.q_length
    assert not any(button.isChecked() for button in control.buttons.values())
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(control.buttons[1.0], Qt.MouseButton.LeftButton)
    lesson = np.hypot(*document.data.dialogue.q)
    assert document.state.dialogue_q == pytest.approx([lesson, 0.0])
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", 0, [0.0, 0.0])
    assert not any(button.isEnabled() for button in control.buttons.values())
