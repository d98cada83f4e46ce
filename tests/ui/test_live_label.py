"""The label for per-step text: its remembered heights always equal a plain QLabel's, and
its holder asks for a new layout only when the label's height changes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from app.startup import make_application
from app.ui.fonts import ui_font
from app.ui.widgets.live_label import LiveLabel

LONG = "q·k = 0.2×0 + 2.2×0 + (−0.4)×(−0.8) + (−2.04)×(−2) = 4.4 " * 3


@pytest.fixture
def labels(qtbot):
    make_application()
    live, plain = LiveLabel("live"), QLabel()
    plain.setWordWrap(True)
    for label in (live, plain):
        qtbot.addWidget(label)
    return live, plain


def heights(live: LiveLabel, plain: QLabel, width: int) -> tuple[int, int]:
    return live.heightForWidth(width), plain.heightForWidth(width)


def test_heights_follow_text_and_font_changes(labels):
    live, plain = labels
    for label in labels:
        label.setText(LONG)
    tall, expected = heights(live, plain, 150)
    assert tall == expected and tall > heights(live, plain, 600)[0]
    for label in labels:
        label.setText("4.4")
    short, expected = heights(live, plain, 150)
    assert short == expected < tall  # a new text is measured, not read from the old one
    for label in labels:
        label.setFont(ui_font(40))
    big, expected = heights(live, plain, 150)
    assert big == expected > short  # so is a new font


@pytest.mark.parametrize("selectable", [False, True])
@pytest.mark.parametrize("text_format", [Qt.TextFormat.RichText, Qt.TextFormat.PlainText])
def test_rich_and_selectable_text_heights_match_too(labels, selectable, text_format):
    live, plain = labels
    for label in labels:
        label.setTextFormat(text_format)
        if selectable:
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setText(f"<b>{LONG}</b><br>= <span style='color:#D55E00'>4.08</span>")
    for width in (120, 300, 900, 120):
        assert heights(live, plain, width)[0] == heights(live, plain, width)[1]


class LayoutRequests(QObject):
    """Counts the layout requests a widget receives."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        self.count += event.type() == QEvent.Type.LayoutRequest
        return False


@pytest.fixture
def panel(qtbot):
    make_application()
    panel = QWidget()
    panel.setMinimumSize(1, 1)
    live = LiveLabel("live")
    layout = QVBoxLayout(panel)
    layout.addWidget(live.holder)
    layout.addStretch(1)
    qtbot.addWidget(panel)
    panel.resize(300, 400)
    live.setText("4.40")
    panel.show()
    qtbot.waitExposed(panel)
    return panel, live


def test_a_new_number_of_the_same_height_lays_nothing_out_again(qtbot, panel):
    panel, live = panel
    requests = LayoutRequests(panel)
    for text in ("4.08", "−2.40", "3.68"):
        live.setText(text)
        QApplication.processEvents()
    assert requests.count == 0 and live.text() == "3.68"
    live.setText(LONG)  # now it wraps: the holder grows, and the panel hears of it
    qtbot.waitUntil(lambda: live.holder.height() == live.heightForWidth(live.holder.width()))
    assert requests.count >= 1 and live.geometry() == live.holder.rect()


def test_the_holder_shows_and_hides_with_its_label(qtbot, panel):
    _panel, live = panel
    live.hide()
    assert live.isHidden() and not live.holder.isVisible()
    live.show()
    assert live.isVisible() and live.holder.isVisible()


@pytest.mark.parametrize("style", ["", "color: #D55E00"])
@pytest.mark.parametrize("alignment", [
    None, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter,
    Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight])
@pytest.mark.parametrize("text_format", [Qt.TextFormat.RichText, Qt.TextFormat.PlainText])
def test_text_is_painted_as_a_qlabel_paints_it(labels, style, alignment, text_format):
    """The label draws rich and selectable plain text from its own document (QLabel's
    text control repainted it three times a step): pixel for pixel what QLabel draws,
    colours and alignment too."""
    live, plain = labels
    for label in labels:
        label.setTextFormat(text_format)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setFont(ui_font(16))
        label.setStyleSheet(style)
        if alignment is not None:
            label.setAlignment(alignment)
        label.setText(f"<b>q·k</b> = {LONG}= <span style='color:#0072B2'>4.4</span><sub>2</sub>")
    live.holder.resize(420, 400)
    plain.resize(420, 400)
    drawn = [label.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)
             for label in labels]
    assert drawn[0].size() == drawn[1].size() == QSize(420, 400)
    assert live.heightForWidth(420) < 400, "room to align the text in"
    assert bytes(drawn[0].constBits()) == bytes(drawn[1].constBits())


def test_a_selection_is_painted_by_qlabel_itself(labels):
    live, plain = labels
    for label in labels:
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setText(f"<b>{LONG}</b>")
        label.setSelection(0, 20)
    live.holder.resize(420, 200)
    plain.resize(420, 200)
    drawn = [label.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)
             for label in labels]
    assert live.hasSelectedText()
    assert bytes(drawn[0].constBits()) == bytes(drawn[1].constBits())


def test_a_held_holder_keeps_its_tallest_room_until_released(qtbot, panel):
    panel, live = panel
    live.setText(LONG)  # wraps: a few lines
    qtbot.waitUntil(lambda: live.holder.height() == live.heightForWidth(live.holder.width()))
    tall = live.holder.height()
    live.holder.hold(True)  # a drag begins
    requests = LayoutRequests(panel)
    live.setText("4.40")  # one line now: the room stays, nothing is laid out again
    QApplication.processEvents()
    assert requests.count == 0 and live.holder.height() == tall
    live.setText(LONG + LONG)  # taller still: it grows at once
    qtbot.waitUntil(lambda: live.holder.height() > tall)
    taller = live.holder.height()
    live.setText("4.40")
    QApplication.processEvents()
    assert live.holder.height() == taller
    live.holder.hold(False)  # the drag ended: the label's own height again
    qtbot.waitUntil(lambda: live.holder.height() == live.heightForWidth(live.holder.width()))
    assert live.holder.height() < tall


def test_a_new_text_lays_the_page_out_only_as_parsing_it_does(labels):
    """A font, alignment and wrapping that did not change are not given to the page again:
    each would lay its old text out once more before the new text replaced it."""
    live, _plain = labels
    live.setTextFormat(Qt.TextFormat.RichText)
    live.setText(f"<b>{LONG}</b> = 4.40")
    live.heightForWidth(300)
    bare = QTextDocument()
    bare.setHtml(live.text())
    layouts: dict[str, int] = {"live": 0, "bare": 0}
    for name, page in (("live", live._page), ("bare", bare)):
        page.documentLayout().update.connect(
            lambda _rect, name=name: layouts.__setitem__(name, layouts[name] + 1))
    new_text = f"<b>{LONG}</b> = 4.08"
    live.setText(new_text)
    live.heightForWidth(300)
    bare.setHtml(new_text)
    assert layouts["bare"] >= 1 and layouts["live"] == layouts["bare"]
    live.setFont(ui_font(30))  # a new font is given to the page, and measured
    assert live.heightForWidth(300) > 0 and live._page.defaultFont() == live.font()


class Paints(QObject):
    """Counts the paint events each of some widgets receives."""

    def __init__(self, *widgets: QWidget) -> None:
        super().__init__()
        self.count = dict.fromkeys(widgets, 0)
        for widget in widgets:
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and watched in self.count:
            self.count[watched] += 1  # type: ignore[index]
        return False


def test_a_new_text_repaints_the_label_alone_and_looks_as_before(qtbot, panel):
    """The label paints its own background, the panel's colour: its holder and the panel
    under it are not repainted for a new number, and the panel looks the same as when the
    label let it show through."""
    panel, live = panel
    paints = Paints(panel, live.holder, live)
    live.setText("4.08")
    qtbot.waitUntil(lambda: paints.count[live] >= 1)
    QApplication.processEvents()
    assert paints.count[panel] == paints.count[live.holder] == 0
    opaque = panel.grab().toImage()
    live.setAutoFillBackground(False)
    assert panel.grab().toImage() == opaque
