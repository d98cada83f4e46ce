"""The legibility probe (legibility.py) catches what it must and passes what it must: small
widgets built here, so it cannot pass by accident, then one walk over the real main window."""

from __future__ import annotations

import time
from collections import Counter

import legibility
import pyqtgraph as pg
import pytest
from legibility import (
    Seen,
    broken_inside,
    clipped,
    font_px,
    overlapping,
    report,
    scroll_bars_showing,
    seen_texts,
    too_small,
)
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTabBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

TOKENS = ("小明", "苹果", "给了")


def px_font(px: int) -> QFont:
    font = QFont()
    font.setPixelSize(px)
    return font


@pytest.fixture
def stage(qtbot):
    """An empty top widget (no layout: children go exactly where a test puts them)."""

    def make(width: int = 400, height: int = 300) -> QWidget:
        top = QWidget()
        qtbot.addWidget(top)
        top.resize(width, height)
        return top

    return make


def shown(qtbot, top: QWidget) -> QWidget:
    """Shown, exposed and laid out (a scroll area settles its bars on posted events)."""
    top.show()
    qtbot.waitExposed(top)
    QApplication.sendPostedEvents()
    QApplication.processEvents()
    return top


def only(seen: list[Seen], text: str) -> Seen:
    matches = [s for s in seen if s.text == text]
    assert len(matches) == 1, report(seen, f"expected one {text!r} in:")
    return matches[0]


class Painted(QWidget):
    """Draws its text in Python, as the app's diagrams do, at a pixel size and a scale."""

    def __init__(self, text: str, px: int, scale: float = 1.0, parent: QWidget | None = None):
        super().__init__(parent)
        self.text, self.px, self.scale = text, px, scale

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.scale(self.scale, self.scale)
        painter.setFont(px_font(self.px))
        painter.drawText(QPointF(5, 20), self.text)
        painter.end()


class SelfPaintingLabel(QLabel):
    """A QLabel that also paints its own text in Python: one text, not two."""

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setFont(self.font())
        painter.drawText(QRectF(self.rect()), int(self.alignment()), self.text())
        painter.end()


# ---- sizes ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("px", "small"), [(12, True), (20, False)])
def test_a_label_is_measured_at_its_font_size(qtbot, stage, px, small) -> None:
    top = stage()
    label = QLabel("q·k = 10", top)
    label.setFont(px_font(px))
    label.move(10, 10)
    seen = only(seen_texts(shown(qtbot, top)), "q·k = 10")
    assert seen.px == pytest.approx(px * top.devicePixelRatioF())
    assert seen.source == "widget" and seen.visible and not seen.clipped
    assert (seen in too_small([seen])) == small


def make_kinds(top: QWidget) -> dict[str, QWidget]:
    """One of each widget whose text Qt draws in C++, stacked down `top`."""
    combo = QComboBox()
    combo.addItems(["scaled dot", "cosine"])
    edit = QLineEdit("4096")
    box = QGroupBox("Group title")
    tabs = QTabBar()
    tabs.addTab("Tab one")
    table = QTableWidget(1, 1)
    table.setHorizontalHeaderLabels(["Header"])
    table.setItem(0, 0, QTableWidgetItem("3.68"))
    table.setFixedHeight(120)
    table.verticalHeader().hide()
    kinds = {"Push me": QPushButton("Push me"), "Check me": QCheckBox("Check me"),
             "scaled dot": combo, "4096": edit, "Group title": box, "Tab one": tabs,
             "Header": table.horizontalHeader(), "3.68": table}
    layout = QVBoxLayout(top)
    for widget in dict.fromkeys(kinds.values()):
        layout.addWidget(widget)
    return kinds


@pytest.mark.parametrize("px", [12, 20])
def test_every_kind_of_widget_text_is_measured(qtbot, stage, px) -> None:
    top = stage(400, 600)
    top.setFont(px_font(px))
    kinds = make_kinds(top)
    seen = seen_texts(shown(qtbot, top))
    for text, widget in kinds.items():
        found = only(seen, text)
        assert found.px == pytest.approx(px), text
        assert found.owner is widget, text
        assert top.rect().contains(found.rect.toRect()), text
    assert {s.text for s in too_small(seen)} == (set(kinds) if px == 12 else set())


def test_a_table_cell_takes_its_models_font(qtbot, stage) -> None:
    top = stage()
    top.setFont(px_font(20))
    table = QTableWidget(1, 2, top)
    table.resize(380, 200)
    small = QTableWidgetItem("0.71")
    small.setFont(px_font(11))
    table.setItem(0, 0, small)
    table.setItem(0, 1, QTableWidgetItem("−2.19"))
    seen = seen_texts(shown(qtbot, top))
    assert [s.text for s in too_small(seen)] == ["0.71"]
    assert only(seen, "−2.19").px == pytest.approx(20)


def test_rich_text_is_read_as_shown_at_its_smallest_letters(qtbot, stage) -> None:
    top = stage()
    top.setFont(px_font(24))
    label = QLabel("<b>S</b> = QK<sup>T</sup>, <span style='font-size:12px'>small</span>", top)
    label.move(10, 10)
    seen = only(seen_texts(shown(qtbot, top)), "S = QKT, small")
    assert seen.px == pytest.approx(12)
    assert seen.script_px == pytest.approx(16)  # two thirds of 24 px
    assert too_small([seen], least_px=10, script_least_px=18) == [seen]


@pytest.mark.parametrize(("px", "scale", "small"), [(10, 1.0, True), (24, 1.0, False),
                                                    (10, 2.0, False)])
def test_text_painted_in_python_is_measured_where_it_is_painted(qtbot, stage, px, scale,
                                                                 small) -> None:
    top = stage()
    holder = QWidget(top)
    holder.setGeometry(30, 40, 300, 200)
    Painted("= 4.4", px, scale, holder).setGeometry(10, 20, 250, 100)
    seen = only(seen_texts(shown(qtbot, top)), "= 4.4")
    assert seen.source == "painted" and "Painted" in seen.where
    assert seen.px == pytest.approx(px * scale)
    # drawn at (5, 20) in a widget at (40, 60) of top, scaled: its box starts there
    assert seen.rect.left() == pytest.approx(40 + 5 * scale, abs=0.5)
    assert seen.rect.bottom() > 60 + 20 * scale > seen.rect.top()
    assert (seen in too_small([seen])) == small


def test_the_painters_are_given_back_even_when_recording_fails(qtbot, stage,
                                                               monkeypatch) -> None:
    top = stage()
    Painted("x", 20, parent=top).resize(100, 50)
    shown(qtbot, top)
    originals = (QPainter.drawText, QPainter.drawStaticText)

    def fail(*_args: object) -> None:
        raise RuntimeError("probe failed")

    monkeypatch.setattr(legibility._Recorder, "text", fail)
    with pytest.raises(RuntimeError, match="probe failed"):
        seen_texts(top)
    assert (QPainter.drawText, QPainter.drawStaticText) == originals


def test_a_plots_text_item_and_axis_ticks_are_measured(qtbot, stage) -> None:
    top = stage(500, 400)
    plot = pg.PlotWidget(top)
    plot.resize(500, 400)
    plot.setXRange(0, 10, padding=0)
    plot.setYRange(0, 10, padding=0)
    plot.getAxis("bottom").setStyle(tickFont=px_font(22))
    plot.getAxis("bottom").setHeight(40)  # room for the large ticks at once
    plot.getAxis("left").setStyle(tickFont=px_font(11))
    label = pg.TextItem("|k|cos θ = 2.77")
    label.setFont(px_font(9))
    label.setPos(5, 5)
    plot.addItem(label)
    seen = seen_texts(shown(qtbot, top))
    item = only(seen, "|k|cos θ = 2.77")
    assert item.source == "item" and "TextItem" in item.where
    assert item.px == pytest.approx(9, abs=0.01)
    assert plot.rect().contains(item.rect.toRect())
    ticks = [s for s in seen if s.source == "painted" and "AxisItem" in s.where]
    bottom = [s for s in ticks if "AxisItem(bottom)" in s.where]
    left = [s for s in ticks if "AxisItem(left)" in s.where]
    assert len(bottom) >= 3 and len(left) >= 3, report(ticks)
    assert {round(s.px) for s in bottom} == {22} and {round(s.px) for s in left} == {11}
    assert {s.text for s in too_small(seen)} == {item.text, *(s.text for s in left)}


# ---- overlaps ------------------------------------------------------------------------------

@pytest.mark.parametrize(("second_x", "overlap"), [(15, True), (200, False)])
def test_labels_overlap_only_when_on_top_of_each_other(qtbot, stage, second_x,
                                                       overlap) -> None:
    top = stage()
    top.setFont(px_font(20))
    QLabel("q: 吃", top).move(10, 10)
    QLabel("θ = 38°", top).move(second_x, 12)
    pairs = overlapping(seen_texts(shown(qtbot, top)))
    assert bool(pairs) == overlap, report(pairs)
    if overlap:
        assert {pairs[0][0].text, pairs[0][1].text} == {"q: 吃", "θ = 38°"}


def test_lines_stacked_tight_overlap_only_where_their_letters_do(qtbot, stage) -> None:
    top = stage()
    top.setFont(px_font(20))
    line = QFontMetricsF(top.font()).height()
    QLabel("10.00", top).move(10, 10)
    QLabel("3.00", top).move(10, 10 + round(line) - 3)  # line boxes cross, digits do not
    QLabel("q: 吃", top).move(200, 10)
    QLabel("θ = 38°", top).move(200, 10 + round(line / 2))  # letters on letters
    seen = seen_texts(shown(qtbot, top))
    assert (only(seen, "10.00").rect & only(seen, "3.00").rect).height() > 2
    assert [{a.text, b.text} for a, b in overlapping(seen)] == [{"q: 吃", "θ = 38°"}]


def test_a_label_painting_its_own_text_is_one_text_not_an_overlap(qtbot, stage) -> None:
    top = stage()
    top.setFont(px_font(20))
    label = SelfPaintingLabel("= 10", top)
    label.resize(120, 40)
    seen = seen_texts(shown(qtbot, top))
    assert only(seen, "= 10").source == "painted"
    assert not overlapping(seen)


def test_plot_labels_on_top_of_each_other_overlap(qtbot, stage) -> None:
    top = stage(500, 400)
    top.setFont(px_font(20))
    plot = pg.PlotWidget(top)
    plot.resize(500, 400)
    plot.setXRange(0, 10, padding=0)
    plot.setYRange(0, 10, padding=0)
    for text in ("|k|cos θ = 2.77", "q: 吃"):
        item = pg.TextItem(text)
        item.setFont(px_font(20))
        item.setPos(5, 5)
        plot.addItem(item)
    pairs = overlapping(seen_texts(shown(qtbot, top)))
    assert [{a.text, b.text} for a, b in pairs] == [{"|k|cos θ = 2.77", "q: 吃"}]


# ---- out of view ---------------------------------------------------------------------------

def test_a_label_scrolled_out_of_view_is_clipped_and_its_scroll_bar_shows(qtbot,
                                                                         stage) -> None:
    top = stage()
    top.setFont(px_font(20))
    area = QScrollArea(top)
    area.setGeometry(0, 0, 400, 200)
    page = QWidget()
    page.resize(360, 600)
    QLabel("in view", page).move(10, 10)
    QLabel("= 10", page).move(10, 400)  # below the fold
    Painted("painted below", 10, parent=page).setGeometry(10, 500, 200, 40)
    area.setWidget(page)
    seen = seen_texts(shown(qtbot, top))
    assert [s.text for s in clipped(seen)] == ["= 10", "painted below"]
    result = only(seen, "= 10")
    assert not result.visible
    assert only(seen, "painted below") in too_small(seen)
    assert scroll_bars_showing(top) == [area.verticalScrollBar()]
    area.verticalScrollBar().setValue(area.verticalScrollBar().maximum())
    assert "in view" in [s.text for s in clipped(seen_texts(top))]


def test_a_label_cut_by_its_parent_is_clipped(qtbot, stage) -> None:
    top = stage()
    top.setFont(px_font(20))
    panel = QWidget(top)
    panel.setGeometry(0, 0, 100, 40)
    QLabel("= 0 + 0 + 0.32 + 4.08 = 4.40", panel).move(5, 5)
    assert [s.text for s in clipped(seen_texts(shown(qtbot, top)))] == [
        "= 0 + 0 + 0.32 + 4.08 = 4.40"]


def test_a_scroll_area_that_hides_its_bars_still_says_it_cuts(qtbot, stage) -> None:
    top = stage()
    area = QScrollArea(top)
    area.setGeometry(0, 0, 200, 100)
    area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    page = QWidget()
    page.resize(180, 400)
    area.setWidget(page)
    shown(qtbot, top)
    assert scroll_bars_showing(top) == [area]
    page.resize(180, 90)
    assert scroll_bars_showing(top) == []


# ---- wrapping ------------------------------------------------------------------------------

def wrapped(top: QWidget, text: str, first_line: str) -> QLabel:
    """A word-wrapped 20 px label just wide enough for `first_line`."""
    label = QLabel(text, top)
    label.setFont(px_font(20))
    label.setWordWrap(True)
    label.setFixedWidth(round(QFontMetricsF(label.font()).horizontalAdvance(first_line)) + 4)
    label.adjustSize()
    return label


@pytest.mark.parametrize(("text", "first_line", "split"), [
    ("softmax 56.5 %", "softmax 56.5", ("56.5", "%")),
    ("softmax 56.5\u00a0%", "softmax 56.5", None),
    ("softmax 56.5 %", "softmax 56.5 %", None),
    ("<u>cube</u> 8.0 GiB", "cube 8.0", ("8.0", "GiB")),
    ("T = 4,096 tokens", "T = 4,096", None),
])
def test_a_number_wrapped_inside_itself_is_reported(qtbot, stage, text, first_line,
                                                   split) -> None:
    top = stage()
    wrapped(top, text, first_line)
    broken = broken_inside(shown(qtbot, top), TOKENS)
    assert [b.lines for b in broken] == ([split] if split else []), report(broken)


def test_a_token_name_broken_between_its_characters_is_reported(qtbot, stage) -> None:
    top = stage()
    wrapped(top, "给了", "给")  # room for one character a line
    wrapped(top, "小明给了", "小明给了").move(0, 100)
    broken = broken_inside(shown(qtbot, top), TOKENS)
    assert [(b.piece, b.lines) for b in broken] == [("给了", ("给", "了"))], report(broken)
    assert broken_inside(top) == []  # not a token name: a sentence may break there


# ---- the real window -----------------------------------------------------------------------

def test_the_main_window_shows_text_from_all_three_sources(qtbot, open_window) -> None:
    window = open_window("en")
    window.document.set_world("dialogue")  # the playground: pyqtgraph text items
    window.document.flush()
    qtbot.wait(50)
    seen_texts(window)  # warm the layout cache, as every walk after the first finds it
    start = time.perf_counter()
    seen = seen_texts(window)
    took = time.perf_counter() - start
    counts = Counter(s.source for s in seen)
    smallest = min(seen, key=lambda s: s.px)
    print(f"\nwalk {took * 1000:.0f} ms, {dict(counts)}, smallest: {report([smallest])}")
    assert counts["widget"] >= 40 and counts["painted"] >= 10 and counts["item"] >= 5, counts
    assert all(s.text.strip() and s.px > 0 for s in seen)
    # the heatmap's painted numbers are measured at the font the grid paints them in
    grid = window.panels["heatmap"].cells.grid
    cells = [s for s in seen if "CellGrid" in s.where]
    assert len(cells) == sum(len(line) for line in grid.labels) > 0
    assert {round(s.px, 1) for s in cells} == {
        round(font_px(grid.font, window.logicalDpiY()) * window.devicePixelRatioF(), 1)}
