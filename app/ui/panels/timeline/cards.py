"""Owns the timeline's cards (what each stage solved and where it got stuck) and the keyboard
stage strip; the numbers in them come from `app.ui.lesson_values`."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QToolButton, QWidget

from app.i18n import tr
from app.model.timeline import STAGES, TRACKS, Milestone
from app.ui.fonts import emphasize
from app.ui.lesson_values import bold_values
from app.ui.look import OKABE_ITO, Look
from app.ui.widgets.flow import FlowLayout

HERE_COLOUR = OKABE_ITO[1]


def card_html(chosen: Milestone, values: dict[str, str],
              live: dict[str, str | None] | None = None) -> str:
    """The expanded card: name, source and year, what it solved, where it got stuck.

    `live` holds figures recomputed from the class's vectors: where one differs from what the
    lesson printed, the card shows the live number (the one the bars beside it show) and
    names the other as the lesson's, so a changed bar never sits beside a stale quote; None
    (the world was reshaped, nothing live to compare) names the number as the lesson's alone.
    """
    name_key, solved_key, stuck_key = (f"timeline.{chosen.id}.{part}"
                                       for part in ("name", "solved", "stuck"))
    bold = bold_values(values)
    for key, now in (live or {}).items():
        if key not in values or now == values[key]:
            continue
        lesson = html.escape(values[key])
        bold[key] = (tr("timeline.lesson_only", lesson=f"<b>{lesson}</b>") if now is None else
                     tr("timeline.live_vs_lesson", live=f"<b>{html.escape(now)}</b>",
                        lesson=lesson))
    here = (f" <span style='color:{HERE_COLOUR}'>★ {html.escape(tr('timeline.here'))}</span>"
            if chosen.here else "")
    return (
        f"<p style='font-size:large'><b>{html.escape(tr(name_key))}</b>{here}</p>"
        + (f"<p><i>{html.escape(chosen.source)}</i></p>" if chosen.source else "")
        + f"<p><b>{html.escape(tr('timeline.solved'))}</b> {tr(solved_key, **bold)}</p>"
        f"<p><b>{html.escape(tr('timeline.stuck'))}</b> {tr(stuck_key, **bold)}</p>"
    )


STRIP_KEYS = (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down,
              Qt.Key.Key_Return, Qt.Key.Key_Enter)
"""Keys the strip answers itself (Space too, but the lesson's stepper decides about Space)."""


class StageStrip(QWidget):
    """Two tracks of stage chips, each wrapping into rows at the dock's width (a projector's
    narrow dock shows every stage, no sideways scrolling); ←/→ move, ↑/↓ switch track,
    Enter or a click expands."""

    expanded = Signal(str)
    """A stage id the user asked to open (click or Enter)."""
    moved = Signal(object)
    """The keyboard moved the current chip (the chip widget, so a scroll area can follow)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timeline_strip")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.order = [s.id for s in STAGES]
        self.current = 0
        self.track_labels: dict[str, QLabel] = {}
        self.chips: dict[str, QToolButton] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(4)
        grid.setColumnStretch(1, 1)
        self.flows: dict[str, FlowLayout] = {}
        """Each track's chips wrap into as many rows as the dock's width needs."""
        for row, track in enumerate(TRACKS):
            label = QLabel()
            emphasize(label, bold=True)  # the strip's style sheet would freeze inherited fonts
            self.track_labels[track] = label
            grid.addWidget(label, row, 0, Qt.AlignmentFlag.AlignTop)
            chips = QWidget()
            self.flows[track] = FlowLayout(chips)
            grid.addWidget(chips, row, 1)
            for item in (s for s in STAGES if s.track == track):
                chip = QToolButton()
                chip.setObjectName(f"timeline_chip_{item.id}")
                chip.setCheckable(True)
                emphasize(chip, bold=item.here)
                chip.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                chip.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
                chip.clicked.connect(lambda _=False, sid=item.id: self._on_clicked(sid))
                self.chips[item.id] = chip
                self.flows[track].addWidget(chip)

    def _on_clicked(self, stage_id: str) -> None:
        self.current = self.order.index(stage_id)
        self.setFocus(Qt.FocusReason.MouseFocusReason)  # the keys go on where the click was
        self.expanded.emit(stage_id)

    def event(self, event: QEvent) -> bool:
        """While the strip has focus its keys are its own: no window shortcut (a panel's
        arrow keys, a menu's Enter) takes ←/→/↑/↓/Enter from it."""
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and event.key() in STRIP_KEYS
                and event.modifiers() in (Qt.KeyboardModifier.NoModifier,
                                          Qt.KeyboardModifier.KeypadModifier)):
            event.accept()
            return True
        return super().event(event)

    def show_expanded(self, stage_id: str | None) -> None:
        """Check the document's stage (if any) without emitting anything."""
        for sid, chip in self.chips.items():
            chip.setChecked(sid == stage_id)
        if stage_id in self.chips:
            self.current = self.order.index(stage_id)
        self._mark_current()

    def _mark_current(self) -> None:
        for index, sid in enumerate(self.order):
            chip = self.chips[sid]
            if chip.property("current") == (index == self.current):
                continue  # re-polishing a chip relays it out: a drag step would, 13 times
            chip.setProperty("current", index == self.current)
            chip.style().unpolish(chip)
            chip.style().polish(chip)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        here = STAGES[self.current]
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            step = -1 if key == Qt.Key.Key_Left else 1
            self.current = min(max(self.current + step, 0), len(self.order) - 1)
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            track = TRACKS[0] if key == Qt.Key.Key_Up else TRACKS[-1]
            if track != here.track:
                self.current = next(i for i, s in enumerate(STAGES) if s.track == track)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.expanded.emit(self.order[self.current])
        else:
            super().keyPressEvent(event)
            return
        self._mark_current()
        self.moved.emit(self.chips[self.order[self.current]])
        event.accept()

    def retranslate(self) -> None:
        for track, label in self.track_labels.items():
            label.setText(tr(f"timeline.track.{track}_short"))
            label.setToolTip(tr(f"timeline.track.{track}"))
        for item in STAGES:
            year = f" · {item.year}" if item.year else ""
            star = "★ " if item.here else ""
            self.chips[item.id].setText(f"{star}{tr(f'timeline.{item.id}.chip')}{year}")
            self.chips[item.id].setToolTip(tr("timeline.here") if item.here else "")

    def apply_look(self, look: Look) -> None:
        theme = look.theme
        self.setStyleSheet(
            f"QToolButton {{ border: {look.px(1):.0f}px solid {theme.grid}; border-radius: 4px;"
            f" padding: {look.px(2):.0f}px {look.px(4):.0f}px; }}"
            f"QToolButton:checked {{ background: #DCEAF7; color: #000000;"
            f" border: {look.px(2):.0f}px solid {OKABE_ITO[0]}; }}"
            f"QToolButton[current=\"true\"] {{ border: {look.px(3):.0f}px solid {HERE_COLOUR}; }}"
        )
