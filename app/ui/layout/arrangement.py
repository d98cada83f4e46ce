"""Owns every arrangement of the window's docks: the default layout and its sizes, the
layout kept in the settings between starts, the projector's two columns in presentation
mode, and each lesson scene's layout (data first, the guide beside it). Leaving the lesson
or presentation mode gives the layout before it back exactly as it was.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow

from app.i18n import tr
from app.model.view import initial_state
from app.state.lesson import LessonRun
from app.ui import settings as keys
from app.ui.actions.spec import ActionSpec
from app.ui.layout.docks import DockHost
from app.ui.panels.guide.panel import GuidePanel
from app.ui.settings import settings, settings_problem

LAYOUT_VERSION = 1
"""Version tag of the free layout kept in the settings (restoreState checks it)."""
DESK_LAYOUT = 7
"""Version tag of the layout saved on entering presentation mode."""
GUIDE = "guide"
"""The lesson's stepper: every scene shows it beside its data."""
LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea


class Arrangement(QObject):
    """Where each dock sits now, and the layouts to come back to."""

    lesson_left = Signal()
    """The lesson was left and the free layout is back."""
    lesson_toggled = Signal(bool)

    def __init__(self, window: QMainWindow, docks: DockHost, lesson: LessonRun) -> None:
        super().__init__(window)
        self.window = window
        self.host = docks
        self.docks = docks.docks
        self.lesson = lesson
        self.in_lesson = False
        self.free_layout: QByteArray | None = None
        """The layout the lesson replaced, given back when it is left."""
        self._desk_layout = QByteArray()
        self._default_layout = QByteArray()
        self._sized = False
        self._aside: str | None = None
        self._shown_world = ""
        lesson.moved.connect(lambda _index: self.arrange_scene())
        lesson.revealed.connect(lambda _index: self.arrange_scene())
        docks.document.changed.connect(self._on_document_changed)
        window.installEventFilter(self)
        self._on_document_changed()

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec("lesson", "lesson.action.lesson", self.set_lesson, ("F7",), menu="view",
                       section=1, checkable=True, checked=lambda: self.in_lesson),
            ActionSpec("reset_layout", "action.reset_layout", self.reset, ("Ctrl+Shift+L",),
                       menu="view", section=1),
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

    def _on_document_changed(self) -> None:
        """Only the open world's editor has a dock; it comes to the front when the world
        changes (in the lesson, each scene lays out its own docks)."""
        if self.in_lesson:
            return
        world = self.host.document.state.world
        self.host.world_docks.show_world(world)
        for name in self.host.names_for_world(world):
            dock = self.docks[name]
            if not dock.isHidden() and self._shown_world != world:
                dock.raise_()
        self._shown_world = world

    def restore(self) -> None:
        """Bring back the window as the user left it; a stale or foreign layout is ignored,
        and a first start opens the lesson's first scene."""
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
            self.host.world_docks.show_world(self.host.document.state.world, force=True)
            if str(store.value(keys.LESSON_ACTIVE, "false")).lower() == "true":
                self.open_scene(_scene_number(store.value(keys.LESSON_SCENE, 0)),
                                set_up=False)
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
        store.sync()

    def _fit_screen(self) -> None:
        """First start: fill most of the screen (a projector is often exactly 1280×720)."""
        screen = self.window.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        area = screen.availableGeometry()
        self.window.resize(max(640, int(area.width() * 0.95)),
                           max(480, int(area.height() * 0.92)))
        self.window.move(area.center() - self.window.rect().center())

    # ---- presentation mode ----------------------------------------------------------------

    def presenting_changing(self, on: bool) -> None:
        """Before the projector look: keep the desk layout and lay the docks out in two
        columns."""
        if on:
            self._desk_layout = self.window.saveState(DESK_LAYOUT)
            self._arrange_for_projector()

    def presenting_changed(self, on: bool) -> None:
        """After the desk look came back: so does the desk layout."""
        if not on:
            self.window.restoreState(self._desk_layout, DESK_LAYOUT)

    def _arrange_for_projector(self) -> None:
        """Two columns of tabbed docks: at 200 % a stack of five panels cannot fit 720 lines,
        but one panel per column, chosen by its tab, can."""
        window = self.window
        shown = [d for d in self.docks.values() if not d.isHidden() and not d.isFloating()]
        on_top = [d for d in shown if d.isVisible()] or shown
        columns: tuple[list[QDockWidget], list[QDockWidget]] = ([], [])
        for dock in sorted(shown, key=lambda d: window.dockWidgetArea(d) != LEFT):
            # docks on the left stay there; the others fill the shorter column, ties right
            on_left = window.dockWidgetArea(dock) == LEFT or len(columns[0]) < len(columns[1])
            columns[0 if on_left else 1].append(dock)
        for area, column in zip((LEFT, RIGHT), columns, strict=True):
            for dock in column:
                window.addDockWidget(area, dock)
            for dock in column[1:]:
                window.tabifyDockWidget(column[0], dock)
            if column:
                next((d for d in on_top if d in column), column[0]).raise_()
        firsts = [column[0] for column in columns if column]
        if len(firsts) == 2:
            half = max(1, window.width() // 2)
            window.resizeDocks(firsts, [half, half], Qt.Orientation.Horizontal)

    # ---- the lesson -----------------------------------------------------------------------

    def set_lesson(self, on: bool) -> None:
        """Enter the lesson (keep the free layout, lay out the current scene) or leave it."""
        on = bool(on)
        if on == self.in_lesson:
            self.lesson_toggled.emit(on)
            return
        if on:
            self.free_layout = self.window.saveState(LAYOUT_VERSION)
            self.in_lesson = True
            self.arrange_scene()
        else:
            self.in_lesson = False
            if self.free_layout is not None:
                self.window.restoreState(self.free_layout, LAYOUT_VERSION)
            self.host.world_docks.show_world(self.host.document.state.world, force=True)
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
        """Data panels left (the first large), the guide right, and the scene's `aside`
        panel, if it has one, under the guide; every other dock hidden. The shares come
        from the scene's layout (`data/lesson-scenes.json`)."""
        if not self.in_lesson:
            return
        window, docks = self.window, self.docks
        layout = self.lesson.scene.layout
        names = self.shown_panels()
        aside = layout.aside if layout.aside in names and len(names) > 1 else None
        left_names = [name for name in names if name != aside]
        for name, dock in docks.items():
            dock.setFloating(False)
            if name not in names and name != GUIDE:
                dock.hide()
        first, guide = docks[left_names[0]], docks[GUIDE]
        window.addDockWidget(LEFT, first)
        window.addDockWidget(RIGHT, guide)
        if aside is not None:
            window.splitDockWidget(guide, docks[aside], Qt.Orientation.Vertical)
        if len(left_names) > 1:
            window.splitDockWidget(first, docks[left_names[1]], Qt.Orientation.Vertical)
        if len(left_names) > 2:
            window.splitDockWidget(docks[left_names[1]], docks[left_names[2]],
                                   Qt.Orientation.Horizontal)
        for name in (*names, GUIDE):
            docks[name].show()
        width, height = window.width(), window.height()
        window.resizeDocks([first, guide], [int(width * (1 - layout.guide)),
                                            int(width * layout.guide)],
                           Qt.Orientation.Horizontal)
        self._aside = aside
        self.fit_aside(int(width * layout.guide))
        QTimer.singleShot(0, self.fit_aside)  # again once the docks have their new sizes
        if len(left_names) > 1:
            window.resizeDocks([first, docks[left_names[1]]],
                               [int(height * layout.top), int(height * (1 - layout.top))],
                               Qt.Orientation.Vertical)
        self.host.panels[GUIDE].catch_up()

    def fit_aside(self, width: int | None = None) -> None:
        """Under the guide, the aside panel gets the height the guide's notes leave."""
        if not self.in_lesson or self._aside is None:
            return
        guide, aside = self.docks[GUIDE], self.docks[self._aside]
        if aside.isHidden() or guide.isHidden():
            return
        panel = self.host.panels[GUIDE]
        if not isinstance(panel, GuidePanel):
            return
        line = QFontMetrics(panel.font()).lineSpacing()
        chrome = (guide.height() - panel.height() if guide.height() > panel.height()
                  else 2 * line)
        needed = panel.notes_height(width) + chrome
        column = (guide.height() + aside.height() if guide.isVisible()
                  else self.window.height() - 4 * line)
        self.window.resizeDocks([guide, aside], [needed, max(1, column - needed)],
                                Qt.Orientation.Vertical)


def _scene_number(value: object) -> int:
    """A stored scene index, or the first scene for anything that is not a number."""
    try:
        return max(int(str(value)), 0)
    except ValueError:
        return 0
