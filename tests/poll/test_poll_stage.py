"""What the stage builds on: each scene's question filled in both languages, the lesson
driving the poll, the QR code, the card and the bars (large enough at 1024×768, the right
answer marked only after Reveal), and where the poll listens."""

from __future__ import annotations

import argparse
import io
import re

import numpy as np
import pytest
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from app.i18n import set_language, strings
from app.model.answers.tally import SceneCounts
from app.model.lesson.data import load_lesson_data
from app.model.lesson.figures import figures_of
from app.model.lesson.scenes import load_scenes
from app.poll.classpoll import ClassPoll
from app.poll.lesson import LessonPoll
from app.poll.network import (
    LOOPBACK,
    announce,
    default_address,
    ipv4_interfaces,
    parse_poll_address,
    poll_address,
)
from app.poll.qr import QUIET_ZONE, qr_image, qr_modules, qr_svg
from app.poll.questions import scene_question
from app.state.document import Document
from app.state.lesson import LessonRun
from app.ui.fonts import apply_body_floor
from app.ui.lesson_values import lesson_values
from app.ui.widgets.poll_bars import RIGHT_COLOUR, PollBars
from app.ui.widgets.poll_card import PollCard

MIN_PX = 18


@pytest.fixture(autouse=True)
def _as_the_app_starts(qapp):
    apply_body_floor(qapp)  # the application font the app sets up before any window
    yield
    set_language("zh")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_poll_fills_in_with_computed_values(lang) -> None:
    set_language(lang)
    data = load_lesson_data()
    figures = figures_of(data)
    values = lesson_values(figures, data)
    asked = [s for s in load_scenes(data=data).scenes if s.poll is not None]
    for scene in asked:
        question = scene_question(scene, values, figures)
        assert question is not None and question.lang == lang
        for text in (question.prompt, *question.choices):
            assert "{" not in text and "}" not in text, text
        assert question.right == scene.poll.right_choice(figures)
    fails = next(s for s in asked if s.id == "fails")
    choices = scene_question(fails, values, figures).choices
    expected = {"en": ("less than 1 MiB", "1 MiB to 64 MiB", "64 MiB to 1 GiB",
                       "1 GiB to 16 GiB", "16 GiB or more"),
                "zh": ("少于 1 MiB", "1 MiB 到 64 MiB", "64 MiB 到 1 GiB", "1 GiB 到 16 GiB",
                       "16 GiB 或更多")}
    assert choices == expected[lang]


def test_the_poll_strings_type_no_figure() -> None:
    for table in (strings("en"), strings("zh")):
        for key, text in table.items():
            if key.startswith("poll."):
                assert not re.search(r"[0-9]", re.sub(r"\{[^}]*\}", "", text)), key


def test_the_lesson_asks_each_scene_and_reveal_freezes_it(qtbot) -> None:
    data = load_lesson_data()
    run = LessonRun(Document(data), load_scenes(data=data))
    poll = ClassPoll()
    binder = LessonPoll(poll, run)
    assert poll.question is None  # the first scene asks nothing
    design = next(i for i, s in enumerate(run.lesson.scenes) if s.id == "design")
    run.go(design)
    assert poll.question.scene == "design" and not poll.counts("design").frozen
    with qtbot.waitSignal(poll.frozen):
        run.next()  # a clicker's PageDown reveals first
    assert poll.counts("design").frozen
    run.go(0)
    assert poll.question is None
    run.go(design)
    assert poll.counts("design").frozen  # still revealed when the class comes back
    assert binder.question().scene == "design"


def test_the_qr_code_has_whole_pixels_per_module() -> None:
    modules = qr_modules("http://192.168.1.23:8423/#4821")
    count = modules.shape[0]
    finder = modules[QUIET_ZONE:QUIET_ZONE + 7, QUIET_ZONE:QUIET_ZONE + 7]
    assert finder[0].all() and finder[:, 0].all() and finder[2:5, 2:5].all()
    assert not modules[:QUIET_ZONE].any()
    image = qr_image("http://192.168.1.23:8423/#4821", 333)
    assert (image.width(), image.height()) == (333, 333)
    scale = 333 // count
    start = (333 - scale * count) // 2
    for row in range(count):
        for col in range(count):
            pixel = image.pixelColor(start + col * scale + scale // 2,
                                     start + row * scale + scale // 2).value()
            assert (pixel == 0) == bool(modules[row, col])
    assert qr_svg("x").startswith(b"<svg")


def _stage(qtbot, *widgets: QWidget) -> QWidget:
    stage = QWidget()
    layout = QVBoxLayout(stage)
    for widget in widgets:
        layout.addWidget(widget)
    stage.resize(1024, 768)
    qtbot.addWidget(stage)
    stage.show()
    qtbot.waitExposed(stage)
    return stage


def _too_small(stage: QWidget) -> list[str]:
    ratio = stage.devicePixelRatioF()
    return [f"{label.objectName()}: {label.text()!r}" for label in stage.findChildren(QLabel)
            if label.isVisible() and label.text()
            and QFontInfo(label.font()).pixelSize() * ratio < MIN_PX]


def test_the_card_shows_the_code_the_address_and_the_room_large(qtbot) -> None:
    card = PollCard()
    stage = _stage(qtbot, card)
    card.show_poll("http://192.168.1.23:8423/#4821", "http://192.168.1.23:8423", "4821")
    assert card.address.text() == "http://192.168.1.23:8423"
    assert card.room.text().replace(" ", "") == "4821"
    assert not card.qr.pixmap().isNull() and card.qr.pixmap().width() >= 200
    assert _too_small(stage) == []
    assert all(label.textFormat().name == "PlainText" for label in card.findChildren(QLabel)
               if label is not card.qr)
    card.show_off()
    assert card.off.isVisible() and not card.address.isVisible()


def test_the_bars_mark_the_right_answer_only_after_reveal(qtbot) -> None:
    bars = PollBars()
    stage = _stage(qtbot, bars)
    choices = ("<b>red</b>", "green", "blue")
    bars.show_counts(SceneCounts("s1", choices, 1, (2, 5, 0), frozen=False))
    assert [row.text.text() for row in bars.rows] == list(choices)  # shown as typed
    assert [row.number.text() for row in bars.rows] == ["2", "5", "0"]
    assert not any(row.mark.isVisible() or row.bar.colour or row.bar.dim for row in bars.rows)
    assert [row.bar.share for row in bars.rows] == [0.4, 1.0, 0.0]
    assert _too_small(stage) == []
    bars.show_counts(SceneCounts("s1", choices, 1, (2, 5, 0), frozen=True))
    marked = [row for row in bars.rows if row.mark.isVisible()]
    assert marked == [bars.rows[1]] and marked[0].bar.colour == RIGHT_COLOUR
    assert bars.rows[0].bar.dim and bars.rows[2].bar.dim
    assert _too_small(stage) == []
    bars.show_counts(None)
    assert bars.rows == []


def test_compact_the_mark_stands_by_its_own_letter(qtbot) -> None:
    bars = PollBars()
    stage = _stage(qtbot, bars)
    choices = ("red", "green", "blue")
    bars.set_compact(True)
    bars.show_counts(SceneCounts("s1", choices, 1, (2, 15, 0), frozen=True))
    for _ in range(3):
        QApplication.processEvents()
    right, following = bars.rows[1], bars.rows[2]
    assert right.mark.isVisible()

    def left_of(widget) -> int:
        return widget.mapTo(bars, widget.rect().topLeft()).x()

    def right_of(widget) -> int:
        return widget.mapTo(bars, widget.rect().topRight()).x()

    mark = (left_of(right.mark), right_of(right.mark))
    to_own = mark[0] - right_of(right.letter)
    to_next = left_of(following.letter) - mark[1]
    assert 0 <= to_own < to_next, (to_own, to_next)
    assert _too_small(stage) == []
    bars.set_compact(False)
    assert left_of(right.mark) > right_of(right.number), "a line of its own: after the count"


@pytest.mark.parametrize(("width", "line"), [(1024, 0), (560, 1)])
def test_compact_the_total_closes_the_line_only_when_it_fits(qtbot, width, line) -> None:
    bars = PollBars()
    stage = _stage(qtbot, bars)
    stage.resize(width, 768)
    bars.set_compact(True)
    bars.show_counts(SceneCounts("s1", tuple("abcde"), 1, (1, 1, 1, 0, 0), frozen=True))
    for _ in range(3):
        QApplication.processEvents()
    at = bars._list.getItemPosition(bars._list.indexOf(bars.total))[0]
    assert at == line
    assert bars.total.geometry().right() <= bars.width()
    assert _too_small(stage) == []


def test_the_bars_follow_a_poll(qtbot) -> None:
    from poll_helpers import QUESTION

    poll, bars = ClassPoll(), PollBars()
    bars.bind(poll)
    poll.set_question(QUESTION)
    assert [row.text.text() for row in bars.rows] == list(QUESTION.choices)
    poll.freeze()
    assert bars.counts is not None and bars.counts.frozen


@pytest.mark.parametrize(("text", "parsed"), [
    ("127.0.0.1:0", (LOOPBACK, 0)), ("0.0.0.0:8423", ("0.0.0.0", 8423)),
    ("localhost:65535", (LOOPBACK, 65535)), (" 192.168.1.23:80 ", ("192.168.1.23", 80)),
])
def test_a_poll_address_is_read(text, parsed) -> None:
    assert parse_poll_address(text) == parsed


@pytest.mark.parametrize("text", ["127.0.0.1", ":8423", "127.0.0.1:", "127.0.0.1:65536",
                                  "127.0.0.1:-1", "127.0.0.1:８０", "host:80", "::1:80",
                                  "1.2.3:80", "127.0.0.1:1" + "0" * 20])
def test_a_bad_poll_address_is_one_line(text) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        poll_address(text)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 120


def test_the_default_address_is_one_of_this_machines(qtbot) -> None:
    listed = ipv4_interfaces()
    assert any(i.address == LOOPBACK and i.loopback for i in listed)
    assert listed[-1].loopback or not any(i.loopback for i in listed)
    address = default_address()
    assert len(address.split(".")) == 4 and all(0 <= int(p) < 256 for p in address.split("."))
    assert np.all([not i.loopback for i in listed[:1]]) or address == LOOPBACK or listed


def test_the_address_is_announced_as_one_line() -> None:
    out = io.StringIO()
    announce("http://127.0.0.1:40123", out)
    assert out.getvalue() == "http://127.0.0.1:40123\n"
