"""Owns the "try three things" checklist, ticked by what the student does to the document.

The tracker watches successive (world, query, key, stage) snapshots of the document: only a
real change of selection counts, so nothing ticks at start-up, and a timeline stage that
switches worlds on the student's behalf is not mistaken for the student's own choice.
Ticks stay for the session, whatever undo does later.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from app.i18n import tr
from app.model.data import LessonData
from app.model.state import LabState
from app.model.view import View
from app.ui.fonts import READING, emphasize
from app.ui.look import OKABE_ITO

ITEM_KEYS = ("guide.try.one", "guide.try.two", "guide.try.three")
DONE_COLOUR = OKABE_ITO[2]


@dataclass(frozen=True)
class Snapshot:
    world: str
    query: int
    key: int
    stage: str | None

    @classmethod
    def of(cls, state: LabState) -> Snapshot:
        return cls(state.world, state.query, state.key, state.options.stage)


class ChecklistTracker:
    """Decides, from document states alone, which of the three tasks the student has done."""

    def __init__(self, data: LessonData) -> None:
        dialogue, teaching = data.dialogue, data.teaching
        self.match_key = dialogue.key_index("match")
        self.car_key = dialogue.key_index("opposite")
        self.pair = (teaching.index("query"), teaching.index("object"))
        self.seen_dialogue_keys: set[int] = set()
        self.done = [False, False, False]
        self._previous: Snapshot | None = None

    def observe(self, state: LabState, view: View) -> list[int]:
        """Look at the current state; returns the indices of tasks that just got done."""
        now, before = Snapshot.of(state), self._previous
        self._previous = now
        if before is None or (now.world, now.query, now.key) == (
                before.world, before.query, before.key):
            return []
        by_student = now.stage == before.stage
        if not by_student:
            return []
        ticked = []
        if now.world == "dialogue":
            self.seen_dialogue_keys.add(now.key)
            if {self.match_key, self.car_key} <= self.seen_dialogue_keys:
                ticked.append(0)
        if now.world == "teaching" and (now.query, now.key) == self.pair:
            ticked.append(1)
        swapped = {key for swap in view.swaps for key in (swap.key_a, swap.key_b)}
        if now.key in swapped:
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
        self.tracker = ChecklistTracker(data)
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

    def observe(self, state: LabState, view: View) -> None:
        for index in self.tracker.observe(state, view):
            self.ticked.emit(index)
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
