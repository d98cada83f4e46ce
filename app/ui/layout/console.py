"""Owns the presenter console: the teacher's own window on the laptop while the stage fills
the projector (the PowerPoint / Keynote / reveal.js convention). It shows where the lesson
is, small pictures of what the projector shows and of the scene's next build, what the next
click brings, the answer the class does not see yet, the time since the lesson started, the
world and scorer lists, and the scene's notes (the guide); the clicker's keys work here
too."""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.poll.classpoll import ClassPoll
from app.state.lesson import LessonRun
from app.ui.fonts import HEADING, READING, STRONG, emphasize
from app.ui.layout.slides import Slides
from app.ui.qt_known import layout_of
from app.ui.widgets.poll_bars import PollBars
from app.ui.widgets.rich_label import rich_label

TICK_MS = 1000
PICTURE_SHARE = 0.3
"""The projector's picture takes this share of the console's width."""
NEXT_SHARE = 0.2
"""The next build's picture, under it, this share: smaller, as in a slide show's console."""


class PresenterConsole(QWidget):
    """The teacher's window: the lesson's place and time, the answer, the notes."""

    def __init__(self, lesson: LessonRun, slides: Slides, poll: ClassPoll,
                 choices: QWidget | None = None, parent: QWidget | None = None) -> None:
        """`choices`: the world and scorer lists, so the teacher never leaves the stage
        to change them."""
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("presenter_console")
        self.lesson = lesson
        self.slides = slides
        self.poll = poll
        self.poll_bars = PollBars()
        self.poll_bars.bind(poll)
        self.connected = QLabel(objectName="console_poll_devices")  # type: ignore[call-overload]
        self.values: dict[str, str] = {}
        self.plain: dict[str, str] = {}
        self.place = QLabel(objectName="console_place")  # type: ignore[call-overload]
        emphasize(self.place, HEADING, bold=True)
        self.clock = QLabel(objectName="console_clock")  # type: ignore[call-overload]
        emphasize(self.clock, STRONG, bold=True)
        self.blanked = QLabel(objectName="console_blanked")  # type: ignore[call-overload]
        emphasize(self.blanked, STRONG, bold=True)
        self.blanked.hide()
        self.coming = QLabel(objectName="console_next")  # type: ignore[call-overload]
        self.coming.setWordWrap(True)
        self.secret = QFrame(objectName="console_answer_box")  # type: ignore[call-arg]
        self.secret.setFrameShape(QFrame.Shape.StyledPanel)
        self.secret_title = QLabel(objectName="console_answer_title")  # type: ignore[call-overload]
        emphasize(self.secret_title, READING, bold=True)
        self.secret_text = rich_label("console_answer")
        box = QVBoxLayout(self.secret)
        box.addWidget(self.secret_title)
        box.addWidget(self.secret_text)
        self.notes = QWidget(objectName="console_notes")  # type: ignore[call-arg]
        QVBoxLayout(self.notes).setContentsMargins(0, 0, 0, 0)
        self.previous_button = QPushButton("◀", objectName="console_previous")  # type: ignore[call-overload]
        self.next_button = QPushButton("▶", objectName="console_next_button")  # type: ignore[call-overload]
        self.reveal_button = QPushButton(objectName="console_reveal")  # type: ignore[call-overload]
        for button in (self.previous_button, self.next_button, self.reveal_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # as the clicker steps: the scene's builds first, then the lesson
        self.previous_button.clicked.connect(slides.previous)
        self.next_button.clicked.connect(slides.next)
        self.reveal_button.clicked.connect(lesson.reveal)
        top = self._top = QHBoxLayout()
        top.addWidget(self.previous_button)
        top.addWidget(self.place, 1)
        top.addWidget(self.clock)
        top.addWidget(self.reveal_button)
        top.addWidget(self.next_button)
        self.picture = QLabel(objectName="console_projector")  # type: ignore[call-overload]
        """What the projector shows now, small (the stage's own pixels)."""
        self.picture.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignRight)
        self.next_picture = QLabel(objectName="console_next_picture")  # type: ignore[call-overload]
        """The scene's next build as the projector will show it, when a click brings one."""
        self.next_picture.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignRight)
        self.next_picture.hide()
        column = QVBoxLayout(self)
        column.addLayout(top)
        if choices is not None:
            column.addWidget(choices)
        beside = QHBoxLayout()
        words = QVBoxLayout()
        for widget in (self.blanked, self.coming, self.secret, self.poll_bars,
                       self.connected):
            words.addWidget(widget)
        words.addStretch(1)
        beside.addLayout(words, 1)
        pictures = QVBoxLayout()
        pictures.addWidget(self.picture)
        pictures.addWidget(self.next_picture)
        pictures.addStretch(1)
        beside.addLayout(pictures)
        column.addLayout(beside)
        column.addWidget(self.notes, 1)
        self._started = QElapsedTimer()
        self._started.start()
        self._ticker = QTimer(self, interval=TICK_MS, timeout=self._tick)  # type: ignore[call-arg]
        for signal in (lesson.moved, lesson.revealed, slides.built):
            signal.connect(lambda _index: self.show_scene())
        poll.running_changed.connect(lambda _on: self.show_scene())
        self.retranslate()

    def hold_tool(self, action: QAction) -> QToolButton:
        """A button for a window action the teacher needs here (the history of answers)."""
        button = QToolButton(objectName=f"console_{action.objectName()}")  # type: ignore[call-arg]
        button.setDefaultAction(action)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._top.insertWidget(self._top.count() - 2, button)  # before Reveal and ▶
        return button

    def hold_notes(self, notes: QWidget | None) -> None:
        """Show `notes` (the guide) in the notes area, or nothing."""
        layout = layout_of(self.notes)
        while layout.count():
            layout.takeAt(0)
        if notes is not None:
            notes.setParent(self.notes)
            layout.addWidget(notes)
            notes.show()

    def set_values(self, values: dict[str, str], plain: dict[str, str]) -> None:
        self.values, self.plain = values, plain
        self.show_scene()

    def show_scene(self) -> None:
        if not self.plain:  # the values come when the stage first goes up
            return
        run, scene = self.lesson, self.lesson.scene
        self.place.setText(tr("console.place", number=run.index + 1, count=run.count,
                              title=tr(scene.title.key, **self.plain)))
        hidden = scene.answer is not None and not run.is_revealed()
        if self.slides.build + 1 < self.slides.builds:
            self.coming.setText(tr("console.next_build", number=self.slides.build + 2,
                                   count=self.slides.builds))
        elif hidden:
            self.coming.setText(tr("console.next_reveal"))
        else:
            following = (tr(run.lesson.scenes[run.index + 1].title.key, **self.plain)
                         if run.index + 1 < run.count else tr("console.last"))
            self.coming.setText(tr("console.coming", title=following))
        self.secret.setVisible(scene.answer is not None)
        self.secret_title.setText(tr("console.answer_hidden") if hidden
                                  else tr("console.answer_shown"))
        if scene.answer is not None:
            self.secret_text.setText(tr(scene.answer.key, **self.values))
        self.reveal_button.setVisible(hidden)
        self.connected.setVisible(self.poll.running)
        self.poll_bars.show_scene(self.poll, self.lesson.scene)

    def show_projector(self, picture: QPixmap) -> None:
        """The projector's picture, as the stage was just drawn, and what comes next (the
        stage has just decided how many builds the scene takes)."""
        self.picture.setPixmap(picture.scaledToWidth(
            round(PICTURE_SHARE * self.width()), Qt.TransformationMode.SmoothTransformation))
        self.show_scene()

    def show_next(self, picture: QPixmap | None) -> None:
        """The next build's picture, or none (the next click reveals or changes scene, or
        the picture is being drawn again): then the words alone say what comes."""
        if picture is None:
            self.next_picture.clear()
            self.next_picture.hide()
            return
        self.next_picture.setPixmap(picture.scaledToWidth(
            round(NEXT_SHARE * self.width()), Qt.TransformationMode.SmoothTransformation))
        self.next_picture.setToolTip(self.coming.text())
        self.next_picture.show()

    def show_blank(self, on: bool) -> None:
        """Say that the projector is black (B brings the scene back)."""
        self.blanked.setVisible(bool(on))

    def start_clock(self) -> None:
        """The lesson's time runs from the first time the stage goes up."""
        if not self._ticker.isActive():
            self._started.restart()
            self._ticker.start()
        self._tick()

    def elapsed_ms(self) -> int:
        return self._started.elapsed()

    def _tick(self) -> None:
        if self.poll.running:
            self.connected.setText(tr("console.poll_devices", count=self.poll.connected,
                                      address=self.poll.address, room=self.poll.room))
        seconds = self._started.elapsed() // 1000
        self.clock.setText(tr("console.clock", minutes=seconds // 60,
                              seconds=f"{seconds % 60:02d}"))

    def retranslate(self) -> None:
        self.setWindowTitle(tr("console.title"))
        self.blanked.setText(tr("console.blanked"))
        self.reveal_button.setText(tr("guide.scene.reveal"))
        self.show_scene()
        self._tick()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing the console is not leaving the lesson: it only hides itself."""
        event.ignore()
        self.hide()
