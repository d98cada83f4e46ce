"""Reshaping the 4-D world through the editor's own controls: add, remove and rename a token,
change d; each one undo step that undo reverses exactly; the heatmap and the match table
follow; bad names are refused with a notice and change nothing. Plus the English glosses
beside tokens, the scorers a new width cannot use, and the reshaped-world note."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget

from app.i18n import tr
from app.model import reshape
from app.model.lesson.data import load_lesson_data
from app.model.scoring import SCORERS
from app.model.view import compute_view, initial_state
from app.state.document import Document
from app.ui.language import apply_language
from app.ui.notices import word
from app.ui.panels.editor.panel import EditorPanel
from app.ui.panels.guide.checklist import ChecklistTracker
from app.ui.panels.heatmap.panel import HeatmapPanel
from app.ui.panels.match.model import COLUMNS
from app.ui.panels.match.panel import MatchTablePanel
from app.ui.panels.playground.panel import PlaygroundPanel
from app.ui.widgets.reshaped_note import ReshapedNote
from app.ui.widgets.scorer_choice import mark_usable

DATA = load_lesson_data()
LESSON_TOKENS = DATA.teaching.tokens


@pytest.fixture
def panel(open_panel):
    return open_panel(EditorPanel, (720, 640))


def settle(panel: EditorPanel) -> None:
    """Run the document's coalesced recompute now, so the panels repaint."""
    panel.document.flush()


def one_step(qtbot, panel: EditorPanel, action) -> tuple:
    """Do `action` through the controls; returns (state before, state after) and checks it
    was exactly one undo step."""
    stack = panel.document.undo_stack
    before, count = panel.document.state, stack.count()
    action()
    settle(panel)
    assert stack.count() == count + 1, "one undo step per reshape"
    return before, panel.document.state


def undo_exactly(panel: EditorPanel, before) -> None:
    panel.document.undo_stack.undo()
    settle(panel)
    assert panel.document.state == before
    assert panel.tokens == reshape.tokens_of(before, DATA)
    assert len(panel.charts) == 2 * len(panel.tokens)


def test_add_a_named_token_with_the_keyboard(qtbot, panel):
    bar = panel.reshape_bar
    bar.name_edit.setFocus()
    qtbot.keyClicks(bar.name_edit, "banana")  # QTest types Latin-1 keys only
    before, after = one_step(qtbot, panel, lambda: qtbot.mouseClick(
        bar.add_button, Qt.MouseButton.LeftButton))
    assert after.teaching_tokens == (*LESSON_TOKENS, "banana")
    assert len(panel.charts) == 12 and panel.name_labels[-1].text() == "banana"
    assert bar.token_combo.currentText() == "banana" and bar.name_edit.text() == ""
    assert not after.teaching_q[-1].any() and not after.teaching_k[-1].any()
    undo_exactly(panel, before)


def test_add_without_a_name_numbers_it(qtbot, panel):
    _before, after = one_step(qtbot, panel, panel.reshape_bar.add_button.click)
    assert after.teaching_tokens[-1] == f"{tr('reshape.new_stem')}{len(LESSON_TOKENS) + 1}"


def test_remove_the_chosen_token(qtbot, panel):
    bar = panel.reshape_bar
    bar.token_combo.setCurrentIndex(0)  # 小明
    before, after = one_step(qtbot, panel, bar.remove_button.click)
    assert after.teaching_tokens == LESSON_TOKENS[1:]
    assert np.array_equal(after.teaching_q, before.teaching_q[1:])
    assert [label.text().removeprefix("▶ ") for label in panel.name_labels] == list(
        LESSON_TOKENS[1:])
    names = after.teaching_tokens  # the pair stays on the same tokens
    assert (names[after.query], names[after.key]) == (LESSON_TOKENS[before.query],
                                                      LESSON_TOKENS[before.key])
    undo_exactly(panel, before)


def test_rename_inline_with_enter(qtbot, panel):
    bar = panel.reshape_bar
    bar.token_combo.setCurrentIndex(4)  # 小王
    bar.name_edit.setText("小")  # QTest types Latin-1 keys only: the rest by keyboard
    qtbot.keyClicks(bar.name_edit, "Li")
    before, after = one_step(qtbot, panel, lambda: qtbot.keyClick(bar.name_edit,
                                                                  Qt.Key.Key_Return))
    assert after.teaching_tokens[4] == "小Li" and panel.name_labels[4].text() == "小Li"
    assert np.array_equal(after.teaching_q, before.teaching_q)
    undo_exactly(panel, before)


def test_change_d_with_the_spin_box(qtbot, panel):
    spin = panel.reshape_bar.dim_spin
    spin.setFocus()
    before, after = one_step(qtbot, panel, lambda: qtbot.keyClick(spin, Qt.Key.Key_Up))
    assert after.teaching_q.shape == (5, 5) and not after.teaching_k[:, 4].any()
    assert all(len(chart.boxes) == 5 for chart in panel.charts.values())
    assert after.reshaped
    undo_exactly(panel, before)
    assert all(len(chart.boxes) == 4 for chart in panel.charts.values())
    spin.setValue(2)
    settle(panel)
    assert panel.document.state.teaching_q.shape == (5, 2) and spin.value() == 2


@pytest.mark.parametrize(("typed", "key"), [
    ("苹果", "notice.token_name.taken"),
    ("x" * (reshape.MAX_NAME + 1), "notice.token_name.too_long"),
    (" 苹果", "notice.token_name.spaces"),
])
def test_bad_names_are_refused_with_a_notice_and_no_change(qtbot, panel, typed, key):
    bar = panel.reshape_bar
    bar.token_combo.setCurrentIndex(0)
    bar.name_edit.setText(typed)
    before, count = panel.document.state, panel.document.undo_stack.count()
    for button in (bar.rename_button, bar.add_button):
        button.click()
        settle(panel)
        assert panel.message.isVisible()
        assert panel.message.text() == tr(key, name=typed, limit=reshape.MAX_NAME)
        assert panel.document.state == before and panel.document.undo_stack.count() == count


def test_a_control_character_and_an_empty_name_are_refused(qtbot, panel):
    bar = panel.reshape_bar
    before = panel.document.state
    bar.name_edit.setText("a\tb")
    bar.rename_button.click()
    assert panel.message.text() == tr("notice.token_name.control")
    bar.name_edit.setText("")
    bar.rename_button.click()
    assert panel.message.text() == tr("notice.token_name.empty")
    assert panel.document.state == before


def test_the_document_refuses_too_few_tokens_and_a_bad_d(qtbot):
    document = Document(DATA)
    for _ in range(len(LESSON_TOKENS) - reshape.MIN_TOKENS):
        assert document.remove_token(0)
    with qtbot.waitSignal(document.notice) as notice:
        assert not document.remove_token(0)
    assert [word(notice.args[0])] == [tr("notice.tokens.too_few", low=reshape.MIN_TOKENS, high=32)]
    for d in (1, 9, 2.5):
        with qtbot.waitSignal(document.notice):
            assert not document.set_dimension(d)
    with qtbot.waitSignal(document.notice):
        assert not document.rename_token(7, "x")


def test_remove_is_disabled_at_the_minimum_and_add_at_the_maximum(qtbot, panel):
    document = panel.document
    while len(document.teaching_tokens()) > reshape.MIN_TOKENS:
        document.remove_token(0)
    settle(panel)
    assert not panel.reshape_bar.remove_button.isEnabled()
    while len(document.teaching_tokens()) < 32:
        document.add_token()
    settle(panel)
    assert not panel.reshape_bar.add_button.isEnabled()
    assert len(panel.name_labels) == 32


def test_heatmap_and_match_table_follow_the_new_tokens(qtbot, open_panel, panel):
    document = panel.document
    heatmap = open_panel(HeatmapPanel, (520, 560), document=document)
    match = open_panel(MatchTablePanel, (1200, 320), document=document)
    try:
        panel.reshape_bar.name_edit.setText("香蕉")
        panel.reshape_bar.add_button.click()
        panel.reshape_bar.token_combo.setCurrentIndex(0)
        panel.reshape_bar.remove_button.click()
        settle(panel)
        tokens = (*LESSON_TOKENS[1:], "香蕉")
        left = [name for _, name in heatmap.plot.getAxis("left")._tickLevels[0]]
        assert [name.split(" (")[0] for name in left] == list(tokens)
        assert match.model.rowCount() == len(tokens)
        shown = [match.model.index(row, COLUMNS.index("key")).data()
                 for row in range(len(tokens))]
        assert any("香蕉" in str(text) for text in shown)
        assert not any(LESSON_TOKENS[0] in str(text) for text in shown)
    finally:
        heatmap.worker.shutdown()


def test_english_shows_each_tokens_gloss_and_chinese_only_the_token(qtbot, panel):
    given = LESSON_TOKENS.index("给了")
    assert panel.gloss_labels[given].text() == "(gave)"
    assert panel.gloss_labels[given].isVisible()
    apply_language("zh")
    assert panel.gloss_labels[given].text() == "" and not panel.gloss_labels[given].isVisible()
    apply_language("en")
    panel.document.rename_token(given, "送了")  # a new name has no gloss in the data
    settle(panel)
    assert not panel.gloss_labels[given].isVisible()


def test_the_playground_shows_glosses_in_english(qtbot, open_panel):
    playground = open_panel(PlaygroundPanel, (900, 700))
    playground.document.set_world("dialogue")
    playground.document.flush()
    dialogue = DATA.dialogue
    key_text = playground.readouts.cells[0]["key"].text()
    assert f"{dialogue.key_tokens[0]} ({dialogue.key_glosses[0]})" in key_text
    assert f"{dialogue.query_token} ({dialogue.query_gloss})" in \
        playground.readouts.query_line.text()
    apply_language("zh")
    assert f"({dialogue.key_glosses[0]})" not in playground.readouts.cells[0]["key"].text()
    apply_language("en")


def test_scorers_without_fitting_weights_are_greyed_with_a_reason(qtbot):
    document = Document(DATA)
    combo = QComboBox()
    qtbot.addWidget(combo)
    combo.addItems(list(SCORERS))
    document.set_scorer("additive")
    document.flush()
    with qtbot.waitSignal(document.notice):
        document.set_dimension(6)
    document.flush()
    assert document.state.scorer == "dot"  # the additive weights are for d = 4
    mark_usable(combo, document)
    names = list(SCORERS)
    model = combo.model()
    for name in ("additive", "qk_norm"):
        assert not model.item(names.index(name)).isEnabled()
        assert "d = 4" in combo.itemData(names.index(name), Qt.ItemDataRole.ToolTipRole)
    assert model.item(names.index("cosine")).isEnabled()
    with qtbot.waitSignal(document.notice):
        document.set_scorer("additive")
    assert document.state.scorer == "dot"
    document.undo_stack.undo()
    document.flush()
    mark_usable(combo, document)
    assert model.item(names.index("additive")).isEnabled()
    assert combo.itemData(names.index("additive"), Qt.ItemDataRole.ToolTipRole) is None


def test_odd_d_goes_back_to_one_head_and_two_heads_are_refused_there(qtbot):
    document = Document(DATA)
    document.set_options(heads=2)
    with qtbot.waitSignal(document.notice):
        document.set_dimension(3)
    assert document.state.options.heads == 1
    with qtbot.waitSignal(document.notice):
        document.set_options(heads=2)
    assert document.state.options.heads == 1


def test_the_reshaped_note_appears_only_while_the_world_is_reshaped(qtbot):
    document = Document(DATA)
    page = QWidget()
    qtbot.addWidget(page)
    note = ReshapedNote(document, "note", page)
    page.show()
    assert not note.isVisible()
    document.add_token("香蕉")
    document.flush()
    assert note.isVisible() and str(len(LESSON_TOKENS)) in note.text()
    apply_language("en")  # the note follows a language switch
    assert note.text() == tr("lesson.reshaped_note", count=len(LESSON_TOKENS))
    apply_language("zh")
    assert note.text() == tr("lesson.reshaped_note", count=len(LESSON_TOKENS))
    document.undo_stack.undo()
    document.flush()
    assert not note.isVisible()


def test_switching_worlds_lands_on_the_lesson_pair_or_its_fallback(qtbot):
    document = Document(DATA)
    document.remove_token(DATA.teaching.index("object"))  # 苹果 goes
    document.set_world("dialogue")
    document.set_world("teaching")
    state = document.state
    assert state.teaching_tokens[state.query] == "给了" and state.key == 0


def test_back_in_a_reshaped_4d_world_a_scorer_without_weights_gives_way(qtbot):
    document = Document(DATA)
    document.set_dimension(6)
    document.set_world("dialogue")
    document.set_scorer("additive")  # the 2-D world has its own additive weights
    assert document.state.scorer == "additive"
    with qtbot.waitSignal(document.notice):
        document.set_world("teaching")
    assert document.state.scorer == "dot"


def test_the_checklist_finds_the_lesson_pair_by_name_in_a_reshaped_world():
    tracker = ChecklistTracker(DATA)
    state = reshape.remove_token(initial_state(DATA), DATA, 0)  # 小明 goes: all move up one
    old_pair = replace(state, query=tracker.pair[0], key=tracker.pair[1])
    assert 1 not in tracker.chosen(old_pair, compute_view(old_pair, DATA))
    moved = replace(state, query=tracker.pair[0] - 1, key=tracker.pair[1] - 1)
    assert 1 in tracker.chosen(moved, compute_view(moved, DATA))


def test_random_reshapes_undos_and_redos_keep_every_panel_in_step(qtbot):
    """A short soak of the whole window: reshapes mixed with undo, redo, world switches and
    selections; after each, the editor, heatmap and match table show the state's world."""
    from app.startup import build_window, make_application

    make_application()
    window = build_window("en")
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    document, rng = window.document, np.random.default_rng(17)
    try:
        for step in range(40):
            tokens = document.teaching_tokens()
            roll = rng.random()
            if roll < 0.2:
                document.add_token()
            elif roll < 0.35:
                document.remove_token(int(rng.integers(len(tokens))))
            elif roll < 0.45:
                document.rename_token(int(rng.integers(len(tokens))), f"w{step}")
            elif roll < 0.6:
                document.set_dimension(int(rng.integers(reshape.MIN_DIM, reshape.MAX_DIM + 1)))
            elif roll < 0.75:
                document.undo_stack.undo()
            elif roll < 0.85:
                document.undo_stack.redo()
            elif roll < 0.92:
                document.set_world(str(rng.choice(["teaching", "dialogue"])))
            else:
                document.select(int(rng.integers(len(tokens))), int(rng.integers(len(tokens))))
            document.flush()
            state = document.state
            if state.world != "teaching":
                continue
            tokens, d = reshape.tokens_of(state, DATA), state.teaching_q.shape[1]
            editor = window.show_panel("editor")
            assert editor.tokens == tokens and len(editor.charts) == 2 * len(tokens)
            for (role, token), chart in editor.charts.items():
                matrix = state.teaching_q if role == "q" else state.teaching_k
                assert [box.value() for box in chart.boxes] == [
                    round(float(v), 2) for v in matrix[token]]
            assert len(editor.charts[("q", 0)].boxes) == d
            heatmap = window.show_panel("heatmap")
            assert heatmap.cells.grid.values.shape == (len(tokens), len(tokens))
            assert window.show_panel("match").model.rowCount() == len(tokens)
            assert state.scorer in document.view.scores
    finally:
        window.show_panel("heatmap").worker.shutdown()


def test_two_heads_in_an_odd_world_are_refused_in_the_interface_language(qtbot):
    document = Document(DATA)
    document.set_dimension(5)
    with qtbot.waitSignal(document.notice) as notice:
        document.set_options(heads=2)
    assert [word(notice.args[0])] == [tr("notice.heads_odd_d", heads=2, d=5)]
    assert document.state.options.heads == 1
