"""Owns putting a lesson scene on the projector's stage and taking it down: the window's
chrome and docks put away, the scene's panels moved from their docks into the stage's body
(the same panels: one code path) and back, each build's panels at least their readable
size, the teacher's notes on the console (two screens) or in the band (one), and the stage
full screen on the projector when there is one, else on the screen it is on, as a slide
show is. The arrangement decides when."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import (
    QByteArray,
    QCoreApplication,
    QEvent,
    QEventLoop,
    QObject,
    QSize,
    QTimer,
    Signal,
)
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QGraphicsView,
    QLabel,
    QMainWindow,
    QToolBar,
    QWidget,
)

from app.state.lesson import LessonRun
from app.ui.layout.builds import Build, plan_builds
from app.ui.layout.console import PresenterConsole
from app.ui.layout.docks import DockHost
from app.ui.layout.stage import GAP, Stage
from app.ui.lesson_values import scene_values
from app.ui.look import MIN_SCALE
from app.ui.panels.base import Panel

if TYPE_CHECKING:
    from app.ui.panels.guide.panel import GuidePanel
from app.ui.presentation import Presentation

GUIDE = "guide"
"""The lesson's stepper: every scene shows it beside its data (on the stage, as notes)."""
FIT_STEP = 0.05
"""The stage's type shrinks in 5 % steps to fit a build."""
FIT_TRIES = 8
PICTURE_MS = 300
"""The console's picture of the projector follows a drag this long after it rests."""
PREVIEW_MS = 1000
"""The console's picture of the scene's next build is drawn once the teacher has rested
this long after a step or an edit: laying a build out takes a good part of a second."""


class StageHost(QObject):
    """The stage's panels, builds, notes and screens while it is up."""

    toggled = Signal(bool)

    def __init__(self, window: QMainWindow, docks: DockHost, lesson: LessonRun,
                 presentation: Presentation, stage: Stage, console: PresenterConsole) -> None:
        super().__init__(window)
        self.window = window
        self.host = docks
        self.docks = docks.docks
        self.lesson = lesson
        self.presentation = presentation
        self.stage = stage
        self.console = console
        self.up = False
        self.held: dict[str, Panel] = {}
        """The panels the stage holds now, by name (each goes back to its dock after)."""
        self.notes_open = False
        self._chrome: list[QWidget] = []
        self._geometry = QByteArray()
        """The window's place before the stage filled a screen, to go back to."""
        self._was_full = False
        self._planning = False
        self._again = False
        """A replan was asked for while planning: arrange once more when this plan ends."""
        self._planned = QSize()
        """The stage's size the current build was planned for."""
        self.slides = stage.slides
        self.slides.built.connect(lambda _index: self.arrange())
        for signal in (lesson.moved, lesson.revealed, self.slides.built):
            signal.connect(lambda _index: self.blank(False))  # a step shows the class again
        self._picture = QTimer(self, singleShot=True, interval=PICTURE_MS,  # type: ignore[call-arg]
                               timeout=self._show_picture)
        """The console's picture of the projector, taken once edits and steps settle."""
        self._preview = QTimer(self, singleShot=True, interval=PREVIEW_MS,  # type: ignore[call-arg]
                               timeout=self._show_preview)
        """The console's picture of the next build, drawn once the teacher rests."""
        self._previewing = False
        docks.document.changed.connect(self._picture.start)
        docks.document.changed.connect(self._on_document_changed)
        self._world = ""
        """The world the current build was planned for: another one lays the scene out again."""
        # the class's bars join the header when a poll starts: the body has less room
        stage.poll.running_changed.connect(lambda _on: self._replan())
        stage.poll_bars.reshaped.connect(self._replan)  # a new question's choices
        presentation.look_changed.connect(lambda _look: self._replan())
        stage.installEventFilter(self)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.stage and event.type() == QEvent.Type.Resize
                and self.stage.size() != self._planned):
            self._replan()
        elif (watched is self.window and event.type() == QEvent.Type.LanguageChange
              and self.up):
            self._give_values()
            self._replan()
        return False

    def projector(self) -> QScreen | None:
        """The screen that is not the teacher's, when there are two."""
        here = self.window.screen()
        return next((s for s in QGuiApplication.screens() if s is not here), None)

    def enter(self) -> None:
        if self.up:
            return
        window = self.window
        self._chrome = [w for w in (window.menuBar(), window.statusBar(),
                                    *window.findChildren(QToolBar)) if not w.isHidden()]
        for widget in self._chrome:
            widget.hide()
        for dock in self.docks.values():
            dock.hide()
        window.setCentralWidget(self.stage)
        self.stage.show()
        self.up = True
        projector = self.projector()
        guide = cast("GuidePanel", self.host.panels[GUIDE])
        self._geometry = window.saveGeometry()
        self._was_full = window.isFullScreen()
        if projector is not None:
            here = window.screen()
            self.console.hold_notes(guide)
            self.console.setScreen(here)
            self.console.setGeometry(here.availableGeometry())
            self.console.show()
            window.setScreen(projector)
            window.setGeometry(projector.geometry())
            window.showFullScreen()
            self.stage.hold_notes(None)
        else:
            window.showFullScreen()  # the screen it is on, as a slide show: no title bar
            guide.withhold(True)  # the band is on the projector: no answer in it
            self.stage.hold_notes(guide)
            self.stage.show_notes(self.notes_open)
        guide.stepper.show_steps(False)  # the stage's footer and the console step it
        self.console.start_clock()  # the lesson's time, from the first time the stage is up
        self.presentation.set_stage(True)
        self._give_values()
        self.arrange()
        self.toggled.emit(True)

    def leave(self) -> None:
        if not self.up:
            return
        self.blank(False)
        self.up = False
        window = self.window
        for name, panel in self.held.items():
            panel.offer_room(None)
            self.docks[name].setWidget(panel)
        self.held = {}
        guide = cast("GuidePanel", self.host.panels[GUIDE])
        self.stage.hold_notes(None)
        self.console.hold_notes(None)
        guide.withhold(False)
        guide.stepper.show_steps(True)
        self.docks[GUIDE].setWidget(guide)
        self.console.hide()
        window.takeCentralWidget()
        self.stage.setParent(window)
        self.stage.hide()
        if not self._geometry.isEmpty():
            window.showNormal()
            window.restoreGeometry(self._geometry)
            if self._was_full:  # F11 before the lesson went up: it stays full screen
                window.showFullScreen()
            self._geometry = QByteArray()
        for widget in self._chrome:
            widget.show()
        self._chrome = []
        self.presentation.set_stage(False)
        self.slides.set_builds(1)
        self.toggled.emit(False)

    def _give_values(self) -> None:
        values = scene_values(self.host.document.figures, self.host.document.data,
                              self.lesson.lesson)
        self.stage.set_values(*values)
        self.console.set_values(*values)

    def show_notes(self, on: bool) -> None:
        """N: the notes as a band over the stage (one screen) or the console (two)."""
        self.notes_open = bool(on)
        if self.projector() is not None and self.up:
            self.console.setVisible(True)
        self.stage.show_notes(self.notes_open)

    @property
    def blanked(self) -> bool:
        return self.stage.blanked

    def blank(self, on: bool) -> None:
        """B or ".": the projector goes black and back; the console says it is."""
        on = bool(on) and self.up
        if on != self.stage.blanked:
            self.stage.set_blank(on)
            self.console.show_blank(on)
            self._picture.start()

    def _show_picture(self) -> None:
        if self.up and self.console.isVisible():
            self.console.show_projector(self.stage.grab())
            self.console.show_next(None)  # until drawn again: the old one may be stale
            if self.slides.build + 1 < self.slides.builds:
                self._preview.start()

    def _show_preview(self) -> None:
        """The scene's next build, laid out on the stage behind a still of what the
        projector shows: the class sees no change, the console sees what comes."""
        if (not self.up or not self.console.isVisible() or self.stage.blanked
                or self._planning or self.slides.build + 1 >= self.slides.builds):
            return
        still = QLabel(self.window)
        still.setPixmap(self.window.grab())
        still.setGeometry(self.window.rect())
        still.show()
        still.raise_()
        self._previewing = True
        try:
            with self.slides.ahead():
                self.arrange()
                picture = self.stage.grab()
            self.arrange()
        finally:
            self._previewing = False
            still.hide()
            still.deleteLater()
        self.console.show_next(picture)

    def stage_order(self) -> list[str]:
        """The scene's panels in the order the stage builds them: once revealed, the panels
        that show the answer first, then those the class has seen."""
        scene = self.lesson.scene
        order = list(scene.panels)
        if self.lesson.is_revealed():
            first = list(scene.answer_panels)
            order = first + [name for name in order if name not in first]
        return self.host.for_open_world(order)

    def _on_document_changed(self) -> None:
        """A world opened while a scene is presented lays the scene out for it, as the
        lesson's docks do (the 4-D editor where the plane stood, and back)."""
        if self.up and self.host.document.state.world != self._world:
            self._replan()

    def _replan(self) -> None:
        """Arrange again on the next turn of the event loop; asked while a plan is being made
        (its fit lets events in: a new question's choices may arrive), once that one ends."""
        if not self.up:
            return
        if self._planning:
            self._again = True
        else:
            QTimer.singleShot(0, self, self.arrange)

    def arrange(self) -> None:
        """The current build's panels in the stage's body, each at least its readable size;
        what does not fit beside them comes in a later build."""
        if not self.up or self._planning:
            return
        self._planning = True
        try:
            self.host.document.flush()  # a scene's setup first: panels measure what they show
            self._world = self.host.document.state.world
            names = self.stage_order()
            for name in [n for n in self.held if n not in names]:
                gone = self.held.pop(name)
                gone.offer_room(None)
                self.docks[name].setWidget(gone)
            panels = {name: self.host.panels[name] for name in names}
            for name, panel in panels.items():
                panel.withhold(self.lesson.holds_back(name))
                if name not in self.held:
                    self.held[name] = panel
                    panel.setParent(self.stage.body)
                panel.catch_up()  # what changed while it was out of sight
            self.stage.compact_answers(False)  # each choice's words, where they fit
            self._scale(None)  # the builds are planned at the zoom
            room = self.stage.body_room()
            for panel in panels.values():
                panel.offer_room(room)
            sizes = [(name, _size(panels[name])) for name in names]
            builds = plan_builds(sizes, (room.width(), room.height()), GAP)
            self.slides.set_builds(len(builds))
            build = builds[min(self.slides.build, len(builds) - 1)]
            shown = [panels[name] for name in build.names]
            self.stage.place(shown, build.across, [1] * len(shown))
            fitted = self._fit(build, shown)  # measured shown, as they will be read
            self.stage.place(shown, build.across,
                             [max(1, (w if build.across else h) // 10) for w, h in fitted])
            for name, panel in panels.items():
                if name not in build.names:
                    panel.hide()
                else:
                    panel.catch_up()
            self.stage.show_scene()
            self._planned = self.stage.size()
        finally:
            self._planning = False
        if not self._previewing:
            self._picture.start()
        if self._again:
            self._again = False
            self._replan()


    def _fit(self, build: Build, panels: list[Panel]) -> list[tuple[int, int]]:
        """Shrink the stage's type, for this build only, until its panels fit the body at
        their readable sizes (never below 100 %: every text stays at least 18 px), then
        their sizes. A teacher's 200 % on a 1024×768 projector still shows whole panels.
        When even 100 % leaves the body too short because the class's answers fill the
        header, the answers go compact (letters and bars; the phones show the words) and
        the fit starts again from the zoom."""
        tries = FIT_TRIES
        while tries:
            tries -= 1
            room = self.stage.body_room()
            for panel in panels:
                panel.offer_room(room)
            sizes = [_size(panel) for panel in panels]
            # item views lay their rows out on a zero timer: let that run before asking
            # whether anything scrolls (input waits; a replan asked for meanwhile is this one)
            QCoreApplication.processEvents(
                QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
            need = _need(sizes, build.across)
            scale = self.presentation.shown_look.scale
            fits = (need[0] <= room.width() and need[1] <= room.height()
                    and not self.stage.header_short())
            if fits and not any(_scrolls(panel) for panel in panels):
                return sizes
            if scale <= MIN_SCALE:
                bars = self.stage.poll_bars
                if bars.isHidden() or bars.compact:
                    return sizes
                self.stage.compact_answers(True)
                self._scale(None)
                tries = FIT_TRIES
                continue
            factor = min(room.width() / max(need[0], 1), room.height() / max(need[1], 1), 1.0)
            smaller = min(scale - FIT_STEP, math.floor(scale * factor / FIT_STEP) * FIT_STEP)
            self._scale(max(MIN_SCALE, smaller))
        return [_size(panel) for panel in panels]

    def _scale(self, scale: float | None) -> None:
        """Draw the stage at `scale` and let every layout take the new type before anything
        is measured (a font change posts its relayouts; sizes read before are stale)."""
        self.presentation.fit_stage(scale)
        for _ in range(2):  # a relayout may post another one up the tree
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def _size(panel: Panel) -> tuple[int, int]:
    size = panel.readable_size()
    return size.width(), size.height()


def _scrolls(panel: Panel) -> bool:
    """Whether anything in `panel` would scroll as laid out now (a readable size a little
    short): then the stage's type shrinks one more step. Plots manage their own range."""
    return any(bar.maximum() > 0 for area in panel.findChildren(QAbstractScrollArea)
               if area.isVisible() and not isinstance(area, QGraphicsView)
               for bar in (area.verticalScrollBar(), area.horizontalScrollBar()))


def _need(sizes: list[tuple[int, int]], across: bool) -> tuple[int, int]:
    gaps = GAP * (len(sizes) - 1)
    if across:
        return sum(w for w, _ in sizes) + gaps, max(h for _, h in sizes)
    return max(w for w, _ in sizes), sum(h for _, h in sizes) + gaps
