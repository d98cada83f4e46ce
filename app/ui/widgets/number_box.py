"""Owns the boxes a student types numbers into: each reads its text by one rule
(`app.model.typed_number`), commits on Enter or on leaving the box (as a spreadsheet does),
takes back a typed value on Escape, and speaks in a note under itself.

Qt's own spin boxes drop a keystroke they cannot read ("1,5" became 15, "0x10" became 10,
letters vanished unsaid). Here any text may be typed or pasted; the box reads it when it
is committed. A refused text changes nothing and the box shows its value again: the box
never claims a value the document does not hold, and the note quotes what was typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QFocusEvent, QHideEvent, QKeyEvent, QKeySequence, QPalette, QValidator
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QDockWidget,
    QDoubleSpinBox,
    QFrame,
    QLabel,
    QSpinBox,
    QWidget,
)

from app.i18n import tr
from app.model.typed_number import Reading, read_number, split_numbers
from app.ui.format import format_number, shown_name

TYPED_ROOM = 24
"""Columns of the typed text a note quotes: a 600-digit paste is cut in the middle."""
NOTE_EMS = 26
"""A note's widest line, in the width of "M": a short line reads at a glance."""
PROBLEMS = {
    "empty": "typed.empty", "not_number": "typed.not_number", "hex": "typed.hex",
    "several": "typed.several", "ambiguous": "typed.ambiguous", "grouped": "typed.grouped",
    "mixed": "typed.mixed", "range": "typed.range", "whole": "typed.whole",
}


def quoted(text: str) -> str:
    """The typed text as a note quotes it: one line, cut in the middle when long."""
    return shown_name(text.strip(), TYPED_ROOM)


if TYPE_CHECKING:  # the mixin's super() calls go on into Qt's spin box
    _SpinBoxBase = QAbstractSpinBox
else:
    _SpinBoxBase = object


def note_area(box: QWidget) -> QWidget:
    """Where a box's note lives: the scrolled page that holds the box (the note scrolls with
    it), else the dock's or window's content around it."""
    widget = box
    while (parent := widget.parentWidget()) is not None:
        scroller = parent.parentWidget()
        if isinstance(scroller, QAbstractScrollArea) and parent is scroller.viewport():
            return widget
        if isinstance(parent, QDockWidget) or parent.isWindow():
            return widget
        widget = parent
    return widget


class NumberNote(QLabel):
    """One note per area, under the box it speaks of (above it when the box is the last
    thing shown), word-wrapped to the part of the area in view so it never runs off it."""

    def __init__(self, area: QWidget) -> None:
        super().__init__(area)
        self.setObjectName("typed_number_note")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)  # it quotes what was typed
        self.setFrameShape(QFrame.Shape.Box)
        self.setMargin(4)
        self.setAutoFillBackground(True)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, palette.color(QPalette.ColorRole.ToolTipBase))
        palette.setColor(QPalette.ColorRole.WindowText,
                         palette.color(QPalette.ColorRole.ToolTipText))
        self.setPalette(palette)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.box: QWidget | None = None
        self.hide()

    @staticmethod
    def of(box: QWidget) -> NumberNote:
        """The note of the area that holds `box`, made the first time one is needed."""
        found = NumberNote.near(box)
        return found if found is not None else NumberNote(note_area(box))

    @staticmethod
    def near(box: QWidget) -> NumberNote | None:
        """The note of the area that holds `box`, if one was made."""
        return note_area(box).findChild(NumberNote,
                                        options=Qt.FindChildOption.FindDirectChildrenOnly)

    def speak(self, box: QWidget, text: str) -> None:
        """Show `text` under `box`."""
        self.box = box
        self.setText(text)
        area = self.parentWidget()
        assert area is not None  # a note is made as a child of its area (`of`)
        seen = area.visibleRegion().boundingRect()
        if seen.isEmpty():
            seen = area.rect()
        width = min(seen.width(), NOTE_EMS * self.fontMetrics().horizontalAdvance("M"),
                    self.fontMetrics().horizontalAdvance(text) + 2 * self.margin() + 4)
        height = self.heightForWidth(width)
        anchor = QRect(box.mapTo(area, QPoint(0, 0)), box.size())
        x = min(max(anchor.left(), seen.left()), seen.right() + 1 - width)
        y = anchor.bottom() + 2
        if y + height > seen.bottom() + 1 and anchor.top() - height - 2 >= seen.top():
            y = anchor.top() - height - 2
        self.setGeometry(x, y, width, height)
        self.raise_()
        self.show()

    def quiet(self, box: QWidget | None = None) -> None:
        """Hide the note (only if it speaks of `box`, when one is given)."""
        if box is None or box is self.box:
            self.hide()


class TypedEntry:
    """What every number box does with its text; the boxes below hand their events here."""

    def __init__(self, box: NumberBox | WholeBox, whole: bool) -> None:
        self.box = box
        self.whole = whole

    def read(self, text: str) -> Reading:
        return read_number(text, self.box.minimum(), self.box.maximum(), self.whole)

    def state(self, text: str) -> QValidator.State:
        """Acceptable when the text reads as a number in range; anything else is held as it
        is typed (never dropped) until the box commits it. The box's own text of its value
        is one (Qt checks it whenever a value is set: at every drag step, where reading it
        cost more than the rest of the box's update)."""
        if text == self.shown() or self.read(text).value is not None:
            return QValidator.State.Acceptable
        return QValidator.State.Intermediate

    def shown(self) -> str:
        box = self.box
        # each box takes its own value back (mypy pairs a union's methods and values freely)
        return box.textFromValue(box.value())  # type: ignore[arg-type]

    def changed(self) -> bool:
        return self.box.lineEdit().text() != self.shown()

    def commit(self) -> None:
        """Read what was typed: take it, or say why not and show the value again."""
        if not self.changed():
            return
        text = self.box.lineEdit().text()
        reading = self.read(text)
        if reading.problem == "several" and isinstance(self.box, NumberBox) and (
                self.box.takes_rows):
            self.restore()
            self.box.row_typed.emit(tuple(split_numbers(text)), text)
            return
        if reading.value is None:
            self.restore()
            self.refuse(self.refusal(text, reading))
            return
        # a whole box reads whole numbers only, which PySide6 passes on as int
        self.box.setValue(reading.value)  # type: ignore[arg-type]
        taken = self.box.value()
        self.restore()
        if reading.reread or taken != reading.value:
            self.speak(tr("typed.read_as", typed=quoted(text), value=self.shown()))
        else:
            self.quiet()

    def revert(self) -> bool:
        """Escape: the value shown again, and nothing committed. False when there was
        nothing to take back (Escape then goes on, to leave the stage, say)."""
        note = NumberNote.near(self.box)
        spoke = note is not None and note.isVisible() and note.box is self.box
        self.quiet(self.box)
        if not self.changed():
            return spoke
        self.restore()
        return True

    def restore(self) -> None:
        self.box.lineEdit().setText(self.shown())
        self.box.selectAll()

    def refuse(self, message: str) -> None:
        self.speak(message)
        self.box.refused.emit(message)

    def speak(self, text: str) -> None:
        NumberNote.of(self.box).speak(self.box, text)

    def quiet(self, box: QWidget | None = None) -> None:
        """Hide the area's note (only if it speaks of `box`, when one is given)."""
        note = NumberNote.near(self.box)
        if note is not None:
            note.quiet(box)

    def accepts(self) -> str:
        box = self.box
        places = 0 if self.whole else box.decimals()

        def bound(value: float) -> str:
            return format_number(value, 0 if float(value).is_integer() else places)

        return tr("typed.accepts_whole" if self.whole else "typed.accepts",
                  low=bound(box.minimum()), high=bound(box.maximum()))

    def refusal(self, text: str, reading: Reading) -> str:
        """The refusal in the language on screen, quoting what was typed."""
        one, other = reading.meanings or (0.0, 0.0)
        return tr(PROBLEMS[reading.problem or "not_number"], typed=quoted(text),
                  accepts=self.accepts(), count=len(reading.parts), one=f"{one:g}",
                  other=f"{other:g}")

    def key(self, event: QKeyEvent) -> bool:
        """Enter commits, Escape takes back; True when the box has dealt with the key."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.commit()
        elif event.key() == Qt.Key.Key_Escape and self.revert():
            event.accept()
            return True
        return False

    def holds_escape(self, event: QEvent) -> bool:
        """Escape belongs to the box while it has something to take back: a window's Escape
        shortcut (leaving the stage) waits until then."""
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if event.key() != Qt.Key.Key_Escape or event.modifiers() != Qt.KeyboardModifier.NoModifier:
            return False
        note = NumberNote.near(self.box)
        return self.changed() or (note is not None and note.isVisible() and note.box is self.box)

    def leaves_undo(self, event: QEvent) -> bool:
        """Undo and Redo belong to the document while the box holds no typing of its own to
        take back: a dragged bar's box has the focus with its value selected, and the line
        edit's own empty undo would take Ctrl+Z, leaving the drag undone by no key."""
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        return (event.matches(QKeySequence.StandardKey.Undo)
                or event.matches(QKeySequence.StandardKey.Redo)) and not self.changed()

    def language_changed(self) -> None:
        self.quiet(self.box)  # its words were the old language's


class _TypedBox(_SpinBoxBase):
    """What both boxes hand to their `TypedEntry`: validating, keys, leaving the box, being
    hidden, Escape before a window's shortcut, a new language. Mixed in before the spin
    box class, so each override calls on into Qt's own."""

    entry: TypedEntry

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        return self.entry.state(text), text, pos

    def fixup(self, text: str) -> str:
        return text  # the box reads what was typed itself, when it commits

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.entry.key(event):
            super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.entry.commit()
        super().focusOutEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        self.entry.quiet(self)  # a removed token's box, a row the stage leaves out
        super().hideEvent(event)

    def event(self, event: QEvent) -> bool:
        if self.entry.holds_escape(event):
            event.accept()
            return True
        if self.entry.leaves_undo(event):
            event.ignore()  # not overridden: the window's Undo or Redo shortcut runs
            return True
        return super().event(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.entry.language_changed()
        super().changeEvent(event)


class NumberBox(_TypedBox, QDoubleSpinBox):
    """A box for one decimal number; see the module's docstring for how it reads."""

    refused = Signal(str)
    """The refusal just shown (the value did not change)."""
    row_typed = Signal(tuple, str)
    """Several numbers were typed or pasted (their texts, and the whole text); sent only
    when `takes_rows` is set, by a box whose owner can fill a row with them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.takes_rows = False
        self.entry = TypedEntry(self, whole=False)
        self.setKeyboardTracking(False)

    def valueFromText(self, text: str) -> float:
        value = self.entry.read(text).value
        return self.value() if value is None else value

    def refuse(self, message: str) -> None:
        """Say, under the box, why what was typed changed nothing."""
        self.entry.refuse(message)

    def read_row(self, parts: tuple[str, ...]) -> list[float] | None:
        """Each part read as this box reads one number (and kept to its decimals); None,
        with the first refusal said under the box, when one part is not such a number."""
        values = []
        for part in parts:
            reading = self.entry.read(part)
            if reading.value is None:
                self.refuse(self.entry.refusal(part, reading))
                return None
            values.append(round(reading.value, self.decimals()))
        return values


class WholeBox(_TypedBox, QSpinBox):
    """A box for one whole number (a size, a count, a position), read like `NumberBox`."""

    refused = Signal(str)
    """The refusal just shown (the value did not change)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entry = TypedEntry(self, whole=True)
        self.setKeyboardTracking(False)

    def decimals(self) -> int:
        return 0

    def valueFromText(self, text: str) -> int:
        value = self.entry.read(text).value
        return self.value() if value is None else int(value)
