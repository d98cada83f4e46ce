"""Owns the guide's stepper: the clickable scene strip ("5 / 14"), previous / next, the scene's
title and what to look at, the hidden answer with its Reveal button, and the offer to set a
scene up again. It reads and drives a `LessonRun`; the texts' numbers come from computed values.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from app import i18n
from app.i18n import tr
from app.model.scenes import Text
from app.state.lesson import LessonRun
from app.ui.fonts import HEADING, READING, STRONG, emphasize
from app.ui.look import OKABE_ITO
from app.ui.widgets.rich_label import rich_label

CURRENT_COLOUR = OKABE_ITO[0]
SEEN_COLOUR = OKABE_ITO[4]


class SceneStrip(QWidget):
    """One segment per scene, the current one filled: click a segment to go to that scene."""

    clicked = Signal(int)

    def __init__(self, count: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guide_scene_strip")
        self.count = count
        self.current = 0
        self.seen: set[int] = {0}
        self.titles: list[str] = []
        self.setMinimumHeight(14)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def sizeHint(self) -> QSize:
        return QSize(self.count * 16, max(14, self.fontMetrics().height() // 2))

    def set_current(self, index: int) -> None:
        self.current = index
        self.seen.add(index)
        self.update()

    def segment(self, index: int) -> QRectF:
        """Where scene `index` is drawn (tests click its centre)."""
        width = self.width() / max(self.count, 1)
        return QRectF(index * width + 1, 1, width - 2, self.height() - 2)

    def index_at(self, point: QPointF) -> int:
        return min(max(int(point.x() / max(self.width() / self.count, 1)), 0), self.count - 1)

    def tip(self, index: int) -> str:
        """What hovering a segment says: the scene's number and title, so a teacher can find
        a scene by name before clicking."""
        title = self.titles[index] if index < len(self.titles) else ""
        return tr("guide.scene.strip_tip", number=index + 1, count=self.count, title=title)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            QToolTip.showText(event.globalPos(), self.tip(self.index_at(QPointF(event.pos()))),
                              self)
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.index_at(event.position()))

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        mid = self.palette().color(QPalette.ColorRole.Mid)
        for index in range(self.count):
            rect = self.segment(index)
            if index == self.current:
                painter.fillRect(rect, QColor(CURRENT_COLOUR))
            elif index in self.seen:
                painter.fillRect(rect, QColor(SEEN_COLOUR))
            else:
                painter.setPen(mid)
                painter.drawRect(rect.adjusted(0, 0, -1, -1))


class Stepper(QWidget):
    """The scene on stage: where we are, what it is, what to look at, what is still hidden."""

    def __init__(self, run: LessonRun, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guide_stepper")
        self.run = run
        self.values: dict[str, str] = {}
        self.plain: dict[str, str] = {}
        self.previous_button = QPushButton("◀")
        self.previous_button.setObjectName("guide_previous")
        self.next_button = QPushButton("▶")
        self.next_button.setObjectName("guide_next_scene")
        for button in (self.previous_button, self.next_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Space must stay the clicker's key
        self.previous_button.clicked.connect(run.previous)
        self.next_button.clicked.connect(run.next)
        self.counter = QLabel()
        self.counter.setObjectName("guide_scene_counter")
        emphasize(self.counter, STRONG, bold=True)
        self.strip = SceneStrip(run.count)
        self.strip.clicked.connect(run.go)
        self.title = QLabel()
        self.title.setObjectName("guide_scene_title")
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        emphasize(self.title, HEADING, bold=True)
        self.look = rich_label("guide_scene_look")
        emphasize(self.look, READING)
        self.prompt = rich_label("guide_scene_prompt")
        emphasize(self.prompt, READING, bold=True)
        self.reveal_button = QPushButton()
        self.reveal_button.setObjectName("guide_reveal")
        self.reveal_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.reveal_button.clicked.connect(run.reveal)
        self.answer = rich_label("guide_scene_answer")
        emphasize(self.answer, READING)
        self.offer = QFrame()
        self.offer.setObjectName("guide_offer")
        self.offer.setFrameShape(QFrame.Shape.StyledPanel)
        self.offer_text = QLabel()
        self.offer_text.setWordWrap(True)
        self.set_up_button = QPushButton()
        self.set_up_button.setObjectName("guide_set_up_again")
        self.set_up_button.clicked.connect(run.set_up_again)
        offer_row = QHBoxLayout(self.offer)
        offer_row.setContentsMargins(6, 4, 6, 4)
        offer_row.addWidget(self.offer_text, 1)
        offer_row.addWidget(self.set_up_button)
        top = QHBoxLayout()
        top.addWidget(self.previous_button)
        top.addWidget(self.counter)
        top.addWidget(self.strip, 1)
        top.addWidget(self.next_button)
        answer_row = QHBoxLayout()
        answer_row.addWidget(self.prompt, 1)
        answer_row.addWidget(self.reveal_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.addLayout(top)
        layout.addWidget(self.title)
        layout.addWidget(self.look)
        layout.addLayout(answer_row)
        layout.addWidget(self.answer)
        layout.addWidget(self.offer)
        run.moved.connect(lambda _index: self.show_scene())
        run.revealed.connect(lambda _index: self.show_scene())
        run.offer_changed.connect(lambda _on: self.show_scene())

    def fill(self, text: Text) -> str:
        """A scene text in the current language, its placeholders filled with bold values."""
        return text.get(i18n.chain()).format(**self.values)

    def show_scene(self) -> None:
        run, scene = self.run, self.run.scene
        self.counter.setText(tr("guide.scene.counter", number=run.index + 1, count=run.count))
        self.strip.set_current(run.index)
        self.previous_button.setEnabled(run.index > 0)
        self.next_button.setEnabled(run.index < run.count - 1 or not run.is_revealed())
        self.title.setText(scene.title.get(i18n.chain()).format(**self.plain))
        self.look.setText(self.fill(scene.look))
        hidden = scene.prompt is not None
        revealed = run.is_revealed()
        self.prompt.setVisible(hidden)
        self.reveal_button.setVisible(hidden and not revealed)
        self.answer.setVisible(hidden and revealed)
        if scene.prompt is not None and scene.answer is not None:
            self.prompt.setText(self.fill(scene.prompt))
            self.answer.setText(self.fill(scene.answer))
        self.offer.setVisible(run.offer)

    def retranslate(self, values: dict[str, str], plain: dict[str, str]) -> None:
        """New values (bold HTML for the notes, plain for the title) in the new language."""
        self.values, self.plain = values, plain
        self.previous_button.setToolTip(tr("guide.scene.previous"))
        self.next_button.setToolTip(tr("guide.scene.next"))
        self.strip.setToolTip(tr("guide.scene.strip"))
        self.strip.titles = [scene.title.get(i18n.chain()).format(**plain)
                             for scene in self.run.lesson.scenes]
        self.reveal_button.setText(tr("guide.scene.reveal"))
        self.offer_text.setText(tr("guide.scene.offer"))
        self.set_up_button.setText(tr("guide.scene.set_up"))
        self.show_scene()
