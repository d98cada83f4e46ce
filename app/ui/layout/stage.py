"""Owns the projector's stage: the scene as the class sees it, the way a slide show replaces
the editing window. A header with the scene's title and its question in large type (the
answer under it once revealed), the scene's live panels in the body, and a slim footer with
"n / 15" and the clickable strip. The notes never show here unless the teacher opens the
band over it (N) on a single screen; which panels stand in the body, and when, is the
arrangement's to say (`app.ui.layout.arrangement`)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.poll.classpoll import ClassPoll
from app.state.lesson import LessonRun
from app.ui.fonts import DISPLAY, HEADING, READING, STRONG, emphasize
from app.ui.layout.slides import Slides
from app.ui.panels.base import Panel
from app.ui.qt_known import layout_of
from app.ui.widgets.poll_bars import PollBars
from app.ui.widgets.poll_card import PollCard
from app.ui.widgets.rich_label import rich_label
from app.ui.widgets.scene_strip import SceneStrip

BAND_SHARE = 0.45
"""The notes band covers this share of the stage's height, from the bottom up, unless that
would cover the row the notes speak of: then it takes the room above or below that row."""
CARD_SHARE = 0.9
"""The poll's join card, over the body, takes this share of the body each way."""
BARS_SHARE = 1
"""The class's answers beside the question take as much of the width as the question: a
choice's words wrap less, so the split takes fewer lines of the header."""
MARGIN = 6
"""Pixels around the stage's content: a projector's edge needs little."""
GAP = 10
"""Pixels between panels side by side (the arrangement plans with it)."""


class Stage(QWidget):
    """Header, body and footer; the body holds the panels the arrangement places there."""

    def __init__(self, lesson: LessonRun, slides: Slides, poll: ClassPoll,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stage")
        self.setAutoFillBackground(True)
        # the stage is the screen's size, whatever it holds: nothing it shows (a long
        # question, the class's bars) may grow the window past the projector; the
        # arrangement fits the type to the room instead
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.lesson = lesson
        self.slides = slides
        self.poll = poll
        self.values: dict[str, str] = {}
        self.plain: dict[str, str] = {}
        self.title = QLabel(objectName="stage_title")  # type: ignore[call-overload]
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        emphasize(self.title, DISPLAY, bold=True)
        self.question = rich_label("stage_question")
        emphasize(self.question, DISPLAY)
        self.answer = rich_label("stage_answer")
        emphasize(self.answer, READING)
        self.body = QWidget(objectName="stage_body")  # type: ignore[call-arg]
        # the panels' own minimum sizes must never push the window past the projector: the
        # arrangement gives each build the room it reads in, or shrinks the stage's type
        self.body.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._body_layout = QBoxLayout(QBoxLayout.Direction.LeftToRight, self.body)
        self._body_layout.setContentsMargins(0, 0, 0, 0)
        self._body_layout.setSpacing(GAP)
        self.counter = QLabel(objectName="stage_counter")  # type: ignore[call-overload]
        emphasize(self.counter, STRONG, bold=True)
        self.strip = SceneStrip(lesson.count, "stage_scene_strip")
        self.strip.clicked.connect(lesson.go)
        self.reveal_button = QPushButton(objectName="stage_reveal")  # type: ignore[call-overload]
        self.set_up_button = QPushButton(objectName="stage_set_up_again")  # type: ignore[call-overload]
        for button in (self.reveal_button, self.set_up_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Space stays the clicker's key
        self.reveal_button.clicked.connect(lesson.reveal)
        self.set_up_button.clicked.connect(lesson.set_up_again)
        self.build_marks = QLabel(objectName="stage_builds")  # type: ignore[call-overload]
        emphasize(self.build_marks, HEADING, bold=True)
        self.poll_bars = PollBars()
        self.poll_bars.bind(poll, lesson.is_revealed)
        self.join = QLabel(objectName="stage_poll_join")  # type: ignore[call-overload]
        self.join.setTextFormat(Qt.TextFormat.PlainText)
        footer = QHBoxLayout()
        footer.setSpacing(GAP)
        footer.addWidget(self.counter)
        footer.addWidget(self.strip, 1)
        footer.addWidget(self.join)
        footer.addWidget(self.build_marks)
        footer.addWidget(self.set_up_button)
        footer.addWidget(self.reveal_button)
        column = QVBoxLayout(self)
        column.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        column.setContentsMargins(MARGIN, MARGIN // 2, MARGIN, MARGIN // 2)
        column.setSpacing(GAP // 2)
        words = QVBoxLayout()
        words.addWidget(self.question)
        words.addWidget(self.answer)
        self._asked = asked = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        asked.addLayout(words, 1)
        asked.addWidget(self.poll_bars, BARS_SHARE)
        column.addWidget(self.title)
        column.addLayout(asked)
        column.addWidget(self.body, 1)
        column.addLayout(footer)
        self.band = QFrame(self, objectName="stage_notes_band")  # type: ignore[call-arg]
        self.band.setFrameShape(QFrame.Shape.StyledPanel)
        self.band.setAutoFillBackground(True)
        QVBoxLayout(self.band).setContentsMargins(6, 6, 6, 6)
        self.band.hide()
        self.card = PollCard(self)
        self.card.bind(poll)
        self.card.setAutoFillBackground(True)
        self.card.setFrameShape(QFrame.Shape.StyledPanel)
        self.card.hide()
        self.curtain = QWidget(self, objectName="stage_blank")  # type: ignore[call-arg]
        """Black over everything (B): the class looks at the teacher, not the screen."""
        self.curtain.setStyleSheet("background-color: black;")
        self.curtain.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.curtain.hide()
        self.body.installEventFilter(self)  # the card and the band follow the body's room
        poll.running_changed.connect(self._on_poll_running)
        for signal in (lesson.moved, lesson.revealed, slides.built):
            signal.connect(lambda _index: self.show_scene())
            signal.connect(lambda _index: self.show_join(False))  # on with the lesson
        lesson.offer_changed.connect(lambda _on: self.show_scene())
        lesson.document.changed.connect(self._on_document_changed)  # another row
        self._placed: list[QWidget] = []
        self.retranslate()

    # ---- what the class reads ---------------------------------------------------------------

    def set_values(self, values: dict[str, str], plain: dict[str, str]) -> None:
        """The computed values the scene texts name ({top_score} …), bold and plain."""
        self.values, self.plain = values, plain
        self.strip.titles = [tr(scene.title.key, **plain) for scene in self.lesson.lesson.scenes]
        self.show_scene()

    def show_scene(self) -> None:
        if not self.plain:  # the values come when the stage first goes up
            return
        run, scene = self.lesson, self.lesson.scene
        self.title.setText(tr(scene.title.key, **self.plain))
        hidden = scene.prompt is not None and scene.answer is not None
        revealed = run.is_revealed()
        asked = scene.prompt if hidden else scene.question
        self.question.setVisible(asked is not None)
        self.answer.setVisible(hidden and revealed)
        if asked is not None:
            self.question.setText(tr(asked.key, **self.values))
        if hidden and scene.answer is not None:  # (hidden: it has one)
            self.answer.setText(tr(scene.answer.key, **self.values) if revealed else "")
        self.counter.setText(tr("guide.scene.counter", number=run.index + 1, count=run.count))
        self.strip.set_current(run.index)
        self.reveal_button.setVisible(hidden and not revealed)
        self.set_up_button.setVisible(run.offer)
        slides = self.slides
        self.build_marks.setVisible(slides.builds > 1)
        self.build_marks.setText(
            " ".join("●" if i == slides.build else "○" for i in range(slides.builds)))
        self.poll_bars.show_scene(self.poll, self.lesson.scene)
        self._refit_band()
        self.join.setVisible(self.poll.running)
        self.join.setText(tr("stage.poll_join", address=self.poll.address.removeprefix(
            "http://"), room=self.poll.room) if self.poll.running else "")

    def retranslate(self) -> None:
        self.reveal_button.setText(tr("guide.scene.reveal"))
        self.set_up_button.setText(tr("guide.scene.set_up"))
        self.strip.setToolTip(tr("guide.scene.strip"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # ---- the body ---------------------------------------------------------------------------

    def body_room(self) -> QSize:
        """The room the body has for panels now (the header grows with a revealed answer)."""
        layout_of(self).activate()
        return self.body.size()

    def compact_answers(self, on: bool) -> None:
        """The class's answers beside the question, each choice's words on its line; or,
        compact, under the question as one line of letters, bars and counts: the question
        then has the whole width, and the header is as short as it can be."""
        self.poll_bars.set_compact(on)
        self._asked.setDirection(QBoxLayout.Direction.TopToBottom if on
                                 else QBoxLayout.Direction.LeftToRight)

    def header_short(self) -> bool:
        """Whether the header, laid out now, gives a wrapped text less height than it needs
        (the stage never grows past its screen: the room comes from the body, or the type
        has to shrink, or the class's answers go compact)."""
        layout_of(self).activate()
        bars = self.poll_bars
        return (bars.isVisible() and bars.minimumSizeHint().width() > bars.width()) or any(
            widget.isVisible() and widget.hasHeightForWidth()
            and widget.heightForWidth(widget.width()) > widget.height()
            for widget in (self.title, self.question, self.answer, bars))

    def place(self, panels: Sequence[QWidget], across: bool, stretches: list[int]) -> None:
        """Show `panels` in the body, side by side or one over the other; any panel the body
        held before and does not hold now is hidden (the arrangement hands it back)."""
        layout = self._body_layout
        layout.setDirection(QBoxLayout.Direction.LeftToRight if across
                            else QBoxLayout.Direction.TopToBottom)
        while layout.count():
            item = layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None and widget not in panels:
                widget.hide()
        self._placed = list(panels)
        for panel, stretch in zip(panels, stretches, strict=True):
            if panel.parentWidget() is not self.body:
                panel.setParent(self.body)
            layout.addWidget(panel, stretch)
            panel.show()

    # ---- the notes band (one screen) ----------------------------------------------------------

    def hold_notes(self, notes: QWidget | None) -> None:
        """The widget the band shows when opened (the guide), or None (it is on the console)."""
        band = layout_of(self.band)
        while band.count():
            item = band.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None and widget is not notes:
                widget.hide()
        if notes is not None:
            notes.setParent(self.band)
            band.addWidget(notes)
            notes.show()
        else:
            self.band.hide()

    @property
    def blanked(self) -> bool:
        return not self.curtain.isHidden()

    def set_blank(self, on: bool) -> None:
        """The projector black (B or "."), as a slide show blanks it; or the scene again."""
        self.curtain.setGeometry(self.rect())
        self.curtain.setVisible(bool(on))
        self.curtain.raise_()

    def show_notes(self, on: bool) -> None:
        self.band.setVisible(bool(on) and layout_of(self.band).count() > 0)
        self._fit_band()
        self.band.raise_()

    # ---- the class poll ----------------------------------------------------------------------

    def _on_poll_running(self, running: bool) -> None:
        self.show_scene()
        self.show_join(running)

    def show_join(self, on: bool) -> None:
        """The join card, large over the body: when the poll starts, until the lesson goes
        on (the address and room code stay in the footer)."""
        self.card.setVisible(bool(on) and self.poll.running)
        self._fit_band()
        self.card.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.body and event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self._fit_band()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_band()

    def _fit_band(self) -> None:
        self.curtain.setGeometry(self.rect())
        top, bottom = self._band_span()
        self.band.setGeometry(QRect(MARGIN, top, self.width() - 2 * MARGIN, bottom - top))
        body = self.body.geometry()  # over the panels, never over the question
        width, tall = int(body.width() * CARD_SHARE), int(body.height() * CARD_SHARE)
        self.card.setGeometry(QRect(body.x() + (body.width() - width) // 2,
                                    body.y() + (body.height() - tall) // 2, width, tall))

    def _on_document_changed(self, _fields: object = None) -> None:
        self._refit_band()

    def _refit_band(self) -> None:
        """Fit the band again once the panels have laid out the row they show now."""
        if self.band.isVisible():
            QTimer.singleShot(0, self, self._fit_band)

    def _band_span(self) -> tuple[int, int]:
        """(top, bottom) of the notes band: from the bottom up, or, when that would cover a
        shown panel's focus (the selected row), the larger room below or above the focus."""
        bottom = self.height() - MARGIN
        span = (bottom - int(self.height() * BAND_SHARE), bottom)
        focus = [(panel.mapTo(self, rect.topLeft()).y(),
                  panel.mapTo(self, rect.bottomLeft()).y() + 1)
                 for panel in self._placed if panel.isVisible()
                 and (rect := _focus(panel)) is not None]
        if not focus or all(end <= span[0] or start >= span[1] for start, end in focus):
            return span
        first, last = min(start for start, _ in focus), max(end for _, end in focus)
        height = span[1] - span[0]
        below = (max(last, bottom - height), bottom)
        ceiling = self.body.geometry().top()
        above = (max(ceiling, first - height), max(ceiling + 1, first))
        return below if below[1] - below[0] >= above[1] - above[0] else above


def _focus(widget: QWidget) -> QRect | None:
    """A panel's focus (the selected row) in its own coordinates, if it shows one."""
    rect = widget.focus_rect() if isinstance(widget, Panel) else None
    return rect if rect is not None and not rect.isEmpty() else None
