"""Each data panel exports its figure, not its controls: the PNG and SVG written through
`save_image` hold the plot's names and numbers as text, no button or hint, and librsvg draws
the SVG as the PNG shows it."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from itertools import pairwise

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton

from app.i18n import tr
from app.ui.figure import Text
from app.ui.figure_plot import joined
from app.ui.panels.expansion.panel import ExpansionPanel
from app.ui.panels.expansion.written import number, operand
from app.ui.panels.landscapes.panel import LandscapesPanel
from app.ui.panels.match.model import COLUMNS
from app.ui.panels.match.panel import MatchTablePanel
from app.ui.panels.playground.panel import PlaygroundPanel
from app.ui.panels.shapes.panel import ShapesPanel
from app.ui.panels.timeline.panel import TimelinePanel
from tests.ui.exported import check_figure, svg_tags

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def test_term_by_term_exports_its_bars_with_values_and_names(open_panel, tmp_path) -> None:
    panel = open_panel(ExpansionPanel, (480, 460))
    texts = check_figure(panel, tmp_path, [panel.polar.text(), panel.dominant.text()])
    shown = re.search(r"= (\S+?),", panel.dominant.text())
    assert shown is not None, panel.dominant.text()
    assert shown.group(1) in texts, "the largest term's value, as the panel prints it"
    labels = [name for _x, name in panel._tick_labels]
    assert labels and set(labels) <= set(texts), "every term's name"
    assert panel.heading.text() in texts, "the heading names the pair"


def test_term_by_term_exports_the_additive_scorers_terms(qtbot, open_panel, tmp_path) -> None:
    panel = open_panel(ExpansionPanel, (480, 460))
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.set_scorer("additive")
    assert panel.showing_additive
    texts = check_figure(panel, tmp_path, [panel.polar.text(), panel.dominant.text()])
    view, state = panel.document.view, panel.document.state
    w = panel.document.data.teaching.additive
    terms = w.v * np.tanh(w.W1 @ view.q[state.query] + w.W2 @ view.k[state.key])
    written = re.sub("<[^>]+>", "", panel.equation.text().split("<br>")[-1])
    for value in terms:
        assert number(value) in texts, f"v·t's term {number(value)}, as NumPy works it out"
        assert operand(value) in written, "and as the written sum prints it"
    labels = [name for _x, name in panel._tick_labels]
    assert len(labels) == w.d_a and set(labels) <= set(texts), "every vᵢtᵢ's name"
    assert panel.heading.text() in texts, "the heading names the pair and the scorer"


def test_the_match_table_exports_its_header_and_rows(open_panel, tmp_path) -> None:
    panel = open_panel(MatchTablePanel, (900, 420))
    controls = [panel.additive_box.text(), panel.caption.text(), panel.reasons_title.text()]
    texts = check_figure(panel, tmp_path, controls)
    proxy = panel.proxy
    for column in ("dot", "cosine", "neg_euclidean"):
        header = panel.model.headerData(COLUMNS.index(column), Qt.Orientation.Horizontal)
        assert header in texts, f"the {column} column's name"
        shown = [proxy.index(row, COLUMNS.index(column)).data()
                 for row in range(proxy.rowCount())]
        assert shown and set(shown) <= set(texts), f"every {column} number the table shows"
    names = panel.model.rows.names
    assert [text for text in texts if text in names] == [
        proxy.index(row, 0).data() for row in range(proxy.rowCount())], "rows in table order"


@pytest.mark.parametrize("stage", ["multi_head", "sink"])
def test_the_timeline_exports_the_stages_weights(qtbot, open_panel, tmp_path, stage) -> None:
    panel = open_panel(TimelinePanel, (900, 640))
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        qtbot.mouseClick(panel.strip.chips[stage], Qt.MouseButton.LeftButton)
    chip = panel.strip.chips[stage]
    controls = [chip.text(), panel.sink_box.text(), tr("timeline.hint"),
                panel.strip.chips["rope"].text()]
    texts = check_figure(panel, tmp_path, controls)
    live = panel.sink_text if stage == "sink" else panel.live_label
    shown = re.findall(r"\d+\.\d %", live.text())
    assert shown and set(shown) <= set(texts), "every percentage the live view shows"
    assert set(panel.document.view.key_names[:3]) <= set(texts), "the keys' names"


@pytest.mark.parametrize("stage", ["kv_cache", "linear"])
def test_the_timeline_exports_the_kv_bytes_as_a_table(qtbot, open_panel, tmp_path,
                                                     stage) -> None:
    panel = open_panel(TimelinePanel, (900, 640))
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        qtbot.mouseClick(panel.strip.chips[stage], Qt.MouseButton.LeftButton)
    chart = panel.kv
    controls = [panel.strip.chips[stage].text(), tr("timeline.hint"), chart.caption.text()]
    texts = check_figure(panel, tmp_path, controls)
    assert chart.context_label.text() in texts, "the context the sizes are for"
    sizes = re.findall(r"\d[\d,.]* [KMGT]?i?B", chart.plot.toolTip())
    assert len(sizes) >= len(chart.bars), chart.plot.toolTip()
    cells = {text.rstrip("*") for text in texts}
    assert set(sizes) <= cells, "every size the bars stand for, as the chart words it"
    lit = [re.sub("<[^>]+>", "", cell) for cell in re.findall(r"<b>(.+?)</b>",
                                                               chart.focus.text())]
    assert lit and set(lit) <= cells, "the stage's own bars"
    figure = panel.figure()
    strong = [row.cells[3].rstrip("*") for row in figure.rows if row.strong]
    assert sorted(strong) == sorted(lit), "the stage's bars, and only they, stand out"


def test_the_timeline_exports_ropes_score_table(qtbot, open_panel, tmp_path) -> None:
    panel = open_panel(TimelinePanel, (900, 640))
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        qtbot.mouseClick(panel.strip.chips["rope"], Qt.MouseButton.LeftButton)
    rope = panel.rope
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        qtbot.mouseClick(rope.shift_button, Qt.MouseButton.LeftButton)
    controls = [rope.shift_button.text(), tr("timeline.hint"), tr("timeline.rope.step_tip")]
    texts = check_figure(panel, tmp_path, controls)
    page = rope.scores.text()
    shown = [html.unescape(re.sub("<[^>]+>", "", cell))
             for cell in re.findall(r"<td align=center>(.*?)</td>", page)]
    assert len(shown) == 6 * len(panel.document.view.key_names), page
    assert set(shown) <= set(texts), "every cell the page prints"
    header = [html.unescape(cell) for cell in re.findall(r"<th>(.*?)&nbsp;</th>", page)]
    assert tr("timeline.rope.col_before") in header and set(header) <= set(texts)
    assert tr("timeline.rope.unchanged") in texts, "what the shift did"
    assert any(rope.step_unit.text() in text for text in texts), "the turn per position"


@pytest.mark.parametrize("stage", [None, "rnn", "additive"])
def test_a_timeline_stage_in_words_keeps_the_screenshot(qtbot, open_panel, stage) -> None:
    panel = open_panel(TimelinePanel, (900, 640))
    if stage is not None:
        with qtbot.waitSignal(panel.document.changed, timeout=2000):
            qtbot.mouseClick(panel.strip.chips[stage], Qt.MouseButton.LeftButton)
    assert panel.figure() is None, "the live view is a sentence"
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        qtbot.mouseClick(panel.strip.chips["scaled_softmax"], Qt.MouseButton.LeftButton)
    assert panel.figure() is not None


def test_the_playground_exports_its_vectors_as_named_arrows(open_2d_panel, tmp_path) -> None:
    panel = open_2d_panel(PlaygroundPanel, (760, 620))
    readouts = panel.readouts
    controls = [readouts.help_line.text(), panel.caption.text(), readouts.query_line.text()]
    texts = check_figure(panel, tmp_path, controls)
    view = panel.document.view
    for j, cells in enumerate(readouts.cells):
        named = [text for text in texts if view.key_names[j] in text]
        assert len(named) == 1, f"k{j + 1} is one arrow's name: {texts}"
        assert cells["vector"].text() in named[0], "with its coordinates, as the table prints"
    assert any(view.query_names[0] in text for text in texts), "q's arrow"
    assert len(svg_tags(tmp_path / "playground.svg")) > 6 * len(readouts.cells), "arrows drawn"


def test_the_landscapes_export_four_plots_with_their_contour_values(open_2d_panel,
                                                                    tmp_path) -> None:
    panel = open_2d_panel(LandscapesPanel, (900, 860))
    captions = [plot.caption.text() for plot in panel.plots.values()]
    buttons = [button.text() for button in panel.q_length.findChildren(QAbstractButton)]
    texts = check_figure(panel, tmp_path, [panel.intro.text(), *captions, *buttons])
    for plot in panel.plots.values():
        assert plot.title.text() in texts, "each plot's title"
        values = [label.toPlainText() for label in plot.levels if label.isVisible()]
        assert values and set(values) <= set(texts), "the contour values the plot prints"
    names = set(panel.document.view.key_names)
    assert sum(text in names for text in texts) == len(panel.plots) * len(names), "key dots"
    svg = tmp_path / "landscapes.svg"
    lines = [node.get("points", "").split() for node in ET.parse(svg).iter()
             if node.tag.endswith("}polyline")]
    steps = sum(len(plot.shown_landscape().iso.segments) for plot in panel.plots.values())
    assert sum(len(points) - 1 for points in lines) == steps, "each contour step drawn once"
    assert len(svg_tags(svg)) < steps / 10, "steps joined into lines, not one element each"


def test_the_shapes_panel_exports_its_sizes_as_a_table(qtbot, open_panel, tmp_path) -> None:
    panel = open_panel(ShapesPanel, (1200, 520))
    panel.anchor_button.click()  # the anchor's context: sizes in MiB and GiB
    panel.d_a_spin.setValue(panel.d_a * 2)
    part = panel.inputs_part
    controls = [part.lesson_button.text(), part.anchor_button.text(), panel.caption.text(),
                panel.cube_caption.text(), panel.flow_title.text()]
    texts = check_figure(panel, tmp_path, controls)
    assert tr("shapes.head_title") in texts, "the head's title"
    setting = [text for text in texts if text.startswith(part.scale_label.text())]
    assert len(setting) == 1, "the scale under the title"
    assert setting[0].split(" · ")[1:] == part.values_label.text().split("    "), "T, dₐ"
    shown = {key: value.text() for key, (_name, value) in panel.numbers.items()}
    assert any("GiB" in value for value in shown.values()), shown
    assert set(shown.values()) <= set(texts), "every number the panel prints"
    assert panel.cube.labels.times in texts, "the cube's ratio"
    assert "Naive additive tensor T × T × dₐ" in texts, "a name, its subscript as a letter"
    panel.withhold(True)
    withheld = {shape.text for shape in panel.figure().shapes() if isinstance(shape, Text)}
    assert not {shown["scores"], shown["additive"]} & withheld, "no answer before the reveal"
    assert shown["pairs"] in withheld and tr("shapes.withheld") in withheld


def test_contour_steps_join_whichever_way_each_runs() -> None:
    square = [((0, 0), (1, 0)), ((1, 1), (1, 0)), ((1, 1), (0, 1)), ((0, 1), (0, 0))]
    apart = [((5, 5), (6, 5))]
    lines = joined(np.array([square[2], apart[0], square[0], square[3], square[1]], float))
    assert sorted(len(line) for line in lines) == [2, 5], "the square closes, the step apart"
    loop = max(lines, key=len)
    assert loop[0].tolist() == loop[-1].tolist(), "a closed contour ends where it starts"
    steps = {frozenset((tuple(a), tuple(b))) for a, b in pairwise(loop.tolist())}
    assert steps == {frozenset(map(tuple, step)) for step in square}, "each step once"
