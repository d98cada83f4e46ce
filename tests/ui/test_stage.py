"""The projector's stage: a presented lesson scene replaces the editing window (no menus,
toolbar, status bar or docks), its panels are the same Panel objects the docks hold, shown
together or one build at a time, and going back (F5, F7) gives the docks back as they were.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QToolBar, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.lesson.data import load_lesson_data
from app.model.lesson.scenes import SCENES_FILE
from app.model.scenario import write_scenario
from app.model.view import initial_state
from app.startup import make_application
from app.state.document import Document
from app.ui.app import build_main_window
from app.ui.language import apply_language
from app.ui.layout.builds import Build, plan_builds
from app.ui.panels.base import Panel
from app.ui.panels.registry import RIGHT, PanelSpec, panel_specs
from app.ui.presentation import restore_base_style
from tests.ui.staging import project


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def _present(window, index: int) -> None:
    window.arrangement.open_scene(index, set_up=True)
    project(window)
    _settle()


def _docks_shown(window) -> set[str]:
    return {name for name, dock in window.docks.items() if dock.isVisible()}


def test_builds_put_panels_side_by_side_then_one_over_the_other_then_one_at_a_time() -> None:
    wide, tall = (600, 300), (300, 600)
    assert plan_builds([("a", wide), ("b", wide)], (1000, 700)) == [Build(("a", "b"), False)]
    assert plan_builds([("a", tall), ("b", tall)], (1000, 700)) == [Build(("a", "b"), True)]
    assert plan_builds([("a", (700, 600)), ("b", (700, 600))], (1000, 700)) == [
        Build(("a",)), Build(("b",))]
    assert plan_builds([("big", (2000, 2000))], (1000, 700)) == [Build(("big",))]


def test_a_presented_scene_is_on_the_stage_with_no_chrome_and_no_docks(qtbot, open_window):
    window = open_window("en")
    _present(window, 5)  # the dot product by hand: playground and term by term
    assert window.arrangement.on_stage and window.centralWidget() is window.arrangement.stage
    assert not window.menuBar().isVisible() and not window.statusBar().isVisible()
    assert not any(bar.isVisible() for bar in window.findChildren(QToolBar))
    assert _docks_shown(window) == set()
    stage = window.arrangement.stage
    scene = window.lesson.scene
    assert stage.title.text() == tr(scene.title.key)
    assert stage.counter.text() == tr("guide.scene.counter", number=6, count=window.lesson.count)
    held = window.arrangement.staging.held
    assert set(held) == set(scene.panels)
    assert all(panel is window.panels[name] for name, panel in held.items())  # the same panel
    assert all(held[name].isVisible() for name in scene.panels[:1])


def test_f5_off_gives_the_scene_its_docks_and_on_again_the_same_stage(qtbot, open_window):
    window = open_window("en")
    _present(window, 8)  # the whole matrix: heatmap and term by term
    window.document.select(query=2, key=1)
    window.document.flush()
    staged = {name for name, panel in window.arrangement.staging.held.items()
              if panel.isVisible()}
    window.actions["presentation"].trigger()  # F5 off
    _settle()
    assert not window.arrangement.on_stage and window.menuBar().isVisible()
    assert set(window.lesson.scene.panels) <= _docks_shown(window)
    assert "playground" not in _docks_shown(window), "not the 2-D plane's 'cannot draw' page"
    assert all(isinstance(window.docks[n].widget(), Panel) for n in window.lesson.scene.panels)
    window.actions["presentation"].trigger()  # and on again
    _settle()
    again = {name for name, panel in window.arrangement.staging.held.items()
             if panel.isVisible()}
    assert again == staged
    assert (window.document.state.query, window.document.state.key) == (2, 1)


def test_leaving_the_lesson_on_the_projector_gives_the_free_layout_back(qtbot, open_window):
    window = open_window("en")
    window.presentation.set_presenting(True)
    _settle()
    free = _docks_shown(window)
    window.arrangement.set_lesson(True)
    _settle()
    assert window.arrangement.on_stage
    window.actions["lesson"].trigger()  # F7
    _settle()
    assert not window.arrangement.on_stage and window.centralWidget() is None
    assert _docks_shown(window) == free
    assert all(not isinstance(dock.widget(), type(None)) for dock in
               window.findChildren(QDockWidget))


class TallPanel(Panel):
    """A dock that needs most of a projector to be read: it never shares the stage."""

    name = "tall"
    depends_on = ("scorer",)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        QVBoxLayout(self).addWidget(QLabel("tall"))

    def readable_size(self):
        from PySide6.QtCore import QSize

        return QSize(900, 500)


def test_panels_that_cannot_share_the_stage_come_one_build_at_a_time(qtbot, data_dir,
                                                                       edit_data, add_strings):
    def add(doc) -> None:
        doc["scenes"].insert(0, {
            "id": "two_tall", "world": "teaching", "scorer": "dot",
            "selection": {"query": "query", "key": "object"}, "panels": ["tall", "heatmap"],
            "title": "scene.two_tall.title", "look": "scene.two_tall.look",
            "answer": {"prompt": "scene.two_tall.prompt", "text": "scene.two_tall.answer",
                       "panels": ["match"]}})

    edit_data(SCENES_FILE, add)
    words = {"title": ("两块", "Two tall panels"), "look": ("看。", "Look."),
             "prompt": ("猜？", "Guess?"), "answer": ("答。", "The answer.")}
    add_strings({code: {f"scene.two_tall.{name}": pair[i] for name, pair in words.items()}
                 for i, code in enumerate(("zh", "en"))})
    make_application()
    apply_language("en")
    specs = [*panel_specs(), PanelSpec("tall", TallPanel, RIGHT, order=99, title="heatmap.title")]
    window = build_main_window(Document(load_lesson_data(data_dir)), specs=specs)
    qtbot.addWidget(window)
    window.resize(1024, 768)
    window.show()
    qtbot.waitExposed(window)
    try:
        _present(window, 0)
        run, held = window.lesson, window.arrangement.staging.held
        slides = window.slides
        assert slides.builds >= 2 and slides.build == 0
        assert held["tall"].isVisible() and not held["heatmap"].isVisible()
        slides.next()  # PageDown: the next build, not the answer
        _settle()
        assert slides.build == 1 and not run.is_revealed()
        assert held["heatmap"].isVisible() and not held["tall"].isVisible()
        while slides.build + 1 < slides.builds:
            slides.next()
        slides.next()  # the last build shown: now the answer
        _settle()
        assert run.is_revealed() and slides.build == 0
        assert held["match"].isVisible(), "the answer's panel comes first"
        assert window.arrangement.stage.answer.text() == "The answer."
        slides.previous()
        assert run.index == 0 or slides.build == 0
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()


def test_zoom_language_and_window_size_keep_the_scenes_panels_and_selection(qtbot,
                                                                             open_window):
    window = open_window("en")
    _present(window, 8)
    window.document.select(query=3, key=2)
    window.document.flush()
    scene_panels = set(window.lesson.scene.panels)

    def same_scene() -> bool:
        held = window.arrangement.staging.held
        return (window.arrangement.on_stage and set(held) == scene_panels
                and (window.document.state.query, window.document.state.key) == (3, 2)
                and window.lesson.index == 8)

    for change in (window.presentation.zoom_in, window.presentation.zoom_out,
                   lambda: window.actions["lang_zh"].trigger(),
                   lambda: window.resize(1280, 720), lambda: window.resize(1024, 768),
                   lambda: window.actions["lang_en"].trigger()):
        change()
        _settle()
        assert same_scene()
    assert window.arrangement.stage.title.text() == tr(window.lesson.scene.title.key)
    apply_language("zh")


def test_space_steps_the_stage_and_n_opens_the_notes_band(qtbot, open_window):
    from PySide6.QtCore import Qt

    window = open_window("en")
    _present(window, 1)  # design a scorer: a question held back
    stage = window.arrangement.stage
    window.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert window.lesson.is_revealed() and stage.answer.isVisible()
    assert not stage.band.isVisible()
    window.actions["notes"].trigger()  # N
    assert stage.band.isVisible()
    assert window.panels["guide"].isVisibleTo(stage.band)
    window.actions["notes"].trigger()
    assert not stage.band.isVisible()


def test_opening_a_file_in_a_scene_shows_the_file_not_the_scene(qtbot, open_window,
                                                                tmp_path) -> None:
    """A teacher's own scenario replaces the state: the stage and the lesson step aside for
    it, instead of showing the scene's 2-D plane over a 4-D world ("cannot draw 4-D")."""
    window = open_window("zh")
    path = tmp_path / "mine.attnlab.json"
    write_scenario(initial_state(window.document.data), path)  # the 4-D teaching world
    try:
        _present(window, 0)
        assert window.arrangement.in_lesson and window.arrangement.staging.up
        assert window.parts.files.open_path(path)
        _settle()
        assert not window.arrangement.in_lesson and not window.arrangement.staging.up
        assert window.document.state.world == "teaching"
        assert window.docks["editor"].isVisible(), "the file's world, in its docks"
    finally:
        window.presentation.set_presenting(False)
        restore_base_style()
