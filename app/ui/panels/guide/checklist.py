"""Owns the "try three things" checklist, ticked only by what the student chose themselves.

The document's `chosen` signal comes from the student's own selections, never from a scene,
a timeline stage or a world switch landing on a pair, so the first screen and every setup tick
nothing. Progress is kept per user in the settings file, so a student who comes back after a
restart sees what they already did.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from app.i18n import tr
from app.model.lesson.data import LessonData
from app.model.reshape import role_index
from app.model.state import LabState
from app.model.view import View
from app.ui import settings as keys
from app.ui.fonts import READING, emphasize
from app.ui.look import OKABE_ITO
from app.ui.settings import settings

ITEM_KEYS = ("guide.try.one", "guide.try.two", "guide.try.three")
DONE_COLOUR = OKABE_ITO[2]


def stored_progress() -> list[bool]:
    """The tasks this user already did, from the settings file (nothing for a bad value)."""
    text = settings().value(keys.CHECKLIST_DONE, "")
    marks = str(text).split(",") if isinstance(text, (str, list)) else []
    if isinstance(text, list):
        marks = [str(mark) for mark in text]
    return [str(index) in marks for index in range(len(ITEM_KEYS))]


def store_progress(done: list[bool]) -> None:
    store = settings()
    store.setValue(keys.CHECKLIST_DONE, ",".join(str(i) for i, on in enumerate(done) if on))
    store.sync()


class ChecklistTracker:
    """Decides, from the pairs the student chose, which of the three tasks they have done."""

    def __init__(self, data: LessonData, done: list[bool] | None = None) -> None:
        dialogue, teaching = data.dialogue, data.teaching
        self.match_key = dialogue.key_index("match")
        self.car_key = dialogue.key_index("opposite")
        self.pair = (teaching.index("query"), teaching.index("object"))
        self._data = data
        self.done = list(done) if done is not None else [False, False, False]

    def pair_in(self, state: LabState) -> tuple[int | None, int | None]:
        """The query token and its object in `state`'s teaching world, found by name (a
        reshaped world moves them, or has them no more: None)."""
        return role_index(state, self._data, "query"), role_index(state, self._data, "object")

    def chosen(self, state: LabState, view: View) -> list[int]:
        """The student chose the pair `state` shows; returns the tasks that just got done:
        ① the opposite key in the 2-D world (the match is what it opens on), ② the query
        against its object in 4-D, ③ a key whose rank differs between dot and cosine."""
        ticked = []
        if state.world == "dialogue" and state.key == self.car_key:
            ticked.append(0)
        if state.world == "teaching" and (state.query, state.key) == self.pair_in(state):
            ticked.append(1)
        swapped = {key for swap in view.swaps for key in (swap.key_a, swap.key_b)}
        if state.key in swapped:
            ticked.append(2)
        fresh = [index for index in ticked if not self.done[index]]
        for index in fresh:
            self.done[index] = True
        return fresh


class Checklist(QWidget):
    """Three tasks, each with a mark that turns to "done" (text and colour, not colour alone)."""

    ticked = Signal(int)
    """A task (0, 1 or 2) was done for the first time this session."""

    def __init__(self, data: LessonData, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guide_checklist")
        self.tracker = ChecklistTracker(data, stored_progress())
        self.values: dict[str, str] = {}
        self.marks: list[QLabel] = []
        self.texts: list[QLabel] = []
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setColumnStretch(1, 1)
        for row in range(len(ITEM_KEYS)):
            mark, text = QLabel(), QLabel()
            mark.setObjectName(f"guide_try_mark_{row}")
            text.setObjectName(f"guide_try_text_{row}")
            text.setWordWrap(True)
            text.setTextFormat(Qt.TextFormat.RichText)
            mark.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            emphasize(mark, READING, bold=True)  # its colour style sheet would freeze the font
            self.marks.append(mark)
            self.texts.append(text)
            grid.addWidget(mark, row, 0)
            grid.addWidget(text, row, 1)

    @property
    def done(self) -> list[bool]:
        return list(self.tracker.done)

    def chosen(self, state: LabState, view: View) -> None:
        """The student chose a pair: tick what it completes, and remember it for this user."""
        fresh = self.tracker.chosen(state, view)
        if fresh:
            store_progress(self.tracker.done)
        for index in fresh:
            self.ticked.emit(index)
        self._show()

    def show_progress(self) -> None:
        self._show()

    def set_values(self, values: dict[str, str]) -> None:
        """Placeholders (already bold HTML) for the task texts; call after a language change."""
        self.values = values
        self._show()

    def _show(self) -> None:
        for index, key in enumerate(ITEM_KEYS):
            done = self.tracker.done[index]
            self.marks[index].setText(tr("guide.try.done") if done else tr("guide.try.todo"))
            self.marks[index].setStyleSheet(f"color: {DONE_COLOUR}" if done else "")
            number = html.escape(f"{index + 1}.")
            self.texts[index].setText(f"{number} {tr(key, **self.values)}")
