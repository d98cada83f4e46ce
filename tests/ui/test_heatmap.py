"""The heatmap panel through real widgets: clicks and hovers on cells, the mode switch and
causal mask, keyboard selection, presentation scale, and scale mode's background worker."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QImage, QPainter

from app.i18n import tr
from app.model.lesson.data import load_lesson_data
from app.model.nice import snap_out
from app.model.scale import ScaleRequest
from app.model.scoring import SCORERS
from app.startup import make_application
from app.state import scale_worker
from app.state.document import Document
from app.state.scale_worker import ScaleWorker
from app.ui.format import format_score, pair_formula, token_glosses, with_gloss
from app.ui.language import apply_language
from app.ui.look import Look
from app.ui.panels.heatmap.panel import HeatmapPanel
from tests.ui.staging import fit


@pytest.fixture
def panel(open_panel):
    panel = open_panel(HeatmapPanel, (520, 560))
    yield panel
    panel.worker.shutdown()


def cell_viewport_pos(panel: HeatmapPanel, row: int, col: int):
    """Where the centre of cell (row, col) is in the graphics view's viewport pixels."""
    scene = panel.plot.vb.mapViewToScene(QPointF(col, row))
    return panel.graphics.mapFromScene(scene)


def displayed(panel: HeatmapPanel) -> np.ndarray:
    """The matrix whose colours are on screen: the cell grid's, or scale mode's image."""
    if panel.document.state.options.scale_mode:
        return np.asarray(panel.image.image)
    assert panel.cells.grid.isVisible() and not panel.image.isVisible()
    return panel.cells.grid.values


def texts(panel: HeatmapPanel) -> list[list[str]]:
    return panel.cells.grid.labels


def test_clicking_a_cell_selects_that_pair_in_the_document(qtbot, panel):
    document = panel.document
    assert (document.state.query, document.state.key) != (1, 4)
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(panel.graphics.viewport(), Qt.MouseButton.LeftButton,
                         pos=cell_viewport_pos(panel, 1, 4))
    assert (document.state.query, document.state.key) == (1, 4)
    assert panel.cell_box.path().boundingRect().center() == QPointF(4, 1)


def test_rows_are_queries_and_columns_keys_with_titled_axes(panel):
    view = panel.document.view
    assert displayed(panel).shape == (len(view.query_names), len(view.key_names))
    assert np.allclose(displayed(panel), view.active.filled(np.nan), equal_nan=True)
    assert "query" in panel.plot.getAxis("left").labelText
    assert "key" in panel.plot.getAxis("top").labelText
    left_ticks = [name for _, name in panel.plot.getAxis("left")._tickLevels[0]]
    glosses = token_glosses(panel.document.data, "teaching")  # English: each token with its meaning
    assert tuple(left_ticks) == tuple(with_gloss(name, glosses) for name in view.query_names)


@pytest.mark.parametrize("stage", [False, True])
def test_no_tick_mark_cuts_a_cell_and_every_token_is_named(qtbot, panel, on_stage, stage):
    """pyqtgraph's ticks point into the plot, where they cut the first column's minus signs
    and the top row's digits; pointing out, they pushed the names past the axis's edge, and
    pyqtgraph then dropped every other row's name on the stage."""
    if stage:
        on_stage(panel, 1.5)
        panel.resize(1000, 640)
    panel.document.flush()
    panel.grab()
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    view = panel.document.view
    for side, names in (("left", view.query_names), ("top", view.key_names)):
        axis = panel.plot.getAxis(side)
        assert axis.style["tickLength"] == 0, side
        drawn = [text for _rect, _flags, text in axis.generateDrawSpecs(painter)[2]]
        assert len(drawn) == len(names), (side, drawn)
    painter.end()


def test_every_cell_prints_its_score_in_a_contrasting_colour(panel):
    view = panel.document.view
    shown = texts(panel)
    for (row, col), value in np.ndenumerate(view.active.filled(np.nan)):
        assert shown[row][col] == format_score(round(float(value), 2), 2)
    assert not any("e" in text for line in shown for text in line)  # no 6e−17 noise
    colours = {colour for line in panel.cells.grid.label_colours for colour in line}
    assert colours == {"#000000", "#FFFFFF"}  # dark cells get white text, light cells black


def test_hover_shows_the_exact_value_and_the_formula(qtbot, panel):
    view = panel.document.view
    qtbot.mouseMove(panel.graphics.viewport(), cell_viewport_pos(panel, 0, 1))
    qtbot.waitUntil(lambda: view.key_names[1] in panel.readout.text())
    formula = pair_formula(SCORERS["dot"].formula, view.query_names[0], view.key_names[1])
    assert panel.readout.text() == f"{formula} = {format_score(float(view.active[0, 1]))}"
    assert formula.startswith(f"q[{view.query_names[0]}]·k[{view.key_names[1]}]")


def test_weights_with_causal_mask_show_zero_above_the_diagonal(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(panel.weights_button, Qt.MouseButton.LeftButton)
    upper = np.triu_indices(displayed(panel).shape[0], 1)
    assert np.all(displayed(panel)[upper] > 0)  # without the mask the future gets weight
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(panel.causal_box, Qt.MouseButton.LeftButton)
    assert document.state.options.heatmap_mode == "weights" and document.state.options.causal
    image = displayed(panel)
    assert np.all(image[upper] == 0.0)
    assert np.allclose(image.sum(axis=1), 100.0)  # percent per query row
    shown = np.array(texts(panel))
    assert np.all(shown[upper] == "0")
    assert not panel.mask_item.path().isEmpty()
    assert panel.colorbar.levels() == (0.0, 100.0)


def test_masked_scores_print_minus_infinity_and_undefined_cosine_a_dash(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_options(causal=True)
        document.set_scorer("cosine")
        document.set_vector("k", 0, [0.0, 0.0, 0.0, 0.0])
    shown = np.array(texts(panel))
    assert np.all(shown[np.triu_indices(shown.shape[0], 1)] == "−∞")
    assert np.all(shown[:, 0] == "—")
    assert np.isnan(displayed(panel)[:, 0]).all()


def each_cell_text(panel: HeatmapPanel) -> list[list[str]]:
    """What the readout's one-cell lookup says of every cell."""
    rows, cols = displayed(panel).shape
    return [[panel.cell_text(row, col) for col in range(cols)] for row in range(rows)]


@pytest.mark.parametrize("changes", [
    {},
    {"causal": True},
    {"heatmap_mode": "weights", "causal": True},
    {"heatmap_source": "embeddings"},
], ids=["scores", "causal", "weights", "embeddings"])
def test_the_printed_grid_says_what_the_one_cell_lookup_says(qtbot, panel, changes):
    """The cells are printed from one pass over the arrays, the readout from one cell: the
    two must agree on every cell, −∞, undefined and percent included."""
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_options(**changes)
        if not changes:
            document.set_scorer("cosine")
            document.set_vector("k", 0, [0.0, 0.0, 0.0, 0.0])
    shown = texts(panel)
    assert shown == each_cell_text(panel)
    expected = {"scores": "—", "causal": "−∞", "weights": "0"}
    if "heatmap_source" not in changes:
        mark = expected["weights" if "heatmap_mode" in changes else
                        "causal" if changes else "scores"]
        assert mark in {text for line in shown for text in line}
    else:
        assert panel.choices.shows_embeddings(document.state, document.view)


def test_signed_scores_use_symmetric_round_levels_that_cover_every_score(panel):
    reach = float(np.max(np.abs(panel.document.view.active)))
    low, high = panel.colorbar.levels()
    assert low == -high and reach <= high <= 1.25 * reach
    assert snap_out(0.0, high) == (0.0, high)  # a round number: already on its own grid


def test_during_a_drag_the_colour_scale_only_widens_and_refits_when_it_ends(qtbot, panel):
    document = panel.document
    key, start = document.state.key, np.array(document.state.teaching_k[document.state.key])
    fitted = panel.colorbar.levels()
    document.begin_drag()
    for values in (start * 3, start):  # out and back within one gesture
        with qtbot.waitSignal(document.changed, timeout=2000):
            document.set_vector("k", key, values)
        if values is not start:
            wide = panel.colorbar.levels()
            assert wide[1] > fitted[1] and wide[1] >= np.max(np.abs(document.view.active))
    assert panel.colorbar.levels() == wide  # held while the pointer is still down
    document.end_drag()
    assert panel.colorbar.levels() == fitted  # the same scores as at the start, refitted


def test_dialogue_world_is_a_one_row_strip(qtbot, panel):
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.set_world("dialogue")
    view = panel.document.view
    assert displayed(panel).shape == (1, len(view.key_names))
    assert not panel.causal_box.isEnabled()


def test_arrow_keys_move_the_selection(qtbot, panel):
    document = panel.document
    start = (document.state.query, document.state.key)
    panel.graphics.setFocus()
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.keyClick(panel.graphics, Qt.Key.Key_Left)
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.keyClick(panel.graphics, Qt.Key.Key_Up)
    assert (document.state.query, document.state.key) == (start[0] - 1, start[1] - 1)


def test_presentation_scale_enlarges_cell_labels_and_axes(qtbot, panel, present):
    with qtbot.waitSignal(panel.plot.vb.sigResized, timeout=2000):
        panel.resize(1100, 1000)  # cells big enough that labels are not capped by cell size
    before = panel.cells.grid.font.pointSizeF()
    present(panel, Look(scale=2.0))
    after = panel.cells.grid.font.pointSizeF()
    assert after == pytest.approx(2 * before)
    assert panel.readout.font().pointSizeF() >= 2 * 11
    with qtbot.waitSignal(panel.plot.vb.sigResized, timeout=2000):
        panel.resize(300, 300)  # small cells: labels shrink to fit rather than overlap
    assert panel.cells.grid.font.pointSizeF() < after


def test_language_switch_retitles_the_axes(panel):
    apply_language("zh")
    panel.retranslate()
    assert "查询" in panel.plot.getAxis("left").labelText
    assert "键" in panel.plot.getAxis("top").labelText


def test_scale_mode_computes_off_the_ui_thread(qtbot, panel, monkeypatch):
    """The job waits until the UI thread has handled an event while the job is running; if
    the work ran on the UI thread that could never happen."""
    started, ui_ran = threading.Event(), threading.Event()
    saw_ui = []
    real = scale_worker.compute_scale

    def gated(request, should_stop):
        started.set()
        saw_ui.append(ui_ran.wait(timeout=20))
        return real(request, should_stop)

    monkeypatch.setattr(scale_worker, "compute_scale", gated)
    ticker = QTimer(panel)
    ticker.timeout.connect(lambda: started.is_set() and ui_ran.set())
    ticker.start(0)
    document = panel.document
    with qtbot.waitSignal(panel.worker.finished, timeout=30000) as done:
        qtbot.mouseClick(panel.scale_box, Qt.MouseButton.LeftButton)
    ticker.stop()
    assert document.state.options.scale_mode and document.state.options.scale_T == 1024
    assert saw_ui == [True]
    result = done.args[0]
    assert result.request.T == 1024
    image = displayed(panel)
    assert image.shape == result.image.shape
    assert image.shape[0] * result.factor == 1024
    assert image.shape[0] <= max(panel.plot.vb.width(), panel.plot.vb.height()) * 2
    assert f"{1024 * 1024:,}" in panel.info.text()


def test_changing_t_quickly_shows_only_the_last_choice(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(panel.worker.finished, timeout=30000):
        document.set_options(scale_mode=True, scale_T=8)
    seen = []
    panel.worker.finished.connect(lambda result: seen.append(result.request.T))
    with qtbot.waitSignal(panel.worker.finished, timeout=30000):
        panel.t_combo.setCurrentIndex(panel.t_combo.count() - 1)
        document.flush()
        panel.t_combo.setCurrentIndex(1)
    assert seen == [16]
    assert displayed(panel).shape == (16, 16)


def test_a_drag_in_scale_mode_leaves_the_picture_alone(qtbot, panel, monkeypatch):
    """Scale mode shows random Q and K: dragging a lesson key neither asks for a picture nor
    draws the shown one again, and the mode's own options still do."""
    document = panel.document
    document.set_world("teaching")
    with qtbot.waitSignal(panel.worker.finished, timeout=30000):
        document.set_options(scale_mode=True, scale_T=64)
    requests, draws = [], []
    real_request, real_show = panel.worker.request, panel.canvas.show_image
    monkeypatch.setattr(panel.worker, "request", lambda r: (requests.append(r),
                                                            real_request(r))[1])
    monkeypatch.setattr(panel.canvas, "show_image", lambda *a: (draws.append(a),
                                                                real_show(*a))[1])
    document.begin_drag()
    for offset in (0.1, 0.2, 0.3):
        document.set_vector("k", document.state.key, document.state.vectors[1][0] + offset)
        document.flush()
    document.end_drag()
    assert requests == [] and draws == []
    with qtbot.waitSignal(panel.worker.finished, timeout=30000):
        document.set_options(scale_seed=document.state.options.scale_seed + 1)
    assert [request.seed for request in requests] == [document.state.options.scale_seed]
    assert len(draws) == 1
    panel._on_view_resized()  # a resize that asks for the picture on show draws nothing
    assert len(requests) == 1 and len(draws) == 1
    document.set_options(scale_mode=False)
    document.flush()
    assert displayed(panel).shape == document.view.scores[document.state.scorer].shape


def test_a_stale_result_is_dropped(qtbot):
    make_application()
    worker = ScaleWorker()
    finished, dropped = [], []
    worker.finished.connect(finished.append)
    worker.dropped.connect(dropped.append)
    old = worker.request(ScaleRequest(T=4096, d=64, target_px=64))
    new = worker.request(ScaleRequest(T=64, d=64, target_px=64))
    with qtbot.waitSignals([worker.finished, worker.dropped], timeout=30000):
        pass
    worker.shutdown()
    assert dropped == [old]
    assert [result.request.T for result in finished] == [64]
    assert worker.generation > new  # shutdown retires the last generation too


def test_deleting_the_worker_stops_its_job(qtbot):
    make_application()
    worker = ScaleWorker()
    ticket = worker._ticket
    generation = worker.request(ScaleRequest(T=4096, scorer="additive", target_px=64))
    with qtbot.waitSignal(worker.destroyed, timeout=30000):
        worker.deleteLater()
    assert ticket.generation > generation  # the running job sees it is stale and stops


def test_switching_scorer_in_scale_mode_fades_the_old_picture_until_the_new_one(
        qtbot, panel, monkeypatch):
    """The old scorer's picture must not pass for the new one's while that is computed."""
    document = panel.document
    with qtbot.waitSignal(panel.worker.finished, timeout=30000):
        document.set_options(scale_mode=True, scale_T=64)
    assert not panel.stale and panel.image.opacity() == 1.0
    gate = threading.Event()
    real = scale_worker.compute_scale

    def held(request, should_stop):
        gate.wait(timeout=30)
        return real(request, should_stop)

    monkeypatch.setattr(scale_worker, "compute_scale", held)
    try:
        with qtbot.waitSignal(document.changed, timeout=2000):
            document.set_scorer("cosine")
        assert panel.stale and panel.image.opacity() < 0.5
        assert panel.scale_result.request.scorer == "dot"  # still the old picture …
        assert tr("scorer.cosine") in panel.readout.text()  # … and the line says so
    finally:
        gate.set()
    with qtbot.waitSignal(panel.worker.finished, timeout=30000):
        pass
    assert panel.scale_result.request.scorer == "cosine"
    assert not panel.stale and panel.image.opacity() == 1.0
    assert tr("scorer.cosine") not in panel.readout.text()


def test_names_a_cramped_desk_thinned_are_all_back_on_the_stage(open_panel, on_stage) -> None:
    document = Document(load_lesson_data())
    document.set_world("teaching")
    document.flush()
    panel = open_panel(HeatmapPanel, (300, 200), document=document)
    panel.set_look(Look(scale=2.0))  # the names crowd a small dock at the desk: thinned
    fit(panel, panel.size())
    rows = len(panel.cells.names["left"])

    def shown() -> int:
        return len(panel.canvas.plot.getAxis("left")._tickLevels[0])

    assert shown() < rows, "the cramped desk thins the row names"
    on_stage(panel, 1.0)
    fit(panel)
    assert shown() == rows, "every query's name on the stage"


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_desk_dock_at_the_readable_size_names_every_row_and_column(open_panel,
                                                                      language) -> None:
    """The readable size measured the rows at the chart-tick size while the desk printed the
    names at the reading size: a dock the desk fit gave exactly that size (F7, Ctrl+2, zoom
    in and back, in Chinese) thinned 把 and 给了 off their rows."""
    apply_language(language)
    try:
        document = Document(load_lesson_data())
        document.set_world("teaching")
        document.flush()
        panel = open_panel(HeatmapPanel, (300, 200), document=document)
        fit(panel)
        for side in ("left", "top"):
            names = panel.cells.names[side]
            assert len(panel.canvas.plot.getAxis(side)._tickLevels[0]) == len(names), side
    finally:
        apply_language("en")
