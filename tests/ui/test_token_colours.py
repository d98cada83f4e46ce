"""A token's colour follows the token, not its row: removing, adding, renaming a token
through the editor's controls leaves every other token in the colour it had, undo and redo
bring the colours back with the tokens, and a saved reshaped world opens in its colours."""

from __future__ import annotations

import json
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from app.model import reshape
from app.model.errors import ScenarioError
from app.model.lesson.data import load_lesson_data
from app.model.scenario import dumps, loads, state_to_dict
from app.model.view import initial_state
from app.ui.panels.editor.panel import EditorPanel

DATA = load_lesson_data()
LESSON_TOKENS = DATA.teaching.tokens


@pytest.fixture
def panel(open_panel):
    return open_panel(EditorPanel, (720, 640))


def shown_colours(panel: EditorPanel) -> dict[str, str]:
    """Each token's name → the colour its name label and both its charts are drawn in
    (the three must agree)."""
    panel.document.flush()
    colours = {}
    for token, label in enumerate(panel.name_labels):
        found = re.search(r"color:\s*(#[0-9A-Fa-f]{6})", label.styleSheet())
        assert found, label.styleSheet()
        colour = QColor(found.group(1)).name()
        for role in ("q", "k"):
            assert panel.charts[(role, token)].bars.colour.name() == colour
        colours[label.text().removeprefix("▶ ")] = colour
    return colours


def choose(panel: EditorPanel, name: str) -> None:
    combo = panel.reshape_bar.token_combo
    combo.setCurrentIndex(combo.findText(name))


def test_removing_a_token_leaves_every_other_token_its_colour(qtbot, panel):
    before = shown_colours(panel)
    assert len(set(before.values())) == len(LESSON_TOKENS)
    choose(panel, "把")
    qtbot.mouseClick(panel.reshape_bar.remove_button, Qt.MouseButton.LeftButton)
    after = shown_colours(panel)
    assert after == {name: c for name, c in before.items() if name != "把"}
    panel.document.undo_stack.undo()
    assert shown_colours(panel) == before
    panel.document.undo_stack.redo()
    assert shown_colours(panel) == after


def test_an_added_token_takes_the_free_colour_and_a_rename_keeps_it(qtbot, panel):
    before = shown_colours(panel)
    choose(panel, "苹果")
    qtbot.mouseClick(panel.reshape_bar.remove_button, Qt.MouseButton.LeftButton)
    bar = panel.reshape_bar
    qtbot.keyClicks(bar.name_edit, "pear")
    qtbot.mouseClick(bar.add_button, Qt.MouseButton.LeftButton)
    added = shown_colours(panel)
    assert added["pear"] == before["苹果"]  # the colour the removed token left
    assert {n: c for n, c in added.items() if n != "pear"} == {
        n: c for n, c in before.items() if n != "苹果"}
    choose(panel, "给了")
    bar.name_edit.clear()
    qtbot.keyClicks(bar.name_edit, "gave")
    qtbot.keyClick(bar.name_edit, Qt.Key.Key_Return)
    renamed = shown_colours(panel)
    assert renamed["gave"] == before["给了"]
    assert {n: c for n, c in renamed.items() if n != "gave"} == {
        n: c for n, c in added.items() if n != "给了"}


def test_a_saved_world_opens_in_its_own_colours():
    state = reshape.remove_token(initial_state(DATA), DATA, LESSON_TOKENS.index("把"))
    state = reshape.add_token(state, DATA, "pear")
    state = reshape.remove_token(state, DATA, 0)
    slots = reshape.colour_slots(state, DATA)
    assert slots == (2, 3, 4, 1)
    template = initial_state(DATA)
    back = loads(dumps(state), template)
    assert back == state and reshape.colour_slots(back, DATA) == slots


@pytest.mark.parametrize("colours", [[0, 0, 1, 2], [0, 1, 2], [0, 1, 2, -1], [0, 1, 2, True]])
def test_a_file_with_clashing_or_missing_colours_is_refused(colours):
    state = reshape.remove_token(initial_state(DATA), DATA, 1)
    saved = state_to_dict(state) | {"teaching_colours": colours}
    with pytest.raises(ScenarioError, match="teaching_colours"):
        loads(json.dumps(saved), initial_state(DATA))
