"""Owns the guide's stepper: the clickable scene strip ("5 / 14"), previous / next, the scene's
title and what to look at, the hidden answer with its Reveal button, and the offer to set a
scene up again. It reads and drives a `LessonRun`; the texts' numbers come from computed values.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.lesson.scenes import Text
from app.state.lesson import LessonRun
from app.ui.fonts import HEADING, READING, STRONG, emphasize
from app.ui.widgets.rich_label import rich_label
from app.ui.widgets.scene_strip import SceneStrip


class Stepper(QWidget):
    """The scene on stage: where we are, what it is, what to look at, what is still hidden."""

    def __init__(self, run: LessonRun, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guide_stepper")
        self.run = run
        self.values: dict[str, str] = {}
        self.plain: dict[str, str] = {}
        self._steps = True
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

    def show_steps(self, on: bool) -> None:
        """Its own ◀ ▶ and Reveal, or not: on the stage's band and the console, the stage's
        footer and the console's buttons step the scene, so there is one set, not two."""
        self._steps = bool(on)
        self.show_scene()

    def fill(self, text: Text) -> str:
        """A scene text in the current language, its placeholders filled with bold values."""
        return tr(text.key, **self.values)

    def show_scene(self) -> None:
        run, scene = self.run, self.run.scene
        self.counter.setText(tr("guide.scene.counter", number=run.index + 1, count=run.count))
        self.strip.set_current(run.index)
        self.previous_button.setVisible(self._steps)
        self.next_button.setVisible(self._steps)
        self.previous_button.setEnabled(run.index > 0)
        self.next_button.setEnabled(run.index < run.count - 1 or not run.is_revealed())
        self.title.setText(tr(scene.title.key, **self.plain))
        self.look.setText(self.fill(scene.look))
        hidden = scene.prompt is not None
        revealed = run.is_revealed()
        asked = scene.prompt or scene.question
        self.prompt.setVisible(asked is not None)
        self.reveal_button.setVisible(hidden and not revealed and self._steps)
        self.answer.setVisible(hidden and revealed)
        if asked is not None:
            self.prompt.setText(self.fill(asked))
        if scene.prompt is not None and scene.answer is not None:
            self.answer.setText(self.fill(scene.answer))
        self.offer.setVisible(run.offer)

    def retranslate(self, values: dict[str, str], plain: dict[str, str]) -> None:
        """New values (bold HTML for the notes, plain for the title) in the new language."""
        self.values, self.plain = values, plain
        self.previous_button.setToolTip(tr("guide.scene.previous"))
        self.next_button.setToolTip(tr("guide.scene.next"))
        self.strip.setToolTip(tr("guide.scene.strip"))
        self.strip.titles = [tr(scene.title.key, **plain) for scene in self.run.lesson.scenes]
        self.reveal_button.setText(tr("guide.scene.reveal"))
        self.offer_text.setText(tr("guide.scene.offer"))
        self.set_up_button.setText(tr("guide.scene.set_up"))
        self.show_scene()
