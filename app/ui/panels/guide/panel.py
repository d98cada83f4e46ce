"""Owns the lesson guide panel, which is the lesson's stepper: the current scene's notes on top,
and under them only the guide blocks that scene needs (the story, measure-it-here, the
checklist, the misconception, evidence, questions).

Numbers come from `lesson_figures()` and the data through `lesson_values`; the checklist
ticks from the student's own choices (`Document.chosen`); questions go to an atomic Markdown
log in the user's data folder.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.questions import LOG_NAME
from app.paths import user_data_dir
from app.state.document import Document
from app.state.lesson import LessonRun
from app.ui.fonts import HEADING, READING, TITLE, emphasize
from app.ui.lesson_values import bold_values, lesson_values, scene_values
from app.ui.panels.base import Panel, PanelParts
from app.ui.panels.guide import SPEC
from app.ui.panels.guide.ask import AskBox
from app.ui.panels.guide.checklist import Checklist
from app.ui.panels.guide.measure import MeasureBox
from app.ui.panels.guide.sections import AFTER_MEASURE, BEFORE_MEASURE, CLOSING, section_html
from app.ui.panels.guide.stepper import Stepper
from app.ui.qt_known import layout_of
from app.ui.widgets.reshaped_note import ReshapedNote
from app.ui.widgets.rich_label import rich_label
from app.ui.widgets.stage_text import kept_whole
from app.ui.widgets.wheel_guard import WheelOnlyWhenFocused

__all__ = ["AskBox", "GuidePanel"]

GUIDE_TEXT_LINES = 2
"""Lines of the guide's own text (it scrolls) kept in view above a panel set under it."""
TITLED_BY_SCENE = frozenset({"guide_step1", "guide_step2", "guide_step3", "guide_myth"})
"""Blocks whose heading is the title of the scene that shows them: not printed twice."""


class GuidePanel(Panel):
    """The stepper and, under it, the current scene's blocks of the lesson page."""

    name = "guide"
    depends_on = ()
    scroll: QScrollArea  # type: ignore[assignment]  # the attribute hides QWidget.scroll()
    """Nothing: its notes follow the lesson run, its checklist the class's choices."""
    observes_while_hidden = SPEC.observes_while_hidden  # declared once, with its dock

    @classmethod
    def build(cls, parts: PanelParts) -> GuidePanel:
        return cls(parts.document, parts.lesson)

    def __init__(self, document: Document, run: LessonRun,
                 parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.figures = document.figures
        self.values: dict[str, str] = {}
        self.run = run
        self._withheld = False
        self.stepper = Stepper(self.run)
        self.question = rich_label("guide_question", selectable=True)
        self.labels: dict[str, QLabel] = {}
        self.measure = MeasureBox()
        self._wheel_guard = WheelOnlyWhenFocused(self)
        for box in (self.measure.t_box, self.measure.d_box):
            box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # not by the wheel
        self._wheel_guard.guard(self.measure.t_box, self.measure.d_box)
        self.checklist_title = QLabel()
        self.checklist = Checklist(document.data)
        self.ask = AskBox(user_data_dir() / LOG_NAME)
        page = QWidget()
        page.setObjectName("guide_page")
        emphasize(page, READING)  # the lesson reads at 12 pt; the titles stand out further
        emphasize(self.question, HEADING, bold=True)
        emphasize(self.checklist_title, TITLE, bold=True)
        column = QVBoxLayout(page)
        column.setContentsMargins(10, 6, 10, 8)
        column.addWidget(self.stepper)  # the scene's notes scroll with the page: never clipped
        column.addWidget(ReshapedNote(document, "guide_reshaped"))  # its numbers: the lesson's
        column.addWidget(self.question)
        self._add_sections(column, BEFORE_MEASURE)
        column.addWidget(self.measure)
        self._add_sections(column, AFTER_MEASURE)
        column.addWidget(self.checklist_title)
        column.addWidget(self.checklist)
        self._add_sections(column, CLOSING)
        column.addWidget(self.ask)
        column.addStretch(1)
        self.blocks: dict[str, tuple[QWidget, ...]] = {
            **{name.removeprefix("guide_"): (label,) for name, label in self.labels.items()},
            "measure": (self.measure,), "checklist": (self.checklist_title, self.checklist),
            "ask": (self.ask,),
        }
        self.question.hide()  # the stepper's scene title asks the question now
        self.scroll = QScrollArea()
        self.scroll.setObjectName("guide_scroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(page)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll, 1)
        document.chosen.connect(self._on_chosen)
        self.run.moved.connect(lambda _index: self._show_blocks())
        self.run.revealed.connect(lambda _index: self._show_blocks())
        self.run.revealed.connect(lambda _index: QTimer.singleShot(
            0, self, lambda: self.scroll.ensureWidgetVisible(self.stepper.answer)))
        self.checklist.show_progress()
        self.retranslate()

    def _add_sections(self, column: QVBoxLayout, sections: tuple) -> None:
        for section in sections:
            label = rich_label(section.name, selectable=True)
            self.labels[section.name] = label
            column.addWidget(label)

    def notes_height(self, width: int | None = None) -> int:
        """Pixels the scene's notes need at `width` (default: as wide as they are now): its
        title, what to look at and its question whole, and a few lines of the guide's own
        text (which scrolls)."""
        line = QFontMetrics(self.font()).lineSpacing()
        text = (max(self.scroll.minimumSizeHint().height(), GUIDE_TEXT_LINES * line)
                if self.run.scene.blocks else 0)
        notes = self.stepper.heightForWidth(width or self.stepper.width())
        return notes + text + 2 * layout_of(self).spacing()

    def withhold(self, on: bool) -> None:
        """Where the class can see it (the notes band, the lesson's docks), the blocks that
        answer the scene's question stay back until it is revealed; at the desk and on the
        presenter console they show."""
        if on != self._withheld:
            self._withheld = on
            self._show_blocks()

    def _show_blocks(self) -> None:
        """Only the blocks the current scene asks for, from the top of the page (those that
        answer its question only once revealed, while withheld)."""
        scene = self.run.scene
        wanted = set(scene.blocks)
        if self._withheld and not self.run.is_revealed():
            wanted -= set(scene.answer_blocks)
        for name, widgets in self.blocks.items():
            for widget in widgets:
                widget.setVisible(name in wanted)
        self.scroll.verticalScrollBar().setValue(0)

    def _on_chosen(self, _query: int, _key: int) -> None:
        self.checklist.chosen(self.document.state, self.document.view)

    def retranslate(self) -> None:
        data = self.document.data
        self.values = lesson_values(self.figures, data)
        names = (data.dialogue.query_token, *data.dialogue.key_tokens, *data.teaching.tokens)
        bold = whole_names(bold_values(self.values), names)
        self.question.setText(f"<h2>{html.escape(tr('guide.question'))}</h2>")
        for section in (*BEFORE_MEASURE, *AFTER_MEASURE, *CLOSING):
            text = (section.body(bold) if section.name in TITLED_BY_SCENE
                    else section_html(section, bold))
            self.labels[section.name].setText(text)
        self.checklist_title.setText(tr("guide.try.title"))
        self.checklist.set_values(bold)
        self.measure.retranslate()
        self.ask.retranslate()
        scene_bold, plain = scene_values(self.figures, data, self.run.lesson)
        self.stepper.retranslate(whole_names(scene_bold, names), plain)
        self._show_blocks()


def whole_names(values: dict[str, str], names: tuple[str, ...]) -> dict[str, str]:
    """The values with every token's name held whole: the guide's lines wrap wherever its
    column ends, and Chinese may otherwise break inside a name ("给/了")."""
    return {key: kept_whole(text, names) for key, text in values.items()}
