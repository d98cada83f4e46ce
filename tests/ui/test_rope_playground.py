"""The 2-D playground with RoPE on: the table's q·k are the rotated scores, and a note beside
them gives every key's RoPE-off q·k, which follows the chosen frequency's baseline exactly."""

from __future__ import annotations

import pytest

from app.i18n import tr
from app.ui.format import format_score
from app.ui.panels.playground.panel import PlaygroundPanel


@pytest.fixture
def panel(open_2d_panel):
    return open_2d_panel(PlaygroundPanel, (640, 760))


def test_rope_on_shows_the_rope_off_scores_beside_the_rotated_ones(qtbot, panel):
    document, readouts = panel.document, panel.readouts
    assert readouts.help_line.text() == tr("playground.help")
    off = [format_score(float(v)) for v in document.view.scores["dot"][0]]
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_options(rope=True, rope_step=0.5)
    now = [float(v) for v in document.view.scores["dot"][0]]
    note = readouts.help_line.text()
    assert all(score in note for score in off) and "RoPE is on" in note
    assert [cell["dot"].text() for cell in readouts.cells] == [format_score(v) for v in now]
    assert [format_score(v) for v in now] != off
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_options(rope=False)
    assert readouts.help_line.text() == tr("playground.help")
