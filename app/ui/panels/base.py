"""The base of every docked panel: observe the document, repaint from its view, retranslate."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QRect, QSize, QTimer
from PySide6.QtGui import QPaintEvent, QShowEvent
from PySide6.QtWidgets import QWidget

from app.model.state import STATE_FIELDS
from app.state.document import Document
from app.state.lesson import LessonRun
from app.ui.figure import Figure
from app.ui.look import Look


@dataclass(frozen=True)
class PanelParts:
    """What the composition root hands a panel it builds: the window's document and lesson
    run. A panel takes what it needs (`Panel.build`) and never builds either itself."""

    document: Document
    lesson: LessonRun


class Panel(QWidget):
    """A panel reads `document.view` in `refresh` and edits only through document methods.

    Panels never call each other: anything two panels share lives in the document.
    """

    name: ClassVar[str] = ""
    observes_while_hidden: ClassVar[bool] = False
    """True for panels that must see every change (the checklist ticks from what happened),
    not just the latest state. A shipped panel takes it from its dock's `PanelSpec`, which
    builds such a panel with the window."""
    depends_on: ClassVar[tuple[str, ...]] = STATE_FIELDS
    """The `LabState` fields `refresh` reads (e.g. ("options", "teaching_q.shape")); every
    panel declares its own. A change that touches none of them skips `refresh`, and with it
    every repaint: a drag in the editor costs nothing in a panel that never shows vectors."""
    holds_while_dragging: ClassVar[bool] = False
    """True for a panel that keeps a scale or a range still while a drag runs: it refits
    (`refit`) when the gesture ends, by its own subscription."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Whatever calls a panel's `refresh` (its own retranslate, a look, the document),
        the inputs it then showed are remembered: a later change back to them is a change."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("refresh")
        if own is None:
            return

        @functools.wraps(own)
        def refresh(self: Panel) -> None:
            self._stale = False
            compared, self._compared = self._compared, None
            self._shown_inputs = self.inputs() if compared is None else compared[0]
            own(self)

        cls.refresh = refresh  # type: ignore[method-assign]

    @classmethod
    def build(cls, parts: PanelParts) -> Panel:
        """The panel, from the window's parts (most panels need only the document)."""
        return cls(parts.document)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.look = Look()
        self.setObjectName(f"panel_{self.name}")
        # opaque: a live number repainting inside it does not repaint its dock's title bar
        # (whose buttons' icons are read from files at every paint) and the window behind
        self.setAutoFillBackground(True)
        self._compared: tuple[tuple[object, ...] | None] | None = None
        """The inputs a change was just found to change, boxed (None: none read), read once
        for the refresh it starts: reading them again cost as much as comparing them."""
        self._stale = False
        self._untranslated = False
        self._offered: QSize | None = None
        self._shown_inputs = self.inputs()  # a panel is built showing the current state
        self._reads = frozenset(name.split(".")[0] for name in self.depends_on)
        document.changed.connect(self._on_document_changed)
        if self.holds_while_dragging:
            document.gesture_finished.connect(self._on_gesture_finished)

    def inputs(self) -> tuple[object, ...] | None:
        """What `refresh` would show, cheaply: the data and the `depends_on` fields of the
        state (None: unknown, always refresh). Override for a finer key."""
        state = self.document.state
        return (self.document.data, *(_field(state, name) for name in self.depends_on))

    def _changed_inputs(self) -> tuple[tuple[object, ...] | None] | None:
        """The inputs now, boxed, if they differ from those of the last refresh, else None
        (fields compared by identity first: unchanged fields of an immutable state are the
        very same objects)."""
        now, shown = self.inputs(), self._shown_inputs
        if (now is not None and shown is not None and len(now) == len(shown)
                and all(_same(a, b) for a, b in zip(now, shown, strict=True))):
            return None
        return (now,)

    def _refresh_now(self) -> None:
        """Refresh (which remembers the inputs shown)."""
        self.refresh()

    def _on_document_changed(self, fields: frozenset[str] | None = None) -> None:
        """Repaint now if anyone can see it; a panel behind a tab (Qt moves those off-screen
        rather than hiding them) catches up when it is next painted, so a drag step costs only
        what is on screen. A panel whose inputs did not change does nothing at all: a change
        of none of the fields it reads is not even compared."""
        if fields is not None and not fields & self._reads:
            return
        hidden = (self.window().isVisible() and not self.observes_while_hidden
                  and not self._on_screen())
        if hidden and self._stale:
            return  # compared when it catches up: a drag step costs a hidden panel nothing
        changed = self._changed_inputs()
        if changed is None:
            self._stale = False
            return
        if hidden:
            self._stale = True
            return
        self._compared = changed
        self._refresh_now()

    def _on_screen(self) -> bool:
        """Shown and inside its window: Qt parks the docks behind a tab outside the window."""
        top = self.window()
        where = QRect(self.mapTo(top, QPoint(0, 0)), self.size())
        return self.isVisible() and top.rect().intersects(where)

    def _on_gesture_finished(self) -> None:
        if self.window().isVisible() and not self._on_screen():
            self._stale = True
        else:
            self.refit()

    def refit(self) -> None:
        """A drag ended: fit what was held still to the final values (override for a
        narrower refit than a whole refresh)."""
        self._refresh_now()

    def catch_up(self) -> None:
        """Retranslate and refresh now if the language or the document changed while this
        panel was out of sight. Whoever measures a panel (`readable_size`) catches it up
        first: measuring itself never refreshes."""
        if self._untranslated:
            self._untranslated = False
            self.retranslate()
            self._stale = True
        if self._stale:
            self._refresh_now()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.catch_up()

    def changeEvent(self, event: QEvent) -> None:
        """The language changed (Qt's LanguageChange reaches every widget): retranslate now if
        anyone can see this panel, else when it is next shown."""
        if event.type() == QEvent.Type.LanguageChange:
            if self.window().isVisible() and not self._on_screen():
                self._untranslated = True
            else:
                self.retranslate()
                self._refresh_now()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Uncovered while stale: refresh right after this paint (never inside it)."""
        super().paintEvent(event)
        if self._stale or self._untranslated:
            QTimer.singleShot(0, self, self.catch_up)

    def set_look(self, look: Look) -> None:
        """Presentation scale or theme changed: restyle, then repaint."""
        self.look = look
        self.apply_look()
        self._refresh_now()

    def readable_size(self) -> QSize:
        """The smallest size (logical pixels) at which everything this panel shows, as last
        refreshed (`catch_up` first), is readable at the current fonts and look: no text
        below the stage's least size, every row, column and result in view, no scroll bar.
        The stage never gives a panel less;
        what does not fit beside another panel is shown on its own. Panels whose content
        sets a larger floor than their layout's minimum (a plot, a table) override it."""
        return self.minimumSizeHint().expandedTo(self.minimumSize())

    def readable_sizes(self) -> list[QSize]:
        """The least readable size of each arrangement the panel can take at the desk (one
        for most panels): a dock as large as any of them reads whole, so the desk's fit can
        give a panel with two the one the room around it allows."""
        return [self.readable_size()]

    def reads_at(self, size: QSize) -> bool:
        """Whether everything this panel shows is readable at `size`."""
        return any(size.width() >= need.width() and size.height() >= need.height()
                   for need in self.readable_sizes())

    def room(self) -> QSize:
        """The most room this panel may be given: on the stage, its body (the stage says,
        `offer_room`); elsewhere, the screen. A panel with two arrangements (readouts beside
        or below) picks, in `readable_size`, the one that fits this."""
        if self._offered is not None and not self._offered.isEmpty():  # a body laid out
            return self._offered
        screen = self.screen()
        return screen.availableGeometry().size() if screen is not None else QSize(1024, 768)

    def offer_room(self, room: QSize | None) -> None:
        """The stage's body is `room` (None: the panel is back in its dock)."""
        self._offered = room

    def focus_rect(self) -> QRect | None:
        """Where this panel shows the pair the class is looking at (the selected row), in its
        own coordinates: the notes band over the stage leaves it in view. None: nowhere."""
        return None

    def figure(self) -> Figure | None:
        """What an export of this panel draws: its plot, names and title without the controls
        around them; None: the panel exports as it looks on screen. The guide (a lesson
        page) and the editor (its fields are the data) keep this: neither is a plot."""
        return None

    def withhold(self, on: bool) -> None:
        """Keep back (or show again) what would answer the scene's question before the
        teacher reveals it; a panel that can show such an answer overrides this."""

    def apply_look(self) -> None:
        """Apply `self.look` to fonts, pens and backgrounds (override in panels)."""

    def refresh(self) -> None:
        """Repaint from `self.document.view`; called once per recompute."""

    def retranslate(self) -> None:
        """Re-read every visible string from the current language's table."""


def _field(state: object, path: str) -> object:
    """`state.options` for "options", `state.teaching_q.shape` for "teaching_q.shape"
    (None past a field that is None: no import, no shape)."""
    value = state
    for part in path.split("."):
        if value is None:
            return None
        value = getattr(value, part)
    return value


def _same(a: object, b: object) -> bool:
    """Equal inputs: the same object, or equal values (arrays by content; anything that
    cannot say counts as changed)."""
    if a is b:
        return True
    try:
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return bool(np.array_equal(a, b))  # type: ignore[arg-type]
        return bool(a == b)
    except (TypeError, ValueError):
        return False
