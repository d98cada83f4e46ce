"""The spotlight (F6) through real widgets: every panel that shows many pairs fades all but the
selected one; and the score matrix keeps its text apart at every presentation scale."""

from __future__ import annotations

import itertools

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFontMetricsF

from app.ui.look import OKABE_ITO, SPOTLIGHT_VEIL
from app.ui.panels.match.model import COLUMNS

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
FADED = pytest.approx(1.0 - SPOTLIGHT_VEIL, abs=0.01)  # 8-bit alpha
MARGIN = 4
"""QGraphicsTextItem's document margin: the title's glyphs end this far inside its box."""


def press_f6(qtbot, window) -> None:
    qtbot.keyClick(window, Qt.Key.Key_F6)
    window.document.flush()


def lit(heatmap, row: int, col: int) -> bool:
    """True when the centre of a cell is outside the veil (drawn in full colour)."""
    veil = heatmap.cells.veil
    return not (veil.isVisible() and veil.path().contains(QPointF(col, row)))


def test_heatmap_veils_every_cell_but_the_selected_pair(qtbot, window) -> None:
    heatmap, state = window.panels["heatmap"], window.document.state
    rows, cols = heatmap.cells.grid.values.shape
    assert all(lit(heatmap, r, c) for r in range(rows) for c in range(cols))
    assert heatmap.band_over.isVisible()
    press_f6(qtbot, window)
    assert window.actions["spotlight"].isChecked()
    dark = [(r, c) for r in range(rows) for c in range(cols) if not lit(heatmap, r, c)]
    assert len(dark) == rows * cols - 1 and (state.query, state.key) not in dark
    assert not heatmap.band_over.isVisible() and heatmap.cell_box.isVisible()
    with qtbot.waitSignal(window.document.changed, timeout=2000):
        window.document.select(query=0, key=1)
    assert lit(heatmap, 0, 1) and not lit(heatmap, state.query, state.key)
    press_f6(qtbot, window)
    assert not heatmap.cells.veil.isVisible() and heatmap.band_over.isVisible()


def test_playground_fades_every_key_arrow_but_the_selected_one(qtbot, window) -> None:
    with qtbot.waitSignal(window.document.changed, timeout=2000):
        window.document.set_world("dialogue")
    playground, key = window.panels["playground"], window.document.state.key
    others = [arrow for (role, j), arrow in playground.arrows.items() if role == "k" and j != key]
    assert others and all(arrow.shaft.opacity() == 1.0 for arrow in others)
    press_f6(qtbot, window)
    assert all(arrow.shaft.opacity() == FADED for arrow in others)
    assert all(arrow.label.opacity() == FADED for arrow in others)
    assert playground.arrows[("q", 0)].shaft.opacity() == 1.0
    assert playground.arrows[("k", key)].shaft.opacity() == 1.0
    row = playground.readouts.cells[others[0].index]["dot"]
    assert row.styleSheet(), "the other keys' numbers fade too"
    assert not playground.readouts.cells[key]["dot"].styleSheet()


def test_editor_fades_the_bars_of_tokens_outside_the_pair(qtbot, window) -> None:
    editor, state = window.panels["editor"], window.document.state
    press_f6(qtbot, window)
    for (role, token), chart in editor.charts.items():
        selected = token == (state.query if role == "q" else state.key)
        assert chart.bars.opacity() == (1.0 if selected else FADED)
    outside = next(t for t in range(len(editor.tokens)) if t not in (state.query, state.key))
    faded = [editor.look.faded(OKABE_ITO[t]) in editor.name_labels[t].styleSheet()
             for t in (outside, state.query, state.key)]
    assert faded == [True, False, False]


def test_match_table_greys_every_row_but_the_selected_key(qtbot, window) -> None:
    model, key = window.panels["match"].model, window.document.state.key
    column = COLUMNS.index("dot")

    def text_colour(row: int) -> QColor | None:
        return model.data(model.index(row, column), Qt.ItemDataRole.ForegroundRole)

    others = [row for row in range(model.rowCount()) if row != key]
    assert QColor(model.faded[0]) not in [text_colour(row) for row in range(model.rowCount())]
    press_f6(qtbot, window)
    assert [text_colour(row) for row in others] == [QColor(model.faded[0])] * len(others)
    assert text_colour(key) != QColor(model.faded[0])


def test_expansion_fades_every_term_but_the_dominant_one(qtbot, window) -> None:
    expansion = window.panels["expansion"]
    dominant = window.document.view.pair.dominant
    alphas = lambda: [pg.mkBrush(b).color().alphaF()  # noqa: E731
                      for b in expansion.bars.brushes]
    assert set(alphas()) == {1.0}
    press_f6(qtbot, window)
    assert alphas()[dominant] == 1.0
    assert [a for i, a in enumerate(alphas()) if i != dominant] == [FADED] * (len(alphas()) - 1)
    assert expansion.look.faded(expansion.look.theme.foreground) in expansion.equation.text()


@pytest.mark.parametrize("scale", [1.0, 1.5, 2.0, 2.5])
def test_score_matrix_text_never_overlaps_in_presentation(qtbot, window, scale) -> None:
    presentation = window.presentation
    presentation.set_presenting(True)
    presentation.set_scale(scale)
    window.resize(1280, 720)
    window.docks["heatmap"].raise_()
    heatmap = window.panels["heatmap"]
    qtbot.waitUntil(lambda: heatmap.isVisible() and heatmap.height() > 100)
    window.document.flush()
    assert window.height() == 720, "the window still fits a 720-line projector"
    lines = [w for w in (heatmap.graphics, heatmap.readout.holder, heatmap.info.holder)
             if w.isVisible()]
    for upper, lower in itertools.pairwise(lines):
        assert upper.geometry().bottom() < lower.geometry().top()
    assert lines[-1].geometry().bottom() <= heatmap.height()
    left, view_box = heatmap.plot.getAxis("left"), heatmap.plot.vb
    qtbot.waitUntil(lambda: left.size().width() == left.fixedWidth)  # the plot's layout settled
    if left.label.isVisible():  # the rotated title: no longer than the plot is tall ...
        assert left.label.boundingRect().width() <= view_box.height()
        title = left.label.mapRectToParent(left.label.boundingRect())
        metrics = QFontMetricsF(left.style["tickFont"])
        widest = max(metrics.boundingRect(name).width() for name in heatmap.cells.names["left"])
        names_left = left.size().width() - max(0, left.style["tickLength"]) - left.style[
            "tickTextOffset"][0] - widest
        assert title.right() - MARGIN <= names_left  # ... and clear of the token names
