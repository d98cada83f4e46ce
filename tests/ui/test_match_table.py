"""The "three kinds of match" table through real widgets: header sorting by number, picking a
row, the additive column toggle, highlighted disagreements with their reasons, undefined cosine."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFont

from app.ui.format import format_length_ratio, format_score, shown_name
from app.ui.language import apply_language
from app.ui.look import DARK, Look
from app.ui.panels.match.model import ADDITIVE_COLUMNS, COLUMNS, SORT_ROLE
from app.ui.panels.match.panel import MatchTablePanel, reason_text
from app.ui.widgets.stage_text import WORD_JOINER


@pytest.fixture
def panel(open_panel):
    return open_panel(MatchTablePanel, (1200, 320))


def click_header(qtbot, panel: MatchTablePanel, column: str) -> None:
    header = panel.table.horizontalHeader()
    section = COLUMNS.index(column)
    x = header.sectionViewportPosition(section) + header.sectionSize(section) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(x, header.height() // 2))


def shown_keys(panel: MatchTablePanel) -> list[int]:
    """Source rows (key indices) in the order the table shows them."""
    proxy = panel.proxy
    return [proxy.mapToSource(proxy.index(r, 0)).row() for r in range(proxy.rowCount())]


def cell_text(panel: MatchTablePanel, key: int, column: str) -> str:
    return panel.model.index(key, COLUMNS.index(column)).data()


def test_clicking_a_header_sorts_by_the_number_not_the_text(qtbot, panel):
    document = panel.document
    row = document.state.query
    # One key far away makes a two-digit dot product: "12.00" sorts before "3.00" as text.
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("k", 0, document.view.k[0] * 4)
    dots = np.ma.filled(document.view.scores["dot"][row], np.nan)
    texts = [cell_text(panel, j, "dot") for j in range(len(dots))]
    numeric = list(np.argsort(dots, kind="stable"))
    assert sorted(range(len(texts)), key=texts.__getitem__) != numeric  # the test can fail
    click_header(qtbot, panel, "dot")
    assert shown_keys(panel) == numeric
    click_header(qtbot, panel, "dot")
    assert shown_keys(panel) == numeric[::-1]
    click_header(qtbot, panel, "cosine_rank")
    ranks = document.view.row_ranks["cosine"]
    assert [ranks[j] for j in shown_keys(panel)] == sorted(ranks)


def test_picking_a_row_selects_that_key_everywhere(qtbot, panel):
    document = panel.document
    click_header(qtbot, panel, "dot")  # a sorted view: proxy row ≠ key index
    keys = shown_keys(panel)
    target_row = next(r for r in range(len(keys) - 1)
                      if keys[r] != document.state.key and keys[r] != r)
    rect = panel.table.visualRect(panel.proxy.index(target_row, COLUMNS.index("dot")))
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert document.state.key == keys[target_row]
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.keyClick(panel.table, Qt.Key.Key_Down)
    assert document.state.key == keys[target_row + 1]


def test_a_selection_made_elsewhere_shows_without_echo(qtbot, panel):
    document = panel.document
    steps = document.undo_stack.count()
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.select(key=0)
    current = panel.table.selectionModel().currentIndex()
    assert panel.proxy.mapToSource(current).row() == 0
    assert document.undo_stack.count() == steps  # a selection is no undo step, not even one


def test_additive_column_toggles_through_the_document(qtbot, panel):
    document = panel.document
    assert all(panel.table.isColumnHidden(c) for c in ADDITIVE_COLUMNS)
    with qtbot.waitSignal(document.changed, timeout=2000):
        qtbot.mouseClick(panel.additive_box, Qt.MouseButton.LeftButton,
                         pos=QPoint(8, panel.additive_box.height() // 2))
    assert document.state.options.show_additive is True
    assert not any(panel.table.isColumnHidden(c) for c in ADDITIVE_COLUMNS)
    row = document.state.query
    additive = document.view.scores["additive"][row]
    index = panel.model.index(2, ADDITIVE_COLUMNS[0])
    assert index.data(SORT_ROLE) == pytest.approx(float(additive[2]))
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.undo_stack.undo()
    assert not panel.additive_box.isChecked()
    assert all(panel.table.isColumnHidden(c) for c in ADDITIVE_COLUMNS)


def test_given_row_highlights_a_dot_cosine_swap_with_its_ratio(qtbot, panel):
    view = panel.document.view
    assert view.query_names[panel.document.state.query] == "给了"
    by_cosine = [r for r in view.reasons.reasons if r.other == "cosine"]
    assert by_cosine, "the lesson promises a dot/cosine disagreement for 给了"
    reason = by_cosine[0]
    a, b = reason.dot_winner, reason.other_winner
    lengths = sorted(np.linalg.norm(view.k[j]) for j in (a, b))  # computed independently
    ratio = lengths[1] / lengths[0]
    assert reason.ratio == pytest.approx(ratio)
    for key in (a, b):
        index = panel.model.index(key, COLUMNS.index("dot"))
        assert index.data(Qt.ItemDataRole.BackgroundRole) is not None
        assert index.data(Qt.ItemDataRole.FontRole).bold()
        assert format_length_ratio(ratio) in index.data(Qt.ItemDataRole.ToolTipRole)
    unflagged = set(range(len(view.key_names))) - view.reasons.flagged
    for key in unflagged:
        assert panel.model.index(key, 2).data(Qt.ItemDataRole.BackgroundRole) is None
    text = panel.reasons.text().replace(WORD_JOINER, "")  # it only holds a name whole
    assert view.key_names[a] in text and view.key_names[b] in text
    assert f"{format_length_ratio(ratio)}×" in text
    apply_language("zh")
    panel.retranslate()
    assert f"{format_length_ratio(ratio)} 倍" in panel.reasons.text()
    assert "余弦" in panel.reasons.text()


def test_undefined_cosine_shows_a_dash_with_a_reason_and_sorts_last(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("k", 1, [0.0, 0.0, 0.0, 0.0])
    index = panel.model.index(1, COLUMNS.index("cosine"))
    assert index.data() == "—"
    assert "direction" in index.data(Qt.ItemDataRole.ToolTipRole)
    assert panel.model.index(1, COLUMNS.index("cosine_rank")).data() == "—"
    click_header(qtbot, panel, "cosine")
    assert shown_keys(panel)[-1] == 1
    click_header(qtbot, panel, "cosine")
    assert shown_keys(panel)[-1] == 1


def test_presentation_scale_enlarges_the_numbers(qtbot, panel, present):
    base = panel.table.font().pointSizeF()
    assert base >= 12
    present(panel, Look(scale=2.0))
    assert panel.table.font().pointSizeF() == pytest.approx(2 * base)
    font = panel.model.index(0, COLUMNS.index("dot")).data(Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.pointSizeF() == pytest.approx(2 * base)
    flagged = min(panel.document.view.reasons.flagged)
    index = panel.model.index(flagged, COLUMNS.index("dot"))
    light = index.data(Qt.ItemDataRole.BackgroundRole).lightness()
    present(panel, Look(scale=2.0, theme=DARK))
    dark = index.data(Qt.ItemDataRole.BackgroundRole).lightness()
    assert dark < 128 < light  # the highlight stays readable on a dark theme


def test_the_panel_opens_at_its_top_whichever_row_is_current(qtbot, open_panel):
    """Scene 13 opened the table scrolled to its last row: a panel shown again (a scene
    shows its docks afresh) starts at its caption and first row, with the last key current."""
    from PySide6.QtWidgets import QApplication

    panel = open_panel(MatchTablePanel, (420, 160))
    last = len(panel.document.view.key_names) - 1
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.select(key=last)
    bar = panel.scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    panel.hide()
    panel.show()
    qtbot.waitUntil(lambda: bar.value() == 0)
    QApplication.processEvents()
    assert bar.value() == 0 and panel.table.verticalScrollBar().value() == 0
    assert panel.proxy.mapToSource(panel.table.currentIndex()).row() == last
    assert panel.caption.mapTo(panel, panel.caption.rect().topLeft()).y() >= 0


def test_two_distances_a_reason_compares_read_apart_when_they_round_alike(qtbot, panel):
    """A drag can bring the two distances within a rounding ("2.19 < 2.19" read as a slip):
    they get a decimal more, and two that differ plainly keep two."""
    view = panel.document.view
    names = tuple(shown_name(name) for name in view.key_names)
    reason = next(r for r in view.reasons.reasons if r.other == "neg_euclidean")
    plain = reason_text(reason, names)
    assert all(format_score(-score) in plain for score in reason.other_scores)
    middle = round(-reason.other_scores[1], 2)
    near, far = middle - 0.001, middle + 0.002  # both print as `middle` with two decimals
    assert format_score(near) == format_score(far)
    text = reason_text(replace(reason, other_scores=(-near, -far)), names)
    assert format_score(near, 3) in text and format_score(far, 3) in text
    assert format_score(near, 3) != format_score(far, 3)
