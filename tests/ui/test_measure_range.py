"""The guide's measure box and the lesson's T = 4,096: it takes it (the additive blocks stay a
few hundred MiB, never the 8 GiB tensor), and a number past its range is refused where it
is typed, with the range said, instead of losing its last digit unsaid (4096 became 409)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from app.i18n import tr
from app.model.lesson.figures import EXAMPLE
from app.model.measure import CHUNK_BYTES, DTYPE, MAX_D_A, MAX_T, MIN_T
from app.ui.format import format_number
from app.ui.widgets.number_box import NumberNote


def type_into(qtbot, spin, text: str) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Return)


def test_the_lessons_sizes_are_taken_as_typed(qtbot, box):
    T, d_a = EXAMPLE["rnn_T"], EXAMPLE["additive_d_a"]
    assert T <= MAX_T and d_a <= MAX_D_A
    # one query's T × dₐ block fits a chunk: the run holds chunks, never T × T × dₐ at once
    assert T * d_a * np.dtype(DTYPE).itemsize <= CHUNK_BYTES
    type_into(qtbot, box.t_box, str(T))
    type_into(qtbot, box.d_box, str(d_a))
    assert (box.t_box.value(), box.d_box.value()) == (T, d_a)
    assert NumberNote.near(box.t_box) is None  # nothing to say


def test_a_number_past_the_range_is_refused_and_the_range_said(qtbot, box):
    before = box.t_box.value()
    typed = str(MAX_T * 10)
    type_into(qtbot, box.t_box, typed)
    assert box.t_box.value() == before  # unchanged, not a truncated 4096 → 409
    note = NumberNote.near(box.t_box)
    assert note.isVisible() and note.box is box.t_box
    accepts = tr("typed.accepts_whole", low=format_number(MIN_T), high=format_number(MAX_T))
    assert note.text() == tr("typed.range", typed=typed, accepts=accepts)
    type_into(qtbot, box.t_box, "512")
    assert box.t_box.value() == 512 and not note.isVisible()


def test_the_range_of_d_a_is_said_too(qtbot, box):
    type_into(qtbot, box.d_box, str(MAX_D_A + 1))
    note = NumberNote.near(box.d_box)
    assert note.isVisible() and note.box is box.d_box
    assert format_number(MAX_D_A) in note.text()
    assert box.d_box.toolTip() == tr("guide.measure.range_tip", low=format_number(1),
                                     high=format_number(MAX_D_A))
