"""The timeline panel through real widgets: cards computed from the data, stages that drive the
document (causal, heads, RoPE, sink), the keyboard, and the KV chart's bar heights."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.i18n import tr
from app.model.figures import lesson_figures
from app.model.memory import KIB
from app.model.timeline import STAGES, stage
from app.ui.format import format_claim, format_figure
from app.ui.language import apply_language
from app.ui.panels.timeline.kv_chart import PER_TOKEN, WHOLE
from app.ui.panels.timeline.panel import TimelinePanel, percent
from app.ui.presentation import restore_base_style

CJK = re.compile("[\u3400-\u9fff]")


SIZE = (1280, 420)


@pytest.fixture
def panel(open_panel):
    return open_panel(TimelinePanel, SIZE)


def click_stage(qtbot, panel: TimelinePanel, stage_id: str) -> None:
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        qtbot.mouseClick(panel.strip.chips[stage_id], Qt.MouseButton.LeftButton)


def plain(panel: TimelinePanel) -> str:
    return panel.card.text()


@pytest.mark.parametrize("item", STAGES, ids=lambda s: s.id)
def test_every_card_prints_its_figures_and_claims(qtbot, panel, item):
    if item.id != "rnn":
        click_stage(qtbot, panel, item.id)
    else:
        panel.strip.setFocus()
        qtbot.keyClick(panel.strip, Qt.Key.Key_Return)
        panel.document.flush()
    assert panel.document.state.options.stage == item.id
    text = plain(panel)
    for key, figure in panel.figures.items():
        if key in item.figures:
            assert format_figure(figure) in text, key
    for claim_id in item.claims:
        assert format_claim(panel.document.data.frontier.claim(claim_id)) in text
    assert ("you are here" in text) == item.here
    assert "{" not in text  # every placeholder was filled


def test_card_numbers_follow_the_data_files(qtbot, open_panel, data_dir, edit_data):
    edit_data("anchor-model.json", lambda anchor: anchor.__setitem__(
        "num_key_value_heads", 2 * anchor["num_key_value_heads"]))
    before, after = open_panel(TimelinePanel, SIZE), open_panel(TimelinePanel, SIZE, data_dir)
    for panel in (before, after):
        click_stage(qtbot, panel, "gqa")
    old = format_figure(lesson_figures()["anchor_gqa_kib_per_token"])
    new = format_figure(lesson_figures(data_dir)["anchor_gqa_kib_per_token"])
    assert old != new
    assert old in plain(before) and new not in plain(before)
    assert new in plain(after) and old not in plain(after)
    assert after.kv.bar_bytes(PER_TOKEN)["anchor_gqa"] == 2 * before.kv.bar_bytes(
        PER_TOKEN)["anchor_gqa"]


def test_choosing_the_causal_mask_sets_the_document_option_in_one_undo_step(qtbot, panel):
    document = panel.document
    document.set_world("dialogue")
    document.flush()
    start = document.state
    click_stage(qtbot, panel, "causal")
    options = document.state.options
    assert options.causal and options.heatmap_mode == "weights" and options.stage == "causal"
    assert document.state.world == "teaching"
    row = document.data.teaching.index("query")
    shown = panel.live_label.text()
    assert percent(document.view.weights[row, document.data.teaching.index("object")]) in shown
    assert "masked" in shown
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.undo_stack.undo()
    assert document.state == start
    assert panel.strip.chips["causal"].isChecked() is False


def test_choosing_multi_head_shows_two_heads(qtbot, panel):
    document = panel.document
    click_stage(qtbot, panel, "multi_head")
    view = document.view
    assert document.state.options.heads == document.data.teaching.n_heads == len(view.heads)
    teaching = document.data.teaching
    row, giver, obj = (teaching.index(r) for r in ("query", "giver", "object"))
    shown = panel.live_label.text()
    assert "Head A" in shown and "Head B" in shown
    assert percent(view.heads[0].weights[row, giver]) in shown
    assert percent(view.heads[1].weights[row, obj]) in shown


def test_keyboard_moves_between_stages_and_enter_expands(qtbot, panel):
    strip, document = panel.strip, panel.document
    start = strip.current
    qtbot.keyClick(strip, Qt.Key.Key_Right)
    qtbot.keyClick(strip, Qt.Key.Key_Right)
    assert strip.current == start + 2
    qtbot.keyClick(strip, Qt.Key.Key_Left)
    assert strip.current == start + 1
    assert document.state.options.stage is None  # moving alone does not expand
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.keyClick(strip, Qt.Key.Key_Return)
    assert document.state.options.stage == STAGES[start + 1].id
    qtbot.keyClick(strip, Qt.Key.Key_Down)
    assert STAGES[strip.current].track == "generation"
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.keyClick(strip, Qt.Key.Key_Enter)
    assert stage(document.state.options.stage).track == "generation"
    assert panel.live.currentWidget().widget() is panel.kv


def test_rope_positions_are_editable_and_a_common_shift_changes_no_score(qtbot, panel):
    document = panel.document
    click_stage(qtbot, panel, "rope")
    assert document.state.world == "dialogue" and document.state.options.rope
    box = panel.position_boxes[1]
    with qtbot.waitSignal(document.changed, timeout=2000):
        box.setValue(box.value() + 2)
    assert document.state.positions[1] == box.value()
    before = np.array(document.view.scores["dot"][0])
    positions = np.array(document.state.positions)
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(panel.shift_button, Qt.MouseButton.LeftButton)
    assert np.array_equal(document.state.positions, positions + 1)
    after = np.array(document.view.scores["dot"][0])
    np.testing.assert_allclose(after, before, atol=1e-9)
    assert not np.allclose(document.view.q, document.view.raw_q)  # really rotated
    text = panel.rope_scores.text()
    assert "q·k before" in text and "unchanged" in text
    assert [b.value() for b in panel.position_boxes] == list(positions + 1)


def test_sink_stage_shows_the_even_split_and_a_sink_that_takes_almost_all(qtbot, panel):
    document = panel.document
    click_stage(qtbot, panel, "sink")
    teaching = document.data.teaching
    row = teaching.index("object")
    even = document.view.weights[row, : row + 1]
    for weight in even:
        assert percent(weight) in panel.sink_text.text()
    assert document.state.options.sink_logit is None
    with qtbot.waitSignal(document.changed, timeout=2000):
        panel.sink_box.setChecked(True)
    slider = panel.sink_slider
    with qtbot.waitSignal(document.changed, timeout=2000):
        slider.setValue(slider.maximum())
    logit = document.state.options.sink_logit
    assert logit == slider.maximum() / 10
    share = float(document.view.sink_weight[row])
    assert share > 0.9
    assert percent(share) in panel.sink_text.text()


def test_kv_chart_bars_are_the_lesson_figures(qtbot, panel):
    click_stage(qtbot, panel, "kv_cache")
    chart, figures = panel.kv, panel.figures
    per_token = chart.bar_bytes(PER_TOKEN)
    for scheme in ("mha", "mqa", "gqa"):
        expected = figures[f"anchor_{scheme}_kib_per_token"].value * KIB
        assert per_token[f"anchor_{scheme}"] == expected
    tops = chart.bar_tops(PER_TOKEN)
    np.testing.assert_allclose(10**tops, list(per_token.values()))
    assert chart.tokens == panel.document.data.anchor.max_position_embeddings
    whole = chart.bar_bytes(WHOLE)
    assert whole["anchor_mha"] == figures["anchor_mha_gib_native"].value * 1024**3
    chart.slider.setFocus()
    qtbot.keyClick(chart.slider, Qt.Key.Key_Left)
    shorter = chart.bar_bytes(WHOLE)
    assert shorter["anchor_mha"] == whole["anchor_mha"] // 2
    assert shorter["anchor_state"] == whole["anchor_state"]  # the fixed state does not grow
    np.testing.assert_allclose(chart.bar_tops(WHOLE), [math.log10(v) for v in shorter.values()])


def test_language_switch_rewrites_the_card(qtbot, panel):
    click_stage(qtbot, panel, "additive")
    english = plain(panel)
    names = panel.document.data.teaching.tokens
    assert not CJK.search(re.sub("|".join(names), "", english))
    apply_language("zh")
    panel.retranslate()
    assert CJK.search(plain(panel)) and plain(panel) != english


def test_the_strip_scrolls_to_follow_the_keyboard_in_a_narrow_dock(qtbot, panel):
    panel.resize(420, 300)
    bar = panel.strip_scroll.horizontalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=2000)
    assert bar.value() == 0
    training = sum(1 for s in STAGES if s.track == "training")
    for _ in range(training - 1):
        qtbot.keyClick(panel.strip, Qt.Key.Key_Right)
    assert bar.value() > 0


def test_after_the_rope_stage_the_keys_still_move_through_the_stages(qtbot, open_window):
    """RoPE is the stage that opens the 2-D world (the window swaps the world's docks): the
    strip keeps the keys, ←/→ show the neighbouring cards without setting anything up, and
    only Enter changes the world and scorer."""
    window = open_window()
    window.presentation.set_presenting(True)
    panel = window.show_panel("timeline")
    document, strip = window.document, panel.strip
    action = window.addAction("a window shortcut on ←")  # like any panel's arrow-key action
    action.setShortcut(Qt.Key.Key_Left)
    stolen = []
    action.triggered.connect(lambda: stolen.append(True))
    try:
        with qtbot.waitSignal(document.changed, timeout=2000):
            qtbot.mouseClick(strip.chips["rope"], Qt.MouseButton.LeftButton)
        assert document.state.world == "dialogue" and document.state.options.stage == "rope"
        assert panel.isVisible() and strip.hasFocus()
        before = document.state
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Left)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Left)
        document.flush()
        assert not stolen and document.state == before
        shown = STAGES[strip.order.index("rope") - 2]
        assert tr(f"timeline.{shown.id}.name") in plain(panel)
        assert tr("timeline.rope.name") in plain(panel)  # the note names the stage in use
        with qtbot.waitSignal(document.changed, timeout=2000):
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
        assert document.state.options.stage == shown.id
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()
