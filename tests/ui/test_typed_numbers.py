"""A student's hands on the number boxes, through real keys and the real clipboard: what an
input method types is read as meant and said, anything else is refused under the box and
changes nothing (no undo step), Escape takes a typed value back, leaving a box commits it,
and a pasted row fills a vector."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QAction, QInputMethodEvent, QKeySequence
from PySide6.QtWidgets import QApplication

from app.i18n import tr
from app.model.state import EDIT_LIMIT
from app.model.typed_number import read_number
from app.ui.format import format_number
from app.ui.language import apply_language
from app.ui.panels.editor.panel import EditorPanel
from app.ui.panels.shapes.panel import ShapesPanel
from app.ui.widgets.number_box import NumberNote, note_area, quoted

GIVEN = 3  # 给了, the lesson's query
ENTRY_ACCEPTS = ("typed.accepts", {"low": format_number(-EDIT_LIMIT),
                                   "high": format_number(EDIT_LIMIT)})


@pytest.fixture
def panel(open_panel):
    return open_panel(EditorPanel, (720, 640))


def typed(qtbot, box, text: str, key: Qt.Key | None = Qt.Key.Key_Return) -> None:
    """Click into the box, replace its text by typing `text` (what is not ASCII committed
    by an input method, as a Chinese IME does), then press `key`."""
    box.setFocus()
    box.selectAll()
    if text.isascii():
        qtbot.keyClicks(box.lineEdit(), text)
    else:
        event = QInputMethodEvent()
        event.setCommitString(text)
        QApplication.sendEvent(box.lineEdit(), event)
    assert box.lineEdit().text() == text  # held as typed, nothing dropped
    if key is not None:
        qtbot.keyClick(box.lineEdit(), key)


def settle(panel) -> None:
    panel.document.flush()
    QApplication.processEvents()


def accepts() -> str:
    key, values = ENTRY_ACCEPTS
    return tr(key, **values)


def shown_note(box):
    """The note that speaks of `box`, checked to be shown."""
    note = NumberNote.near(box)
    assert note is not None and note.isVisible() and note.box is box
    return note


def entry(panel: EditorPanel, dim: int = 1):
    return panel.charts[("q", GIVEN)].boxes[dim]


@pytest.mark.parametrize(("text", "value"), [
    ("1,5", 1.5), ("１．５", 1.5), ("－２", -2.0), ("1。25", 1.25), ("-0,75", -0.75),
])
def test_a_decimal_comma_and_full_width_input_are_read_as_meant_and_said(qtbot, panel, text,
                                                                         value):
    document, box = panel.document, entry(panel)
    steps = document.undo_stack.count()
    with qtbot.waitSignal(document.changed, timeout=2000):
        typed(qtbot, box, text)
    settle(panel)
    assert document.state.teaching_q[GIVEN, 1] == value  # never 15, never dropped
    assert document.undo_stack.count() == steps + 1
    assert box.text() == box.textFromValue(value)
    assert shown_note(box).text() == tr("typed.read_as", typed=text,
                                        value=box.textFromValue(value))


def refusal(text: str) -> str:
    """What the catalogue says for `text` typed into a vector entry."""
    reading = read_number(text, -EDIT_LIMIT, EDIT_LIMIT)
    one, other = reading.meanings or (0.0, 0.0)
    keys = {"hex": "typed.hex", "not_number": "typed.not_number", "several": "typed.several",
            "ambiguous": "typed.ambiguous", "grouped": "typed.grouped", "mixed": "typed.mixed",
            "range": "typed.range", "empty": "typed.empty"}
    return tr(keys[reading.problem], typed=quoted(text), accepts=accepts(),
              count=len(reading.parts), one=f"{one:g}", other=f"{other:g}")


@pytest.mark.parametrize("text", [
    "0x10", "hello world", "1,500.2", "1,500", "1.500,2", "nan", "-inf", "150", "1e999",
])
def test_what_cannot_be_read_is_refused_under_the_box_and_changes_nothing(qtbot, panel, text):
    document, box = panel.document, entry(panel)
    before, steps, shown = document.state, document.undo_stack.count(), box.text()
    typed(qtbot, box, text)
    settle(panel)
    assert document.state == before
    assert document.undo_stack.count() == steps  # a refusal is no undo step
    assert box.text() == shown  # the box shows the value the document holds
    note = shown_note(box)
    assert note.text() == refusal(text)
    assert quoted(text) in note.text()


def test_the_refusal_speaks_the_language_on_screen(qtbot, panel):
    apply_language("zh")
    box = entry(panel)
    typed(qtbot, box, "0x10")
    said = shown_note(box).text()
    assert said == refusal("0x10")
    apply_language("en")
    assert refusal("0x10") != said
    assert not NumberNote.near(box).isVisible()  # its words were Chinese


def test_the_note_sits_under_its_box_and_goes_away_on_the_next_valid_edit(qtbot, panel):
    document, box = panel.document, entry(panel, 2)
    typed(qtbot, box, "abc")
    note = shown_note(box)
    area = note_area(box)
    under = QRect(box.mapTo(area, QPoint(0, 0)), box.size())
    assert 0 <= note.y() - under.bottom() <= 4 or 0 <= under.top() - note.geometry().bottom() <= 4
    assert note.geometry().left() <= under.right() and note.geometry().right() >= under.left()
    assert area.visibleRegion().boundingRect().contains(note.geometry())
    with qtbot.waitSignal(document.changed, timeout=2000):
        typed(qtbot, box, "0.5")
    assert not note.isVisible()


def test_a_six_hundred_digit_number_is_quoted_short_and_the_note_stays_in_a_narrow_dock(
        qtbot, open_panel):
    panel = open_panel(EditorPanel, (300, 640))
    box = panel.charts[("k", GIVEN)].boxes[panel._dims - 1]  # the rightmost box
    settle(panel)
    panel._scroll.ensureWidgetVisible(box)
    text = "9" * 600
    before = panel.document.state
    typed(qtbot, box, text)
    settle(panel)
    assert panel.document.state == before
    note = shown_note(box)
    assert text not in note.text() and quoted(text) in note.text()
    assert len(quoted(text)) < 30
    seen = note_area(box).visibleRegion().boundingRect()
    assert seen.contains(note.geometry())
    assert note.heightForWidth(note.width()) <= note.height()  # wrapped, not cut off


def test_escape_takes_the_typed_value_back_and_leaving_the_box_then_commits_nothing(
        qtbot, panel):
    document, box = panel.document, entry(panel)
    before, steps, shown = document.state, document.undo_stack.count(), box.text()
    typed(qtbot, box, "2.5", key=Qt.Key.Key_Escape)
    assert box.text() == shown
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Tab)  # focus moves on
    settle(panel)
    assert not box.hasFocus()
    assert document.state == before and document.undo_stack.count() == steps


def test_escape_in_a_box_takes_back_first_and_only_then_reaches_the_windows_shortcut(
        qtbot, panel):
    """On the stage Escape also leaves presentation mode (a window shortcut): a typed value
    is taken back first, and the next Escape leaves."""
    left = []
    leave = QAction(panel)
    leave.setShortcut(QKeySequence(Qt.Key.Key_Escape))
    leave.triggered.connect(lambda: left.append(True))
    panel.addAction(leave)
    box = entry(panel)
    shown = box.text()
    typed(qtbot, box, "2.5", key=Qt.Key.Key_Escape)
    assert box.text() == shown and not left
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Escape)
    assert left == [True]


def test_leaving_the_box_commits_what_was_typed_as_a_spreadsheet_does(qtbot, panel):
    document, box = panel.document, entry(panel)
    steps = document.undo_stack.count()
    typed(qtbot, box, "0.75", key=None)
    with qtbot.waitSignal(document.changed, timeout=2000):
        entry(panel, 2).setFocus()  # the student clicks elsewhere
    settle(panel)
    assert document.state.teaching_q[GIVEN, 1] == 0.75
    assert document.undo_stack.count() == steps + 1


def paste(qtbot, box, text: str) -> None:
    QApplication.clipboard().setText(text)
    box.setFocus()
    box.selectAll()
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert box.lineEdit().text() == text  # pasted whole, nothing dropped
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)


def test_a_pasted_row_of_d_numbers_fills_the_vector_in_one_undo_step(qtbot, panel):
    document = panel.document
    before, steps = document.state, document.undo_stack.count()
    row = [1.5, 2.5, -3.5, 4.5][:panel._dims]
    with qtbot.waitSignal(document.changed, timeout=2000):
        paste(qtbot, entry(panel, 2), ", ".join(map(str, row)))
    settle(panel)
    assert np.array_equal(document.state.teaching_q[GIVEN], row)
    assert document.undo_stack.count() == steps + 1
    assert [box.value() for box in panel.charts[("q", GIVEN)].boxes] == row
    document.undo_stack.undo()
    settle(panel)
    assert document.state == before


def test_a_pasted_row_of_another_length_is_refused_with_the_counts(qtbot, panel):
    document, box = panel.document, entry(panel)
    before, steps = document.state, document.undo_stack.count()
    text = "\t".join(["1.5"] * (panel._dims - 1))  # cells copied from a spreadsheet
    paste(qtbot, box, text)
    settle(panel)
    assert document.state == before and document.undo_stack.count() == steps
    assert shown_note(box).text() == tr("typed.row_count", typed=quoted(text),
                                        count=panel._dims - 1, d=panel._dims)


def test_a_pasted_row_with_a_word_in_it_names_the_word(qtbot, panel):
    document, box = panel.document, entry(panel)
    before = document.state
    paste(qtbot, box, "1.5, 2.5, 0x3, 4.5")
    settle(panel)
    assert document.state == before
    assert shown_note(box).text() == refusal("0x3")


def test_whole_number_boxes_read_their_own_thousands_and_refuse_a_fraction(qtbot, open_panel):
    panel = open_panel(ShapesPanel, (1200, 360))
    spin = panel.spin
    typed(qtbot, spin, "4,096")
    assert panel.T == 4096
    before = panel.T
    typed(qtbot, spin, "1,5")
    assert before == panel.T
    assert shown_note(spin).text() == tr(
        "typed.whole", typed="1,5", accepts=tr(
            "typed.accepts_whole", low=format_number(spin.minimum()),
            high=format_number(spin.maximum())))
    d_a = panel.d_a_spin.value()
    typed(qtbot, panel.d_a_spin, "0x10")
    assert panel.d_a_spin.value() == d_a  # not 10, not 16
    assert quoted("0x10") in shown_note(panel.d_a_spin).text()


def test_the_width_d_box_says_why_a_width_past_its_range_changed_nothing(qtbot, panel):
    spin = panel.reshape_bar.dim_spin
    before, steps = panel.document.state, panel.document.undo_stack.count()
    typed(qtbot, spin, str(spin.maximum() + 1))  # a QSpinBox dropped this keystroke unsaid
    settle(panel)
    assert panel.document.state == before and panel.document.undo_stack.count() == steps
    assert format_number(spin.maximum()) in shown_note(spin).text()


def test_the_note_goes_with_a_removed_tokens_box(qtbot, panel):
    document = panel.document
    last = len(panel.tokens) - 1
    box = panel.charts[("k", last)].boxes[0]
    typed(qtbot, box, "abc")
    note = shown_note(box)
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.remove_token(last)
    settle(panel)
    assert not note.isVisible()


def test_a_value_set_is_taken_without_reading_its_text_and_reads_back_as_itself(
        qtbot, panel, monkeypatch):
    """Setting a value (a drag step sets four boxes) makes Qt check the box's new text: the
    box's own text of its value is acceptable at once, and it is one a reader takes."""
    box = panel.charts[("k", 0)].boxes[0]
    reads: list[str] = []
    real = type(box.entry).read
    monkeypatch.setattr(type(box.entry), "read",
                        lambda entry, text: (reads.append(text), real(entry, text))[1])
    for value in (-EDIT_LIMIT, -1.5, 0.0, 0.25, EDIT_LIMIT):
        box.setValue(value)
        assert box.lineEdit().text() == box.entry.shown()
        assert read_number(box.entry.shown(), box.minimum(), box.maximum()).value == value
    assert reads == []
    typed(qtbot, box, "1,5")  # typed text is read as ever
    assert "1,5" in reads and box.value() == 1.5
