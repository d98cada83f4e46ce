"""The timeline panel through real widgets: cards computed from the data, stages that drive the
document (causal, heads, RoPE, sink), the keyboard, and the KV chart's bar heights."""

from __future__ import annotations

import html
import itertools
import math
import re
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication

from app.i18n import tr
from app.model.lesson.figures import lesson_figures
from app.model.memory import KIB
from app.model.timeline import STAGES, TRACKS, stage
from app.ui.format import format_bytes, format_claim, format_figure, format_number, format_score
from app.ui.language import apply_language
from app.ui.lesson_values import claim_text
from app.ui.panels.timeline import panel as timeline_panel
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
        assert claim_text(panel.document.data.frontier.claim(claim_id)) in text
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
    box = panel.rope.position_boxes[1]
    with qtbot.waitSignal(document.changed, timeout=2000):
        box.setValue(box.value() + 2)
    assert document.state.positions[1] == box.value()
    before = np.array(document.view.scores["dot"][0])
    positions = np.array(document.state.positions)
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(panel.rope.shift_button, Qt.MouseButton.LeftButton)
    assert np.array_equal(document.state.positions, positions + 1)
    after = np.array(document.view.scores["dot"][0])
    np.testing.assert_allclose(after, before, atol=1e-9)
    assert not np.allclose(document.view.q, document.view.raw_q)  # really rotated
    text = panel.rope.scores.text()
    assert "before +1" in text and "unchanged" in text
    assert [b.value() for b in panel.rope.position_boxes] == list(positions + 1)


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


def test_the_strip_wraps_its_chips_in_a_narrow_dock(qtbot, panel):
    """A projector's narrow dock shows every stage: the chips wrap into rows, none is cut
    off at the side, and the keyboard still walks through them in order."""
    panel.resize(420, 700)
    strip = panel.strip

    def inside(chip) -> bool:
        where = QRect(chip.mapTo(strip, QPoint(0, 0)), chip.size())
        return strip.rect().contains(where)

    qtbot.waitUntil(lambda: all(inside(chip) for chip in strip.chips.values()), timeout=2000)
    assert len({chip.y() for chip in strip.chips.values()}) > len(TRACKS)  # it wrapped
    start = strip.current
    qtbot.keyClick(strip, Qt.Key.Key_Right)
    assert strip.current == start + 1


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


def test_rope_page_shows_the_rope_off_score_beside_the_rotated_one(qtbot, panel):
    document = panel.document
    click_stage(qtbot, panel, "rope")
    view = document.view
    text = panel.rope.scores.text()
    assert "RoPE off" in text and "keeps every length" in text
    for j in range(len(view.key_names)):
        off, now = float(view.baseline["dot"][0, j]), float(view.scores["dot"][0, j])
        assert format_score(off) in text and f"<b>{format_score(now)}</b>" in text
        offset = document.state.positions[j + 1] - document.state.positions[0]
        assert format_number(offset) in text


def test_the_rope_frequency_box_changes_scores_not_lengths(qtbot, panel):
    document = panel.document
    click_stage(qtbot, panel, "rope")
    before_scores = np.array(document.view.scores["dot"][0])
    before_lengths = np.linalg.norm(document.view.k, axis=1)
    box = panel.rope.step_box
    with qtbot.waitSignal(document.changed, timeout=2000):
        box.setValue(0.25)
    assert document.state.options.rope_step == 0.25
    assert not np.allclose(document.view.scores["dot"][0], before_scores)
    np.testing.assert_allclose(np.linalg.norm(document.view.k, axis=1), before_lengths)
    assert format_number(0.25, 2) + " rad" in panel.rope.scores.text()
    assert "14.3°" in panel.rope.step_unit.text()  # 0.25 rad, computed, in the unit label
    document.undo_stack.undo()
    document.flush()
    assert document.state.options.rope_step == 1.0 and box.value() == 1.0


def test_a_card_quotes_the_live_bar_once_the_class_changes_the_vectors(qtbot, panel):
    document = panel.document
    click_stage(qtbot, panel, "causal")
    lesson = format_figure(panel.figures["masked_weight_apple"])
    assert lesson in plain(panel) and "the lesson:" not in plain(panel)  # unchanged: one number
    teaching = document.data.teaching
    row, obj = teaching.index("query"), teaching.index("object")
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", row, np.asarray(document.state.teaching_q[row]) * 2)
    bar = percent(float(document.view.weights[row][obj]))
    assert bar != lesson and bar in panel.live_label.text()
    card = plain(panel)
    assert f"<b>{bar}</b> (the lesson: {lesson})" in card
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", row, np.asarray(document.state.teaching_q[row]) * 1.5)
    newer = percent(float(document.view.weights[row][obj]))
    assert newer != bar and f"<b>{newer}</b>" in plain(panel) and bar not in plain(panel)


def test_each_generation_stage_moves_the_kv_chart(qtbot, panel):
    from app.model.timeline import kv_context
    from app.ui.panels.timeline.kv_chart import HIGHLIGHT

    chart, data = panel.kv, panel.document.data
    seen = []
    for item in (s for s in STAGES if s.panel == "kv"):
        click_stage(qtbot, panel, item.id)
        lit = chart.lit()
        assert lit == tuple(bar.id for bar in chart.bars if item.id in bar.stages) and lit
        assert chart.tokens == kv_context(item.id, data)
        drawn = [brush.color().name().lower() for brush in chart.items[WHOLE].opts["brushes"]]
        assert [c == HIGHLIGHT.lower() for c in drawn] == [b.id in lit for b in chart.bars]
        focus = chart.focus.text()
        whole = chart.bar_bytes(WHOLE)
        assert all(format_bytes(whole[bar_id]) in focus for bar_id in lit)
        seen.append((lit, chart.tokens, focus))
    assert all(a != b for a, b in itertools.pairwise(seen))  # every step changes the chart
    assert len({tokens for _, tokens, _ in seen}) > 1  # and the context moves with the card


def test_a_request_past_a_models_native_context_is_marked_hypothetical(qtbot, panel):
    click_stage(qtbot, panel, "gqa")
    chart = panel.kv
    ds67b = next(bar for bar in chart.bars if bar.model == "deepseek-llm-67b")
    native = panel.document.data.frontier.models["deepseek-llm-67b"].max_position_embeddings
    assert chart.tokens > native and chart.hypothetical(ds67b)
    assert "*" in chart.focus.text() and "hypothetical" in chart.focus.text()
    assert "hypothetical" in chart.describe(ds67b)
    anchor = next(bar for bar in chart.bars if bar.id == "anchor_gqa")
    assert not chart.hypothetical(anchor)  # the anchor's own native length


def test_both_dsv2_savings_read_as_savings_and_the_quantized_one_is_computed(qtbot, panel):
    click_stage(qtbot, panel, "mla")
    claim = panel.document.data.frontier.claim("dsv2_kv_reduction_vs_67b")
    assert claim.value < 0  # the report's own sign, kept in the data as published
    text = plain(panel)
    bf16 = format_figure(panel.figures["dsv2_vs_67b_reduction_pct"])
    assert f"<b>{bf16}</b> less" in text and "−" not in text  # one sign convention on screen
    reported = format_claim(replace(claim, value=-claim.value))
    assert panel.values["dsv2_quantized_reduction_pct"] == reported  # computed = reported
    assert f"<b>{format_number(claim.kv_bits)}</b> bits" in text


def test_provenance_is_shown_for_the_anchor_glm_and_the_lessons_own_claims(qtbot, panel):
    data = panel.document.data
    assert data.anchor.display_name == "Qwen3.8-27B"  # as the lesson names it, not an HF id
    assert data.anchor.config_of in panel.kv.source.text()
    assert data.anchor.display_name in panel.kv.source.text()
    glm = data.frontier.models["glm-5.3"]
    assert glm.provenance == "lesson"
    click_stage(qtbot, panel, "mla")
    assert html.escape(tr("provenance.lesson")) in plain(panel)
    glm_bar = next(i for i, bar in enumerate(panel.kv.bars) if bar.model == "glm-5.3")
    assert panel.kv._label(panel.kv.bars[glm_bar]).endswith("†")
    click_stage(qtbot, panel, "linear")
    assert data.frontier.claim("dsv41_global_kv_per_token").provenance == "lesson"
    assert html.escape(tr("provenance.lesson")) in plain(panel)
    click_stage(qtbot, panel, "gqa")
    native = format_number(data.frontier.models["deepseek-llm-67b"].max_position_embeddings)
    assert "hypothetical request" in plain(panel) and native in plain(panel)


def test_a_reshaped_world_names_the_cards_numbers_as_the_lessons(qtbot, panel):
    document = panel.document
    click_stage(qtbot, panel, "causal")
    tokens = tuple(document.data.teaching.tokens)
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.load_state(replace(document.state, teaching_tokens=tokens))
    assert document.state.reshaped
    lesson = format_figure(panel.figures["masked_weight_apple"])
    assert f"the lesson: <b>{lesson}</b>" in plain(panel)


def test_a_refresh_that_moves_none_of_the_cards_figures_writes_no_card(
        qtbot, panel, monkeypatch):
    """Every edit refreshes the timeline (its figures come from the class's vectors and
    options); the card is written out again only when what it says changed."""
    click_stage(qtbot, panel, "causal")
    written: list[object] = []
    real = timeline_panel.card_html
    monkeypatch.setattr(timeline_panel, "card_html",
                        lambda *args: (written.append(args), real(*args))[1])
    card = plain(panel)
    document = panel.document
    mode = "weights" if document.state.options.heatmap_mode == "scores" else "scores"
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_options(heatmap_mode=mode)
    assert written == [] and plain(panel) == card
    teaching = document.data.teaching
    row = teaching.index("query")
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", row, np.asarray(document.state.teaching_q[row]) * 2)
    assert len(written) == 1 and plain(panel) != card
