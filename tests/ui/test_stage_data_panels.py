"""The heatmap, the match table, the vector editor, the shapes and the timeline on the
projector's stage, at 100, 150 and 200 %, in both languages, each in the state its scene sets
up: at the size each says it is readable at, every text (cell numbers, ticks, painted diagram
labels, table cells and their sub- and superscripts) is at least STAGE_MIN_PX device pixels,
none covers another, none is cut or scrolled away, and no number or token name is split
across lines; the teacher's controls are left out; much smaller, they are no longer readable."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QSize

from app.model.lesson.data import load_lesson_data
from app.model.lesson.scenes import load_scenes, scene_state
from app.state.document import Document
from app.ui.fonts import STAGE_MIN_PX
from app.ui.panels.editor.panel import EditorPanel
from app.ui.panels.heatmap.panel import HeatmapPanel
from app.ui.panels.match.panel import MatchTablePanel
from app.ui.panels.shapes.panel import ShapesPanel
from app.ui.panels.timeline.panel import TimelinePanel
from tests.ui.legibility import (
    seen_texts,
)
from tests.ui.staging import ZOOMS, fit, stage_panel, unreadable

SCENES = {"heatmap": (HeatmapPanel, "three_kinds", {}),
          "match": (MatchTablePanel, "evidence", {}),
          "editor": (EditorPanel, "dot_4d", {}),
          "shapes": (ShapesPanel, "fails", {"shapes_T": 4096, "shapes_d_a": 256,
                                             "shapes_scale": "anchor"}),
          "timeline": (TimelinePanel, "timeline", {})}
"""Each panel in the scene that shows it, with the options that scene asks for."""
STAGE_AREA = (1024, 650)
"""What a 1024×768 projector leaves a scene's panel under the stage's header and footer."""




def scene_document(scene_id: str, options: dict[str, object]) -> Document:
    """A document set up as the lesson's scene `scene_id`, with `options` on top."""
    document = Document(load_lesson_data())
    lesson = load_scenes(data=document.data)
    scene = next(scene for scene in lesson.scenes if scene.id == scene_id)
    document.restore(scene_state(scene, document.data))
    if options:
        document.set_options(**options)
    document.flush()
    return document


def staged(open_panel, on_stage, name: str, language: str, zoom: float, stage_id: str = ""):
    panel_class, scene_id, options = SCENES[name]
    document = scene_document(scene_id, options)
    if stage_id:
        document.apply_stage(stage_id)
        document.flush()
    return stage_panel(open_panel, on_stage, panel_class, document, language, zoom)



@pytest.mark.matrix(keep=6)
@pytest.mark.parametrize(("name", "language", "zoom"),
                         list(itertools.product(SCENES, ("zh", "en"), ZOOMS)))
def test_at_its_readable_size_every_text_reads_from_the_last_row(open_panel, on_stage, name,
                                                                 language, zoom):
    panel = staged(open_panel, on_stage, name, language, zoom)
    assert panel.size() == panel.readable_size()
    assert not unreadable(panel, STAGE_MIN_PX), unreadable(panel, STAGE_MIN_PX)


@pytest.mark.matrix(keep=4)
@pytest.mark.parametrize(("name", "language"), list(itertools.product(SCENES, ("zh", "en"))))
def test_in_a_projectors_room_at_100_percent_every_text_reads(open_panel, on_stage, name,
                                                              language):
    """Each scene's panel fits a 1024×768 projector's room at 100 %, and in that larger room
    (the stage gives at least the readable size) it is just as readable."""
    panel = staged(open_panel, on_stage, name, language, 1.0)
    readable = panel.readable_size()
    assert readable.width() <= STAGE_AREA[0] and readable.height() <= STAGE_AREA[1]
    fit(panel, QSize(*STAGE_AREA))
    assert not unreadable(panel, STAGE_MIN_PX), unreadable(panel, STAGE_MIN_PX)


@pytest.mark.parametrize("name", list(SCENES))
def test_much_smaller_than_readable_is_not_readable(open_panel, on_stage, name):
    """The readable size is a real floor: two thirds of it no longer holds the panel."""
    panel = staged(open_panel, on_stage, name, "zh", 1.0)
    readable = panel.readable_size()
    fit(panel, readable * (2 / 3))
    assert unreadable(panel, STAGE_MIN_PX)


@pytest.mark.matrix(keep=4)
@pytest.mark.parametrize("stage_id", ["scaled_softmax", "causal", "multi_head", "sink"])
@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_timelines_weights_keep_names_and_percentages_whole(open_panel, on_stage,
                                                                language, stage_id):
    """The live tables of the weights, heads and sink stages: no "小/明" one character a line,
    no "56.5 %" split, no "89" for 89.5 % (the column cut), and the sink's switch left out."""
    panel = staged(open_panel, on_stage, "timeline", language, 1.0, stage_id)
    assert not unreadable(panel, STAGE_MIN_PX), unreadable(panel, STAGE_MIN_PX)
    assert not panel.sink_box.isVisibleTo(panel) and not panel.sink_slider.isVisibleTo(panel)
    if stage_id == "sink":
        assert panel.sink_value.isVisibleTo(panel)  # the sink logit's value, in words


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_kv_charts_labels_stand_apart_and_name_each_model_once(open_panel, on_stage,
                                                                   language):
    panel = staged(open_panel, on_stage, "timeline", language, 1.0, "kv_cache")
    assert not unreadable(panel, STAGE_MIN_PX), unreadable(panel, STAGE_MIN_PX)
    labels = [text for _, text in panel.kv.plot.getAxis("bottom")._tickLevels[0]]
    anchor = panel.kv._label(panel.kv.bars[0]).split("\n")[1]
    assert sum(anchor in text.split("\n") for text in labels) == 1  # not "anchoranchor…"
    assert not panel.kv.slider.isVisibleTo(panel) and panel.kv.context_label.isVisibleTo(panel)


def test_the_stage_leaves_the_teachers_controls_out(open_panel, on_stage):
    """What the scene sets up instead of the teacher: the heatmap's switches, the match
    table's additive box, the editor's q/k buttons, reshaping bar and help, the shapes
    panel's scale, T and dₐ controls (their values in words instead) and its decoder flow."""
    heatmap = staged(open_panel, on_stage, "heatmap", "en", 1.0)
    assert not any(w.isVisibleTo(heatmap) for w in (
        heatmap.scores_button, heatmap.weights_button, heatmap.causal_box, heatmap.scale_box,
        heatmap.t_combo, heatmap.choices.e_button))
    match = staged(open_panel, on_stage, "match", "en", 1.0)
    assert not match.additive_box.isVisibleTo(match)
    editor = staged(open_panel, on_stage, "editor", "en", 1.0)
    assert not any(w.isVisibleTo(editor) for w in (
        editor.reshape_bar, editor.help_line, *editor.pick_buttons.values()))
    shapes = staged(open_panel, on_stage, "shapes", "en", 1.0)
    assert not any(w.isVisibleTo(shapes) for w in (
        shapes.slider, shapes.spin, shapes.d_a_spin, shapes.lesson_button,
        shapes.anchor_button, shapes.flow_box))
    values = shapes.inputs_part.values_label
    assert values.isVisibleTo(shapes) and "4,096" in values.text() and "256" in values.text()


def test_the_editor_shows_every_token_where_they_fit_and_else_the_pair(open_panel, on_stage):
    editor = staged(open_panel, on_stage, "editor", "zh", 1.5)
    state = editor.document.state
    shown = [t for t, cell in enumerate(editor._cells) if cell.isVisibleTo(editor)]
    assert shown == sorted({state.query, state.key}) and len(shown) < len(editor._cells)
    fit(editor, QSize(*STAGE_AREA))
    on_stage(editor, 1.0)
    fit(editor, QSize(*STAGE_AREA))
    assert all(cell.isVisibleTo(editor) for cell in editor._cells)
    assert not unreadable(editor, STAGE_MIN_PX), unreadable(editor, STAGE_MIN_PX)


def test_the_heatmaps_numbers_are_drawn_at_the_stages_least_size_not_below(open_panel,
                                                                          on_stage):
    """Every cell prints its number at its readable size, in at least STAGE_MIN_PX, where
    the desk let a strip's numbers shrink to 7 pt (about 9 px)."""
    panel = staged(open_panel, on_stage, "heatmap", "zh", 1.0)
    assert panel.cells.grid.labels_visible
    numbers = [seen for seen in seen_texts(panel) if seen.source == "painted"
               and any(seen.text == text for line in panel.cells.grid.labels for text in line)]
    assert len(numbers) == panel.values.size
    assert min(seen.px for seen in numbers) >= STAGE_MIN_PX
