"""Owns the class's answers as the stage shows them: one bar per choice with its count, none
marked while the class still answers; after Reveal, the right answer marked beside the split.

The choices are the teacher's texts and the counts are numbers: nothing a phone sends is
shown, and every label is plain text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.answers.tally import MAX_DEVICES, SceneCounts
from app.model.lesson.scenes import Scene
from app.poll.classpoll import ClassPoll
from app.ui.fonts import HEADING, emphasize
from app.ui.format import format_number
from app.ui.qt_known import layout_of

__all__ = ["RIGHT_COLOUR", "Bar", "PollBars"]

LETTERS = "ABCDEFGHIJKLMNOP"
RIGHT_COLOUR = QColor("#2e7d32")
COMPACT_COLUMNS = 5
"""Compact, a scene's choices (at most five) stand on one line."""
BAR_HEIGHT_EM = 0.8
BAR_WIDTH_EM = 3.5
"""A bar is this many of its font's em wide: a share reads at a glance, and the choice's
words, which the class reads, keep the rest of the row."""
COMPACT_BAR_EM = 2.0
"""Compact, five choices and the total share one line of a 1024-pixel stage at 100 %."""


def _plain(name: str, bold: bool = False) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    emphasize(label, HEADING, bold)
    return label


class Bar(QWidget):
    """A horizontal bar: `share` of its width filled, in the palette's highlight or `colour`."""

    def __init__(self) -> None:
        super().__init__()
        self.share = 0.0
        self.width_em = BAR_WIDTH_EM
        self.colour: QColor | None = None
        self.dim = False
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        return QSize(round(metrics.height() * self.width_em),
                     round(metrics.height() * BAR_HEIGHT_EM))

    def set_bar(self, share: float, colour: QColor | None, dim: bool) -> None:
        if (share, colour, dim) != (self.share, self.colour, self.dim):
            self.share, self.colour, self.dim = share, colour, dim
            self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        track = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        radius = track.height() / 4
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(track, radius, radius)
        if self.share > 0:
            fill = QRectF(track)
            fill.setWidth(max(track.height() / 2, track.width() * self.share))
            colour = self.colour or palette.color(QPalette.ColorRole.Highlight)
            if self.dim:
                colour = palette.color(QPalette.ColorRole.Mid)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            painter.drawRoundedRect(fill, radius, radius)
        painter.end()


class _Row(QWidget):
    """One choice on one line: its letter, its text, its bar and count (and, once revealed,
    the right-answer mark). A long text wraps between words; the bar stays beside it, so the
    split takes a line per choice and never pushes the scene off the screen."""

    def __init__(self) -> None:
        super().__init__()
        self.letter, self.text = _plain("poll_letter"), _plain("poll_choice")
        self.number, self.mark = _plain("poll_count"), _plain("poll_right", bold=True)
        self.text.setWordWrap(True)
        self.number.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.mark.setStyleSheet(f"color: {RIGHT_COLOUR.name()};")
        self.mark.setVisible(False)
        self.bar = Bar()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.letter, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.text, 1)
        row.addWidget(self.bar, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addWidget(self.number, 0)
        row.addWidget(self.mark, 0)

    def mark_after_letter(self, on: bool) -> None:
        """Compact, the choices stand side by side and a mark after a count would sit
        nearer the next choice's letter than its own: it goes right after its letter."""
        row = cast(QHBoxLayout, self.layout())  # made in __init__
        row.removeWidget(self.mark)
        row.insertWidget(1 if on else row.count(), self.mark, 0)

    def show_choice(self, index: int, text: str, count: int, share: float, right: bool,
                    revealed: bool) -> None:
        self.letter.setText(LETTERS[index])
        self.text.setText(text)
        self.number.setText(format_number(count))
        # as wide as the largest count: an answer coming in never rewraps the choice's words
        self.number.setMinimumWidth(
            self.number.fontMetrics().horizontalAdvance(format_number(MAX_DEVICES)))
        self.mark.setText("✓" if right else "")
        self.mark.setToolTip(tr("poll.bars.right") if right else "")
        self.mark.setVisible(right)
        for label in (self.letter, self.text, self.number):
            emphasize(label, HEADING, bold=right)
        self.bar.set_bar(share, RIGHT_COLOUR if right else None, revealed and not right)


class PollBars(QWidget):
    """The split of one scene's answers; `show_counts` draws it, `bind` follows a poll."""

    reshaped = Signal()
    """Another question's choices: the split takes another height (a count never does)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("poll_bars")
        self._counts: SceneCounts | None = None
        self._revealed: Callable[[], bool] | None = None
        self._scene: Scene | None = None  # the scene `show_scene` last showed
        self.rows: list[_Row] = []
        self.compact = False
        """Letters, bars and counts only, several to a line: for a stage whose header has
        no room for every choice's words (the phones show them)."""
        self._list = QGridLayout()
        self.total = _plain("poll_total")
        self.total.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(self._list)
        layout.addStretch(1)
        self._lay_rows()
        self.show_counts(None)

    @property
    def counts(self) -> SceneCounts | None:
        return self._counts

    def set_compact(self, on: bool) -> None:
        """Each choice's words (one line a choice), or only its letter, bar and count,
        COMPACT_COLUMNS to a line."""
        on = bool(on)
        if on != self.compact:
            self.compact = on
            self._lay_rows()
            self.show_counts(self._counts)

    def _lay_rows(self) -> None:
        columns = COMPACT_COLUMNS if self.compact else 1
        # side by side, a count and the next choice's letter stand ¾ em apart, and each
        # count sits against its own bar, never nearer the next letter than its own bar
        self._list.setHorizontalSpacing(self.fontMetrics().height() * 3 // 4
                                        if self.compact else 0)
        for widget in (*self.rows, self.total):
            self._list.removeWidget(widget)
        self.total.setWordWrap(not self.compact)  # compact, it closes a line: one line
        for i, row in enumerate(self.rows):
            row.text.setVisible(not self.compact)
            row.bar.width_em = COMPACT_BAR_EM if self.compact else BAR_WIDTH_EM
            row.number.setAlignment((Qt.AlignmentFlag.AlignLeft if self.compact
                                     else Qt.AlignmentFlag.AlignRight)
                                    | Qt.AlignmentFlag.AlignVCenter)
            row.bar.updateGeometry()
            layout_of(row).setAlignment(row.letter, Qt.AlignmentFlag.AlignVCenter if self.compact
                                      else Qt.AlignmentFlag.AlignTop)
            row.mark_after_letter(self.compact)
            self._list.addWidget(row, i // columns, i % columns)
            row.show()  # a child added to a shown widget is not shown by itself
        self._place_total()

    def _place_total(self) -> None:
        """Compact, how many answered closes the one line while the line has the width for
        it (a narrow stage puts it on a line of its own); else it is a line of its own."""
        count, columns = len(self.rows), COMPACT_COLUMNS if self.compact else 1
        closing = self.compact and count <= columns and self._line_width() <= self.width()
        where = (0, count) if closing else ((count + columns - 1) // columns, 0, 1, -1)
        index = self._list.indexOf(self.total)
        # getItemPosition gives (row, column, row span, column span); its stub says object
        if index >= 0 and cast("tuple[int, ...]", self._list.getItemPosition(index))[:2] == (
                where[:2]):
            return
        self._list.removeWidget(self.total)
        self._list.addWidget(self.total, *where)

    def _line_width(self) -> int:
        """The width of the compact line with the total closing it."""
        spacing = self._list.horizontalSpacing()
        margins = layout_of(self).contentsMargins()
        return (sum(row.sizeHint().width() + spacing for row in self.rows)
                + self.total.sizeHint().width() + margins.left() + margins.right())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.compact:
            self._place_total()

    def bind(self, poll: ClassPoll, revealed: Callable[[], bool] | None = None) -> None:
        """Show the counts of `poll`'s current question as they arrive; with `revealed`, the
        right answer is marked only once it says the scene's answer is revealed (counts
        brought back from a file are frozen before the class sees Reveal again)."""
        self._revealed = revealed

        def on_counts(scene: str, _counts: list) -> None:
            question = poll.question
            if self._scene is not None and scene == self._scene.id:
                self.show_scene(poll, self._scene)  # counts from a file may hide the bars
            elif question is not None and scene == question.scene:
                self.show_counts(poll.counts(scene))

        def on_kept() -> None:  # counts brought back with the poll off (while it runs, the
            if self._scene is not None and not poll.running:  # bars follow every count)
                self.show_scene(poll, self._scene)

        poll.counts_changed.connect(on_counts)
        poll.kept_changed.connect(on_kept)

    def show_scene(self, poll: ClassPoll, scene: Scene) -> None:
        """Shown for a scene that asks while the poll runs, or that the class answered; hidden
        on any other. Bound with `revealed`, counts that are frozen before the scene's Reveal
        (a scenario's, or answers put back: no one answered them on this stage) stay hidden
        until it, so they never hint at the answer. The scene is remembered: counts a file
        brings back later follow the same rule."""
        self._scene = scene
        counts = poll.counts(scene.id)
        earlier = (counts is not None and counts.frozen and self._revealed is not None
                   and not self._revealed())
        polled = (scene.poll is not None and not earlier
                  and (poll.running or poll.answered(scene.id)))
        self.setVisible(polled)
        if polled:
            self.show_counts(counts)

    def show_counts(self, counts: SceneCounts | None) -> None:
        """One bar per choice; the right one is marked only once the poll is frozen."""
        if counts is not None and self._revealed is not None and not self._revealed():
            counts = replace(counts, right=None)
        self._counts = counts
        wanted = len(counts.choices) if counts is not None else 0
        if len(self.rows) != wanted:
            while len(self.rows) > wanted:
                row = self.rows.pop()
                self._list.removeWidget(row)
                row.hide()  # out of sight now, not when the event loop deletes it
                row.deleteLater()
            while len(self.rows) < wanted:
                self.rows.append(_Row())
            self._lay_rows()
            self.reshaped.emit()
        if counts is None:
            self.total.setText(tr("poll.bars.no_question"))
            return
        most = max(counts.counts, default=0)
        revealed = counts.frozen and counts.right is not None
        for i, row in enumerate(self.rows):
            row.show_choice(i, counts.choices[i], counts.counts[i],
                            counts.counts[i] / most if most else 0.0,
                            revealed and i == counts.right, revealed)
        total = format_number(counts.total)
        if counts.frozen:  # compact, it closes the choices' line: short
            key = "poll.bars.compact_frozen" if self.compact else "poll.bars.frozen"
            self.total.setText(tr(key, count=total))
        elif counts.total:
            key = "poll.bars.compact_total" if self.compact else "poll.bars.total"
            self.total.setText(tr(key, count=total))
        else:
            self.total.setText(tr("poll.bars.compact_none" if self.compact else "poll.bars.none"))
        if self.compact:
            self._place_total()  # a longer total may no longer close the line

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.show_counts(self._counts)
        super().changeEvent(event)
