"""The shapes panel through real widgets: the log T slider and its byte counts, the scale
toggle and equal edges in the diagram, and the decoder-flow stages by mouse and keyboard."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from app.model.decoder_flow import STAGE_KEYS, decoder_stages
from app.model.memory import additive_intermediate_bytes, score_matrix_bytes
from app.ui.format import format_bytes, format_number, format_shape
from app.ui.language import apply_language
from app.ui.look import Look
from app.ui.panels.shapes.panel import ShapesPanel, slider_values
from tests.ui.legibility import clipped, overlapping, report, seen_texts


@pytest.fixture
def panel(open_panel):
    return open_panel(ShapesPanel, (1200, 360))


def shown(panel: ShapesPanel, key: str) -> str:
    return panel.numbers[key][1].text()


def test_byte_units_are_powers_of_1024():
    assert format_bytes(1023) == "1,023 B"
    assert format_bytes(1024) == "1.0 KiB"
    assert format_bytes(32 * 1024**2) == "32 MiB"
    assert format_bytes(8 * 1024**3) == "8.0 GiB"
    assert format_bytes(3 * 1024**4 + 1024**4 // 2) == "3.5 TiB"
    assert format_bytes(512 * 1024**4) == "512 TiB"


def test_slider_stops_run_from_the_sentence_to_the_context_through_powers_of_two():
    stops = slider_values(5, 262144)
    assert stops[0] == 5 and stops[-1] == 262144
    assert list(stops) == sorted(set(stops))
    assert all(2**p in stops for p in range(3, 19))


def test_t_slider_by_keyboard_shows_the_models_bytes(qtbot, panel):
    anchor = panel.anchor
    panel.slider.setFocus()
    qtbot.keyClick(panel.slider, Qt.Key.Key_Home)
    assert panel.T == 5
    for _ in range(len(panel.stops)):
        if panel.T >= 4096:
            break
        qtbot.keyClick(panel.slider, Qt.Key.Key_Right)
    assert panel.T == 4096
    assert shown(panel, "scores") == format_bytes(score_matrix_bytes(4096, anchor.dtype_bytes))
    assert shown(panel, "additive") == format_bytes(
        additive_intermediate_bytes(4096, anchor.head_dim, anchor.dtype_bytes))
    # The lesson's published figures: dot_scores_mib, additive_intermediate_gib.
    assert shown(panel, "scores") == "32 MiB"
    assert shown(panel, "additive") == "8.0 GiB"
    assert shown(panel, "pairs") == format_number(4096 * 4096)
    assert panel.spin.value() == 4096
    assert panel.diagram.edge_labels()[0] == "T = 4,096"


def test_typing_t_reaches_the_anchor_context(qtbot, panel):
    panel.spin.setFocus()
    panel.spin.selectAll()
    qtbot.keyClicks(panel.spin, str(panel.anchor.max_position_embeddings))
    qtbot.keyClick(panel.spin, Qt.Key.Key_Return)
    assert panel.anchor.max_position_embeddings == panel.T
    assert panel.slider.value() == panel.slider.maximum()
    assert shown(panel, "pairs") == "68,719,476,736"  # published anchor_pairs_per_head


def test_scale_toggle_switches_head_dim_and_keeps_equal_edges(qtbot, panel):
    teaching_T, teaching_d = panel.document.data.teaching.Q.shape
    assert (panel.diagram.T, panel.diagram.d_h) == (teaching_T, teaching_d)
    qtbot.mouseClick(panel.anchor_button, Qt.MouseButton.LeftButton,
                     pos=QPoint(8, panel.anchor_button.height() // 2))
    assert panel.diagram.d_h == panel.anchor.head_dim
    assert panel.anchor.max_position_embeddings == panel.diagram.T
    blocks = dict(panel.diagram.blocks())
    q, k, s = blocks["Q"], blocks["K"], blocks["S"]
    t_edges = {round(q.height(), 6), round(k.width(), 6), round(s.width(), 6),
               round(s.height(), 6)}
    d_edges = {round(q.width(), 6), round(k.height(), 6)}
    assert len(t_edges) == 1 and len(d_edges) == 1
    log_ratio = math.log2(panel.diagram.T) / math.log2(panel.diagram.d_h)
    assert q.height() / q.width() == pytest.approx(log_ratio)
    assert all(panel.diagram.rect().contains(r.toRect()) for r in blocks.values())
    qtbot.mouseClick(panel.lesson_button, Qt.MouseButton.LeftButton,
                     pos=QPoint(8, panel.lesson_button.height() // 2))
    assert (panel.diagram.T, panel.diagram.d_h) == (teaching_T, teaching_d)


def test_clicking_a_stage_shows_its_shapes_and_parameters(qtbot, panel):
    stages = decoder_stages(panel.anchor)
    qkv = STAGE_KEYS.index("qkv")
    rect = panel.flow.item_rect(qkv)
    qtbot.mouseClick(panel.flow.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    text = panel.detail.text()
    for name, shape in stages[qkv].outputs:
        assert f"{name} <b>({format_shape(shape)})</b>" in text
    assert "T × 24 × 256" in text  # published: 24 query heads of head_dim 256
    assert format_number(stages[qkv].params) in text
    qtbot.keyClick(panel.flow, Qt.Key.Key_Right)
    assert panel.flow.current_row() == qkv + 1
    assert format_number(stages[qkv + 1].params) in panel.detail.text()
    rope = STAGE_KEYS.index("rope")
    rect = panel.flow.item_rect(rope)
    qtbot.mouseClick(panel.flow.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert "64 of each head's 256" in panel.detail.text()


def test_language_and_presentation_scale(qtbot, panel, present):
    apply_language("zh")
    panel.retranslate()
    assert panel.flow.items.item(0).text().startswith("词嵌入")
    base = panel.numbers["scores"][1].font().pointSizeF()
    present(panel, Look(scale=2.0))
    assert panel.numbers["scores"][1].font().pointSizeF() == pytest.approx(2 * base)
    assert panel.detail.font().pointSizeF() >= 22


def test_the_wheel_over_the_unfocused_t_slider_scrolls_the_panel_instead(qtbot, panel):
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    def wheel(widget) -> None:
        QApplication.sendEvent(widget, QWheelEvent(
            QPointF(5, 5), QPointF(widget.mapToGlobal(QPoint(5, 5))), QPoint(0, 0),
            QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase, False))

    before = panel.T
    for control in (panel.slider, panel.spin, panel.d_a_spin):
        wheel(control)
    assert before == panel.T and panel.d_a_spin.value() == panel.d_a
    panel.slider.setFocus()
    qtbot.waitUntil(panel.slider.hasFocus, timeout=2000)
    wheel(panel.slider)
    assert before != panel.T  # a slider the student clicked still takes the wheel


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_lessons_dock_keeps_the_diagrams_long_edge_labels_whole(open_window, lang):
    """Scene 5 in the lesson's docks at 1024×768: at T = 4,096 the diagram's labels were
    cut ("T = 4,09") and ran into each other."""
    window = open_window(lang)
    window.resize(1024, 768)
    run = window.lesson
    window.arrangement.open_scene([s.id for s in run.lesson.scenes].index("fails"), True)
    window.document.flush()
    for _ in range(5):
        QApplication.processEvents()
    diagram = window.panels["shapes"].diagram
    seen = [s for s in seen_texts(window) if s.owner is diagram]
    assert {"T = 4,096"} <= {s.text for s in seen}
    assert not overlapping(seen), report(overlapping(seen))
    assert not clipped(seen), report(clipped(seen))


def test_a_diagram_shows_its_new_shape_as_a_fresh_one_draws_it(qtbot):
    """Labels are laid out once and kept: a new T draws its own labels, not the kept ones."""
    from app.ui.panels.shapes.diagram import ShapesDiagram

    drawn, fresh = ShapesDiagram(), ShapesDiagram()
    for diagram in (drawn, fresh):
        qtbot.addWidget(diagram)
        diagram.resize(420, 240)
    drawn.set_sizes(256, 64)
    before = drawn.grab().toImage()
    drawn.set_sizes(4096, 128)
    fresh.set_sizes(4096, 128)
    assert drawn.grab().toImage() != before
    assert drawn.grab().toImage() == fresh.grab().toImage()
