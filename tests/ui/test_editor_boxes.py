"""The 4-D editor's entry boxes hold their whole number: in every width d = 2 … 8 and with
few or many tokens, at the size the panel says it is readable at, at a laptop's desk and on
a projector's stage, no box is narrower than the widest number it can hold. A box narrower
than "-0.80" showed "-" alone."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication, QWidget
from screens import run_on_screens, screen

from app.model import reshape
from app.model.state import EDIT_LIMIT
from app.state.document import Document
from app.ui.panels.editor.bars import EntryBox
from app.ui.panels.editor.panel import EditorPanel

WIDTHS = range(reshape.MIN_DIM, reshape.MAX_DIM + 1)
COUNTS = (2, 5, 8)
WIDEST = -EDIT_LIMIT
"""The widest number a box can hold ("-100.00")."""


def settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def reshaped(document: Document, d: int, count: int) -> None:
    """The teaching world at width `d` with `count` tokens, every entry the widest number
    but one token's, which holds an ordinary negative one ("-0.80")."""
    document.set_dimension(d)
    while len(document.teaching_tokens()) > count:
        document.remove_token(len(document.teaching_tokens()) - 1)
    while len(document.teaching_tokens()) < count:
        document.add_token()
    for token in range(count):
        value = -0.8 if token == 1 else WIDEST
        for role in ("q", "k"):
            document.set_vector(role, token, np.full(d, value))
    document.flush()


def cut_boxes(root: QWidget) -> list[str]:
    """Every shown entry box whose text is wider than the room its line edit draws it in
    (its contents less the two pixels Qt keeps each side)."""
    cut = []
    for box in root.findChildren(EntryBox):
        if not box.isVisibleTo(root):
            continue
        edit = box.lineEdit()
        margins = edit.textMargins()
        room = QRectF(edit.contentsRect()).adjusted(margins.left() + 2, 0,
                                                    -margins.right() - 2, 0)
        advance = QFontMetricsF(edit.font()).horizontalAdvance(edit.displayText())
        if advance > room.width():
            cut.append(f"{box.objectName()} {edit.displayText()!r}: {advance:.1f} > "
                       f"{room.width():.1f}")
    return cut


def at_readable_size(panel: EditorPanel) -> None:
    for _ in range(3):  # asked again once the fonts and the layout have settled
        panel.resize(panel.readable_size())
        settle()


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("d", WIDTHS)
def test_at_its_readable_size_every_box_shows_its_whole_number(open_panel, d, count):
    panel = open_panel(EditorPanel, (720, 640))
    reshaped(panel.document, d, count)
    at_readable_size(panel)
    assert len(panel.charts) == 2 * count
    assert all(len(chart.boxes) == d for chart in panel.charts.values())
    assert not cut_boxes(panel), cut_boxes(panel)
    assert panel._scroll.horizontalScrollBar().maximum() == 0  # nothing off to the right


@pytest.mark.parametrize("d", [6, reshape.MAX_DIM])
def test_on_a_projectors_stage_every_box_shows_its_whole_number(open_panel, on_stage, d):
    """The stage's larger type at 100 %: the readable size fits a 1024×768 projector (k
    under q when the two side by side do not) and no number is cut there."""
    panel = open_panel(EditorPanel, (720, 640))
    reshaped(panel.document, d, 5)
    panel.offer_room(QSize(1024, 650))  # what a 1024×768 stage leaves a scene's panel
    on_stage(panel, 1.0)
    at_readable_size(panel)
    assert panel.readable_size().width() <= 1024
    assert not cut_boxes(panel), cut_boxes(panel)


def test_the_boxes_are_as_wide_as_their_widest_number_in_any_font(open_panel, present):
    """A box's least width follows its font: a zoom that grows the type grows the box."""
    from app.ui.look import Look

    panel = open_panel(EditorPanel, (720, 640))
    reshaped(panel.document, 8, 2)
    before = panel.charts[("q", 0)].boxes[0].minimumSizeHint().width()
    present(panel, Look().scaled(2.0))
    at_readable_size(panel)
    assert panel.charts[("q", 0)].boxes[0].minimumSizeHint().width() > 1.5 * before
    assert not cut_boxes(panel), cut_boxes(panel)


DESK = [screen("desk", 1366, 706)]
CHILD = r"""
import json
import numpy as np
from PySide6.QtWidgets import QApplication
from app.startup import build_window, make_application
from tests.ui.test_editor_boxes import cut_boxes, reshaped

make_application()
window = build_window("en")
window.resize(1366, 706)
window.show()
reshaped(window.document, 6, 5)
for _ in range(6):
    QApplication.processEvents()
editor = window.panels["editor"]
print("RESULT " + json.dumps({"shown": editor.isVisible(), "cut": cut_boxes(editor)}),
      flush=True)
window.dispose()
"""


def test_at_a_laptops_desk_a_six_wide_world_shows_every_number(tmp_path) -> None:
    """The tester's case: the main window at 1366×706 (a screen of that size, read by the
    offscreen platform when the application starts, hence a child), d = 6, five tokens."""
    seen = run_on_screens(tmp_path, DESK, CHILD)
    assert seen["shown"]
    assert not seen["cut"], seen["cut"]


def test_the_readable_size_is_a_real_floor(open_panel):
    """Narrower than its readable width, the boxes no longer fit beside each other without
    a scroll bar: the width reported is the one the boxes need, not a guess."""
    panel = open_panel(EditorPanel, (720, 640))
    reshaped(panel.document, reshape.MAX_DIM, 5)
    at_readable_size(panel)
    readable = panel.readable_size()
    panel.resize(QSize(readable.width() * 2 // 3, readable.height()))
    settle()
    assert panel._scroll.horizontalScrollBar().maximum() > 0
