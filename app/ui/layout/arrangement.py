"""Owns every arrangement of the window: the default dock layout and its sizes, the layout
kept in the settings between starts, the projector's two columns in presentation mode, each
lesson scene's docks, and the stage: a lesson presented on the projector, its panels hosted
by the stage instead of docks, shown together or one build at a time, never smaller than
they can be read, and the teacher's notes on the console or in a band (N). Leaving the
lesson, presentation mode or the stage gives the layout before it back as it was.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMainWindow

from app.i18n import tr
from app.model.view import initial_state
from app.state.lesson import LessonRun
from app.ui import settings as keys
from app.ui.actions.spec import ActionSpec
from app.ui.layout.console import PresenterConsole
from app.ui.layout.desk_fit import DeskFit
from app.ui.layout.dock_layouts import fit_aside, projector_columns, scene_docks
from app.ui.layout.docks import DockHost
from app.ui.layout.resume import asks_where_to_start, continues
from app.ui.layout.stage import Stage
from app.ui.layout.stage_host import GUIDE, StageHost
from app.ui.presentation import Presentation
from app.ui.settings import settings, settings_problem

LAYOUT_VERSION = 1
"""Version tag of the free layout kept in the settings (restoreState checks it)."""
DESK_LAYOUT = 7
"""Version tag of the layout saved on entering presentation mode."""
LAPTOP_WIDTH = 1600
"""Logical pixels: a first start on a screen narrower than this opens maximised."""
LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea


class Arrangement(QObject):
    """Where each dock sits now, and the layouts to come back to."""

    lesson_left = Signal()
    """The lesson was left and the free layout is back."""
    lesson_toggled = Signal(bool)


    def __init__(self, window: QMainWindow, docks: DockHost, lesson: LessonRun,
                 presentation: Presentation, stage: Stage,
                 console: PresenterConsole) -> None:
        super().__init__(window)
        self.window = window
        self.host = docks
        self.docks = docks.docks
        self.lesson = lesson
        self.presentation = presentation
        self.staging = StageHost(window, docks, lesson, presentation, stage, console)
        self.stage = stage
        self.in_lesson = False
        self.free_layout: QByteArray | None = None
        """The layout the lesson replaced, given back when it is left."""
        self._free_sized = False
        """Whether the free layout was kept after the window had its default sizes (a first
        start opens the lesson before the window is ever shown)."""
        self._desk_layout = QByteArray()
        self._default_layout = QByteArray()
        self._sized = False
        self._aside: str | None = None
        self._shown_world = ""
        self._shown_shape: tuple[str, int, int] | None = None
        self._withheld: set[str] = set()
        """The panels whose answers the lesson's docks keep back now."""
        self._scene_world = ""
        """The world the lesson's docks were last laid out for."""
        self.desk = DeskFit(window, self.docks, self._at_desk, lambda: self.host.world_docks
                            .show_world(self.host.document.state.world, force=True))
        """Keeps every visible dock of the free layout at least its panel's readable size."""
        for signal in (lesson.moved, lesson.revealed):
            signal.connect(lambda _index: self.arrange_scene())
        for name, dock in self.docks.items():  # View → a dock, or its Alt+N
            dock.toggleViewAction().triggered.connect(
                lambda on, name=name: self._shown_by_user(name) if on else None)
        docks.document.changed.connect(self._on_document_changed)
        window.installEventFilter(self)
        self._on_document_changed()

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec("lesson", "lesson.action.lesson", self.set_lesson, ("F7",), menu="view",
                       section=1, checkable=True, checked=lambda: self.in_lesson),
            ActionSpec("reset_layout", "action.reset_layout", self.reset, ("Ctrl+Shift+L",),
                       menu="view", section=1),
            ActionSpec("notes", "stage.action.notes", self.show_notes, ("N",), menu="view",
                       section=1, checkable=True, checked=lambda: self.staging.notes_open,
                       enabled=lambda: self.on_stage),
            ActionSpec("blank", "stage.action.blank", self.staging.blank, ("B", "."),
                       menu="view", section=1, checkable=True,
                       checked=lambda: self.staging.blanked, enabled=lambda: self.on_stage),
        ]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Show:
            if not self._sized:
                self.apply_default_sizes()
            if self.in_lesson:  # a scene's proportions need the window's final size
                self.arrange_scene()
        return False

    # ---- the free layout ----------------------------------------------------------------

    def remember_default(self) -> None:
        """Keep the layout as first built (docks, toolbar) for View → Reset layout."""
        self._default_layout = self.window.saveState(LAYOUT_VERSION)

    def apply_default_sizes(self) -> None:
        """Columns of equal width; in a column, each dock that declares a share of its
        height (the matrix over term by term, 55 : 45) gets it."""
        width, height = self.window.width(), self.window.height()
        firsts = [next((self.docks[n] for n, s in self.host.specs.items()
                        if s.area == area and not self.docks[n].isHidden()), None)
                  for area in (LEFT, RIGHT)]
        columns = [dock for dock in firsts if dock is not None]
        if columns:
            share = width // len(columns)
            self.window.resizeDocks(columns, [share] * (len(columns) - 1)
                                    + [width - share * (len(columns) - 1)],
                                    Qt.Orientation.Horizontal)
        shared = [(self.docks[n], s.share) for n, s in self.host.specs.items()
                  if s.share is not None]
        if shared:
            self.window.resizeDocks([dock for dock, _ in shared],
                                    [int(height * share) for _, share in shared],
                                    Qt.Orientation.Vertical)
        self._sized = True

    def reset(self) -> None:
        """Every dock back where a first start puts it."""
        self.set_lesson(False)
        for dock in self.docks.values():
            dock.setFloating(False)
            dock.show()
        self.window.restoreState(self._default_layout, LAYOUT_VERSION)
        self.host.world_docks.show_world(self.host.document.state.world, force=True)
        self.apply_default_sizes()
        self.desk.schedule()

    def _at_desk(self) -> bool:
        """The free layout is on screen: not the lesson's, the projector's or the stage's."""
        return not (self.in_lesson or self.presentation.presenting or self.on_stage)

    def _on_document_changed(self) -> None:
        """Only the open world's editor has a dock; it comes to the front when the world
        changes (in the lesson, each scene lays out its own docks, for the open world)."""
        if self.in_lesson:
            if self.host.document.state.world != self._scene_world and not self.on_stage:
                self.arrange_scene()
            return
        document = self.host.document
        world = document.state.world
        shape = (world, len(document.view.query_names), len(document.view.key_names))
        if shape != self._shown_shape and not document.dragging:
            self._shown_shape = shape  # another world or token count: other readable sizes
            self.desk.schedule()
        self.host.world_docks.show_world(world)
        for name in self.host.names_for_world(world):
            dock = self.docks[name]
            if not dock.isHidden() and self._shown_world != world:
                dock.raise_()
        self._shown_world = world

    def restore(self, ask: bool = True) -> None:
        """Bring back the window as the user left it; a stale or foreign layout is ignored,
        and a first start opens the lesson's first scene. A lesson left past its first scene
        on another day asks (unless not to `ask`: a scene was named) whether to go on there
        or start again, for a new class."""
        problem = settings_problem()
        if problem is not None:
            self.window.statusBar().showMessage(tr("notice.settings_unusable", problem=problem),
                                                15000)
        store = settings()
        geometry = store.value(keys.WINDOW_GEOMETRY)
        state = store.value(keys.WINDOW_STATE)
        if not (isinstance(geometry, QByteArray) and self.window.restoreGeometry(geometry)):
            self._fit_screen()
        if isinstance(state, QByteArray) and self.window.restoreState(state, LAYOUT_VERSION):
            self._sized = True
            self.desk.schedule()  # fitted once shown: a smaller screen than last time
            self.host.world_docks.show_world(self.host.document.state.world, force=True)
            if str(store.value(keys.LESSON_ACTIVE, "false")).lower() == "true":
                index = min(_scene_number(store.value(keys.LESSON_SCENE, 0)),
                            self.lesson.count - 1)
                if (ask and asks_where_to_start(store.value(keys.LESSON_DAY), date.today(),
                                                index)
                        and not continues(self.window, index + 1, self.lesson.count)):
                    self.open_lesson(0, asked=True)  # the class's state: one Ctrl+Z away
                else:
                    self.open_scene(index, set_up=False)
        else:
            self.open_lesson(0)

    def save(self) -> None:
        """Keep the window for the next start: the free layout (a scene lays itself out)."""
        store = settings()
        store.setValue(keys.WINDOW_GEOMETRY, self.window.saveGeometry())
        lesson = self.in_lesson and self.free_layout is not None
        free = self.free_layout if lesson else self.window.saveState(LAYOUT_VERSION)
        store.setValue(keys.WINDOW_STATE, free)
        store.setValue(keys.LESSON_ACTIVE, "true" if lesson else "false")
        store.setValue(keys.LESSON_SCENE, self.lesson.index)
        store.setValue(keys.LESSON_DAY, date.today().isoformat())
        store.sync()

    def _fit_screen(self) -> None:
        """First start: fill most of the screen (a projector is often exactly 1280×720); a
        laptop's all of it, which its docks need to be read side by side."""
        screen = self.window.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        area = screen.availableGeometry()
        self.window.resize(max(640, int(area.width() * 0.95)),
                           max(480, int(area.height() * 0.92)))
        self.window.move(area.center() - self.window.rect().center())
        if area.width() < LAPTOP_WIDTH:
            self.window.setWindowState(self.window.windowState() | Qt.WindowState.WindowMaximized)

    # ---- presentation mode ----------------------------------------------------------------

    def presenting_changing(self, on: bool) -> None:
        """Before the projector look: keep the desk layout and, outside the lesson, lay the
        docks out in two columns; a lesson leaves its stage before the desk look is back."""
        if on:
            self._desk_layout = self.window.saveState(DESK_LAYOUT)
            if self.in_lesson:  # up before the larger type: docks never grow the window
                self.staging.enter()
            else:
                projector_columns(self.window, self.docks)
        else:
            self._leave_stage()

    def presenting_changed(self, on: bool) -> None:
        """After the look changed: a lesson goes up on the stage, or back to its docks; the
        free layout gets the desk layout back."""
        if on:
            self.staging.arrange()
        elif self.in_lesson:
            self.arrange_scene()
        else:
            self.window.restoreState(self._desk_layout, DESK_LAYOUT)
            self.desk.schedule()

    # ---- the lesson -----------------------------------------------------------------------

    def set_lesson(self, on: bool) -> None:
        """Enter the lesson (keep the free layout, lay out the current scene) or leave it."""
        on = bool(on)
        if on == self.in_lesson:
            self.lesson_toggled.emit(on)
            return
        if on:
            self.free_layout = self.window.saveState(LAYOUT_VERSION)
            self._free_sized = self._sized and self.window.isVisible()
            self.in_lesson = True
            self.arrange_scene()
            self._update_stage()
        else:
            self._leave_stage()
            self.in_lesson = False
            self._give_back()
            if self.free_layout is not None:
                self.window.restoreState(self.free_layout, LAYOUT_VERSION)
            self.host.world_docks.show_world(self.host.document.state.world, force=True)
            if self.presentation.presenting:
                projector_columns(self.window, self.docks)
            elif not self._free_sized and self.window.isVisible():
                self.apply_default_sizes()  # kept before the window ever had a size
                self._free_sized = True
            self.desk.schedule()
            self.lesson_left.emit()
        self.lesson_toggled.emit(on)

    def open_scene(self, index: int, set_up: bool) -> None:
        """Start the lesson at scene `index` (0-based) with no undo step: the first start,
        `--scene N`, or a session that ended in the lesson."""
        self.lesson.start(index, set_up)  # in the lesson already: laid out as it moves
        self.set_lesson(True)

    def open_lesson(self, index: int, asked: bool = False) -> None:
        """Open the lesson at scene `index`. A fresh document is set up with no history; a
        session brought back keeps its state, unless the scene was `asked` for by name
        (`--scene N`): then the setup is one undo step on top of it."""
        document = self.host.document
        untouched = (document.state == initial_state(document.data)
                     and not document.undo_stack.count())
        self.open_scene(index, set_up=untouched)
        if asked and not untouched:
            self.lesson.set_up_again()

    def shown_panels(self) -> list[str]:
        """The data panels the current scene shows now (answer panels once revealed)."""
        scene = self.lesson.scene
        names = list(scene.panels)
        if self.lesson.is_revealed():
            names += [name for name in scene.answer_panels if name not in names]
        return names

    def arrange_scene(self) -> None:
        """The current scene, on the stage or in docks (the shares from the scene's layout in
        `data/lesson-scenes.json`)."""
        if not self.in_lesson:
            return
        if self.on_stage:
            self.arrange_stage()
            return
        self._scene_world = self.host.document.state.world
        names = self.host.for_open_world(self.shown_panels())
        self._withhold(names)
        self._aside = scene_docks(self.window, self.docks, names, self.lesson.scene.layout,
                                  GUIDE)
        self.fit_aside(int(self.window.width() * self.lesson.scene.layout.guide))
        QTimer.singleShot(0, self.fit_aside)  # again once the docks have their new sizes
        self.host.panels[GUIDE].catch_up()

    def _shown_by_user(self, name: str) -> None:
        """In the lesson's docks, a dock the user brings up that the scene does not lay out
        joins the scene's large place as a tab, in front: squeezed in beside the scene's docks
        it would get a sliver below its readable size. Its tab bar is the way back to the
        scene's panel; the next scene lays out its own docks again."""
        if not self.in_lesson or self.on_stage or name == GUIDE:
            return
        dock, shown = self.docks[name], self.host.for_open_world(self.shown_panels())
        places = [other for other in shown if other != self._aside]
        if name in shown or dock.isFloating() or not places:
            return
        self.window.tabifyDockWidget(self.docks[places[0]], dock)
        dock.raise_()

    def _withhold(self, names: list[str]) -> None:
        """The lesson's docks are what a single screen projects: until Reveal they keep back
        what the stage and the notes band keep back (the guide's answer, the withheld
        panels' numbers); the panels the scene does not show answer nothing."""
        for name in {*self._withheld, *names}:
            self.host.panels[name].withhold(self.lesson.holds_back(name))
        self._withheld = {name for name in names if name in self.lesson.scene.withheld}
        self.host.panels[GUIDE].withhold(True)

    def _give_back(self) -> None:
        """Out of the lesson, every panel shows all it has (the desk is the teacher's)."""
        for name in self._withheld:
            self.host.panels[name].withhold(False)
        self._withheld = set()
        self.host.panels[GUIDE].withhold(False)

    def fit_aside(self, width: int | None = None) -> None:
        """Under the guide, the aside panel gets the height the guide's notes leave."""
        if self.in_lesson and not self.on_stage and self._aside is not None:
            fit_aside(self.window, self.docks[GUIDE], self.docks[self._aside], width)

    # ---- the stage ------------------------------------------------------------------------

    def _update_stage(self) -> None:
        """Up while a lesson is presented, down otherwise."""
        if self.in_lesson and self.presentation.presenting:
            self.staging.enter()
        else:
            self._leave_stage()

    def _leave_stage(self) -> None:
        self.staging.leave()

    @property
    def on_stage(self) -> bool:
        return self.staging.up

    def arrange_stage(self) -> None:
        self.staging.arrange()

    def show_notes(self, on: bool) -> None:
        """N: the notes as a band over the stage (one screen) or the console (two)."""
        self.staging.show_notes(on)

def _scene_number(value: object) -> int:
    """A stored scene index, or the first scene for anything that is not a number."""
    try:
        return max(int(str(value)), 0)
    except ValueError:
        return 0
