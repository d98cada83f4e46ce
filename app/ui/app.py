"""The composition root: every part that lives as long as a window (the session, the lesson
run, the docks and their arrangement, presentation, the actions, menus and toolbar) is built
here, once, and handed to those who use it. Nothing else builds a window-level object.

It builds in two stages: first everything the first screen shows or needs at once (the menu
bar shows only the menus' titles), then what no one sees before opening a menu: the menus'
entries and View → Poll network's, which asks the system for its network addresses with Qt's
network module. A start runs the second stage after the window's first paint; every other
caller gets the whole window at once."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt

from app.model.lesson.scenes import Lesson, load_scenes
from app.poll.classpoll import ClassPoll
from app.poll.lesson import LessonPoll
from app.state.class_history import ClassHistory
from app.state.document import Document
from app.state.lesson import LessonRun
from app.state.model_run import ModelRun
from app.state.session import Session
from app.ui.actions.answers import AnswerActions
from app.ui.actions.drops import FileDrops
from app.ui.actions.editing import editing_specs
from app.ui.actions.exports import ExportActions
from app.ui.actions.files import FileActions
from app.ui.actions.languages import language_specs
from app.ui.actions.models import ModelActions
from app.ui.actions.polling import PollActions
from app.ui.actions.presenting import PresentationActions
from app.ui.actions.registry import Actions
from app.ui.actions.scenes import SceneActions
from app.ui.actions.window import help_specs
from app.ui.frame_gate import FrameGate
from app.ui.layout.arrangement import Arrangement
from app.ui.layout.console import PresenterConsole
from app.ui.layout.docks import DockHost
from app.ui.layout.slides import Slides
from app.ui.layout.stage import Stage
from app.ui.main_window import MainWindow, WindowParts
from app.ui.menus import build_menu_bar, fill_menus
from app.ui.panels.base import PanelParts
from app.ui.panels.registry import PanelSpec, panel_specs
from app.ui.presentation import Presentation, stored_presentation
from app.ui.settings import settings
from app.ui.showing import Showing
from app.ui.status_line import StatusLine
from app.ui.toolbar import MainToolbar
from app.ui.widgets.model_progress import ModelProgress
from app.ui.widgets.model_switch import ModelSwitch
from app.ui.widgets.world_scorer import WorldScorerChoice

Later = Callable[[MainWindow, Callable[[], object]], None]
"""Runs the second stage of building a window (`build_main_window`) when the caller chooses."""


def build_main_window(document: Document, specs: list[PanelSpec] | None = None,
                      lesson_scenes: Lesson | None = None,
                      later: Later | None = None) -> MainWindow:
    """The window for `document`, with the docks of `specs` (default: the registry's) and
    `lesson_scenes` (default: read from the document's data folder for those docks); its
    second stage built now, or handed to `later` with the window."""
    specs = panel_specs() if specs is None else specs
    window = MainWindow(document)
    if lesson_scenes is None:
        lesson_scenes = load_scenes(data=document.data, panels=tuple(
            spec.name for spec in specs if spec.in_scenes))
    lesson = LessonRun(document, lesson_scenes, window)
    docks = DockHost(window, PanelParts(document, lesson), specs)
    FrameGate(document, (window, *docks.docks.values()), window)  # a floating dock too
    poll = ClassPoll(window)
    history = ClassHistory(parent=window)  # earlier classes' counts: never on the stage
    session = Session(document, kept=poll, history=history)
    presentation = Presentation(window, docks, stored_presentation(settings()))
    lesson_poll = LessonPoll(poll, lesson, window)
    slides = Slides(lesson, window)  # before the stage: it reads the build they reset
    stage = Stage(lesson, slides, poll, window)
    stage.hide()
    console = PresenterConsole(lesson, slides, poll,
                               WorldScorerChoice(document, prefix="console_"), window)
    arrangement = Arrangement(window, docks, lesson, presentation, stage, console)
    presentation.presenting_changing.connect(arrangement.presenting_changing)
    presentation.presenting_changed.connect(arrangement.presenting_changed)
    # a file the teacher opens is their own setup: the lesson's scene steps aside for it
    session.opened.connect(lambda _path: arrangement.set_lesson(False))
    # presentation first: its Close filter runs after the file actions' (Qt calls the
    # newest filter first), so a quit the user cancels leaves presentation mode alone
    presenting = PresentationActions(window, presentation)
    files = FileActions(window, session)
    models = ModelActions(window, ModelRun(document, window))
    drops = FileDrops(window, files, models)
    exports = ExportActions(window, document, docks.panels, files.folder)
    polls = PollActions(window, poll, lesson_poll, exports)
    answers = AnswerActions(window, poll, lesson, history, document, exports, console)
    scenes = SceneActions(window, slides, arrangement)
    actions = Actions(window)
    file_specs = files.action_specs()  # a model folder is opened beside File → Import
    at = next(n for n, spec in enumerate(file_specs) if spec.id == "import_vectors") + 1
    file_specs[at:at] = models.action_specs()
    for specs_of in (file_specs, models.view_specs(), exports.action_specs(),
                     editing_specs(document, scenes.reset, scenes.reset_title),
                     docks.toggle_specs(), arrangement.action_specs(), language_specs(),
                     presenting.action_specs(), polls.action_specs(), answers.action_specs(),
                     scenes.action_specs(), help_specs(window, actions)):
        actions.add(specs_of)
    stack = document.undo_stack
    actions.update_on_new_value(stack.canUndoChanged, stack.canRedoChanged)
    # no menu is open while a vector is dragged: its steps are read once, when it ends
    actions.update_on(document.changed, unless=lambda: document.dragging)
    actions.update_on(document.gesture_finished, presentation.look_changed,
                      presentation.presenting_changed, arrangement.lesson_toggled, lesson.moved,
                      lesson.revealed, files.recent_changed, poll.running_changed,
                      poll.kept_changed, polls.unchanged)
    console.addActions(actions.values())  # the clicker's keys work on the teacher's screen
    console.hold_tool(actions["answer_history"])
    actions.update_on(arrangement.staging.toggled)
    menus = build_menu_bar(window.menuBar())  # their titles: the entries come second
    toolbar = MainToolbar(document, actions, window,
                          beside_choices=(ModelSwitch(document, models.run),))
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
    status = StatusLine(document, window.statusBar())
    showing = Showing(document, models.run, window.statusBar())
    window.statusBar().addPermanentWidget(ModelProgress(models.run, window.statusBar()))
    arrangement.remember_default()
    window.install(WindowParts(session, lesson, docks, arrangement, presentation, actions,
                               files, drops, exports, presenting, polls, answers, scenes,
                               toolbar, status, models, showing))

    def second_stage() -> None:
        network = polls.network_specs()
        actions.add(network)
        console.addActions([actions[spec.id] for spec in network])
        fill_menus(menus, actions)

    if later is None:
        second_stage()
    else:
        later(window, second_stage)
    return window
