"""How the lesson's scenes share a projector's screen, and the layouts that make them fit: the
playground puts its table under the plane unless it fits beside it, the timeline's stage chips
wrap instead of scrolling, and a scene may set a panel under the guide so the one on the left
keeps the full height."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QDockWidget,
    QMainWindow,
    QToolButton,
    QWidget,
)

from app.model.errors import DataError
from app.model.lesson.data import load_lesson_data
from app.model.lesson.scenes import SCENES_FILE, load_scenes
from app.startup import build_window, make_application
from app.state.document import Document
from app.ui.look import Look
from app.ui.panels.playground.panel import PlaygroundPanel
from app.ui.presentation import PRESENTATION_SCALE, restore_base_style, scale_app_font
from app.ui.widgets.flow import FlowLayout

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints",
                                      "This plugin does not support raise")


def settle(window=None) -> None:
    for _ in range(4):
        QApplication.sendPostedEvents()
        QApplication.processEvents()
        if window is not None:
            window.document.flush()


# ---- the playground's table: beside the plane only where it fits -------------------------

def columns_inside(panel: PlaygroundPanel) -> bool:
    """Every shown header and cell of the table lies inside the readouts' scroll view."""
    port = panel._scroll.viewport()
    labels = [*panel.readouts.headers.values(),
              *(label for row in panel.readouts.cells for label in row.values())]
    for label in labels:
        if label.isVisible():
            where = QRect(label.mapTo(port, QPoint(0, 0)), label.size())
            if where.left() < 0 or where.right() > port.rect().right():
                return False
    return True


@pytest.fixture
def dock(qtbot):
    """The playground, in the 2-D world, in a dock of a window at presentation scale."""
    made = []

    def open_(size: tuple[int, int]) -> tuple[QDockWidget, PlaygroundPanel]:
        make_application()
        document = Document(load_lesson_data())
        document.set_world("dialogue")
        document.flush()
        panel = PlaygroundPanel(document)
        window = QMainWindow()
        qtbot.addWidget(window)
        holder = QDockWidget("playground")
        holder.setWidget(panel)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, holder)
        window.setCentralWidget(QWidget())
        scale_app_font(PRESENTATION_SCALE)
        panel.set_look(Look(scale=PRESENTATION_SCALE))
        window.resize(size[0] + 40, size[1] + 60)
        window.resizeDocks([holder], [size[0]], Qt.Orientation.Horizontal)
        window.show()
        qtbot.waitExposed(window)
        settle()
        made.append(window)
        return holder, panel

    yield open_
    restore_base_style()


def test_a_narrow_dock_puts_the_table_under_the_plane_with_every_column(qtbot, dock) -> None:
    _holder, panel = dock((672, 330))  # scene 5 at 1024×768, presentation
    assert panel.readouts.sizeHint().width() > panel.width() / 2  # beside, it would not fit
    assert panel._body.direction() == QBoxLayout.Direction.TopToBottom
    assert columns_inside(panel)


def test_a_wide_short_dock_puts_the_whole_table_beside_the_plane(qtbot, dock) -> None:
    holder, panel = dock((1300, 330))
    assert panel._body.direction() == QBoxLayout.Direction.LeftToRight
    assert columns_inside(panel)
    assert panel.canvas.width() >= panel.look.px(160)
    # the table's width never becomes the dock's minimum: the dock can still narrow, and
    # then the table goes under the plane
    assert holder.minimumSizeHint().width() < panel.readouts.sizeHint().width()
    table = panel.readouts.sizeHint().width()
    holder.window().resizeDocks([holder], [table + 60], Qt.Orientation.Horizontal)
    settle()
    assert panel.width() < panel.readouts.sizeHint().width() + panel.look.px(160)
    assert panel._body.direction() == QBoxLayout.Direction.TopToBottom
    assert columns_inside(panel)


def test_a_wider_score_column_keeps_every_column_in_view(qtbot, dock) -> None:
    """The additive score's column widens the table: the choice is made again."""
    _holder, panel = dock((980, 330))
    assert panel._body.direction() == QBoxLayout.Direction.LeftToRight
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.set_scorer("additive")
    settle()
    assert panel.readouts.headers["active"].isVisible()
    assert columns_inside(panel)


def test_a_dock_narrower_than_the_table_drops_the_coordinates_not_a_score(qtbot,
                                                                          dock) -> None:
    holder, panel = dock((900, 640))
    readouts = panel.readouts
    assert readouts.headers["vector"].isVisible()
    full = readouts.full_width()
    holder.window().resizeDocks([holder], [full - 30], Qt.Orientation.Horizontal)
    settle()
    assert panel._body.direction() == QBoxLayout.Direction.TopToBottom
    assert not readouts.headers["vector"].isVisible()
    assert not readouts.cells[0]["vector"].isVisible()
    assert readouts.full_width() == full
    assert columns_inside(panel)
    holder.window().resizeDocks([holder], [full + 60], Qt.Orientation.Horizontal)
    settle()
    assert readouts.headers["vector"].isVisible() and columns_inside(panel)


# ---- the timeline's chips wrap -----------------------------------------------------------

def test_a_flow_layout_wraps_its_items_into_rows_at_its_width(qtbot) -> None:
    make_application()
    holder = QWidget()
    qtbot.addWidget(holder)
    flow = FlowLayout(holder)
    buttons = [QToolButton(text=f"stage {i}") for i in range(6)]
    for button in buttons:
        flow.addWidget(button)
    one = buttons[0].sizeHint().width()
    assert len(flow.rows(10 * one)) == 1
    narrow = 2 * one + flow.spacing()
    assert [len(row) for row in flow.rows(narrow)] == [2, 2, 2]
    assert flow.heightForWidth(narrow) > 2 * flow.heightForWidth(10 * one)
    holder.resize(narrow, flow.heightForWidth(narrow))
    holder.show()
    settle()
    tops = sorted({button.y() for button in buttons})
    assert len(tops) == 3 and all(b.geometry().right() < narrow for b in buttons)


# ---- the scene layout: shares and a panel under the guide --------------------------------

@pytest.fixture
def lesson(qtbot):
    def open_(language: str, size: tuple[int, int], number: int, presenting: bool = True):
        make_application()
        window = build_window(language)
        qtbot.addWidget(window)
        window.presentation.set_presenting(presenting)
        window.resize(*size)
        window.arrangement.open_scene(number - 1, set_up=True)
        window.show()
        qtbot.waitExposed(window)
        settle(window)
        return window

    yield open_
    restore_base_style()


def area(window, name: str) -> Qt.DockWidgetArea:
    return window.dockWidgetArea(window.docks[name])


def test_a_scene_sets_its_aside_panel_under_the_guide_with_the_notes_whole(qtbot,
                                                                          lesson) -> None:
    window = lesson("en", (1024, 768), 9, presenting=False)  # on the projector: the stage
    assert window.scenes.run.scene.layout.aside == "expansion"
    guide, expansion, heatmap = (window.docks[n] for n in ("guide", "expansion", "heatmap"))
    assert area(window, "expansion") == area(window, "guide") != area(window, "heatmap")
    assert expansion.y() > guide.y()
    assert heatmap.height() > 0.8 * (guide.height() + expansion.height())  # full height
    stepper = window.panels["guide"].stepper
    assert stepper.height() >= stepper.heightForWidth(stepper.width())  # notes not squeezed
    assert expansion.height() > 0.3 * heatmap.height()
    # the next scene has no aside: the guide takes its column again
    window.slides.next()
    settle(window)
    assert window.docks["expansion"].isHidden() or area(window, "expansion") != area(
        window, "guide")


def test_the_matrix_scene_at_1280x720_on_a_desk_shows_tall_rows_and_every_line_of_the_terms(
        qtbot, lesson) -> None:
    window = lesson("zh", (1280, 720), 9, presenting=False)
    heatmap, expansion = window.panels["heatmap"], window.panels["expansion"]
    assert heatmap.height() > 0.75 * window.height()
    scrolls = [child for child in expansion.findChildren(QWidget)
               if hasattr(child, "verticalScrollBar") and child.isVisible()]
    assert scrolls and all(s.verticalScrollBar().maximum() == 0 for s in scrolls)


def test_a_dock_brought_up_in_the_lesson_is_shown_on_its_own_readable(qtbot, lesson) -> None:
    """Alt+3 in the lesson's docks: the score matrix joins the scene's large place as a tab,
    in front and at least its readable size, not a sliver over the guide; the scene's panel
    is one tab away, and the next scene lays out only its own docks."""
    window = lesson("en", (1366, 768), 1, presenting=False)
    assert window.docks["heatmap"].isHidden()
    window.actions["show_heatmap"].trigger()
    settle(window)
    heatmap, playground = window.docks["heatmap"], window.docks["playground"]
    assert heatmap in window.tabifiedDockWidgets(playground)
    assert heatmap.isVisible() and not heatmap.visibleRegion().isEmpty()
    panel, need = window.panels["heatmap"], window.panels["heatmap"].readable_size()
    assert panel.width() >= need.width() and panel.height() >= need.height()
    assert panel.width() > window.docks["guide"].width()
    window.slides.next()
    settle(window)
    assert heatmap.isHidden() == ("heatmap" not in window.arrangement.shown_panels())


def test_the_lessons_docks_follow_a_world_the_user_opens(qtbot, lesson) -> None:
    """Ctrl+2 in scene 1's docks: the 4-D editor takes the plane's place (two thirds of the
    screen showed a page saying the plane cannot draw 4-D vectors); Ctrl+1 brings the plane
    back, and Undo follows the world as well."""
    window = lesson("en", (1366, 768), 1, presenting=False)

    def data_docks() -> set[str]:
        return {name for name, dock in window.docks.items()
                if name != "guide" and dock.isVisible() and not dock.visibleRegion().isEmpty()}

    assert data_docks() == {"playground"}
    window.actions["world_teaching"].trigger()
    window.document.flush()
    settle(window)
    assert data_docks() == {"editor"} and window.arrangement.in_lesson
    editor, need = window.panels["editor"], window.panels["editor"].readable_size()
    assert editor.width() >= need.width() and editor.height() >= need.height()
    window.document.undo_stack.undo()
    window.document.flush()
    settle(window)
    assert data_docks() == {"playground"}


@pytest.mark.parametrize(("change", "field", "words"), [
    (lambda d: d["scenes"][8].__setitem__("layout", {"aside": "shapes"}),
     "scenes[8].layout.aside", "must be one of the scene's panels"),
    (lambda d: d["scenes"][0].__setitem__("layout", {"aside": "playground"}),
     "scenes[0].layout.aside", "two or more"),
    (lambda d: d["scenes"][8].__setitem__("layout", {"guide": 0.9}),
     "scenes[8].layout.guide", "must be between"),
    (lambda d: d["scenes"][8].__setitem__("layout", {"top": 0.1}),
     "scenes[8].layout.top", "must be between"),
    (lambda d: d["scenes"][8].__setitem__("layout", {"wide": True}),
     "scenes[8].layout.wide", "is not a layout choice"),
])
def test_a_bad_layout_choice_is_refused_with_its_field(data_dir, edit_data, change, field,
                                                        words) -> None:
    edit_data(SCENES_FILE, change)
    with pytest.raises(DataError) as refused:
        load_scenes(data=load_lesson_data(data_dir))
    assert refused.value.field == field
    assert words in refused.value.problem


def test_the_stage_follows_a_world_opened_before_or_while_presenting(qtbot, lesson) -> None:
    """F7, Ctrl+2 at the desk, F7 back to scene 1 and F5: the projector showed the plane's
    page saying it cannot draw the 4-D world where the lesson's docks showed the 4-D editor.
    The stage lays the scene out for the open world too, and again when the teacher opens
    another world while presenting."""
    window = lesson("en", (1024, 768), 1, presenting=False)
    window.actions["world_teaching"].trigger()
    window.document.flush()
    settle(window)
    window.presentation.set_presenting(True)
    settle(window)
    staging = window.arrangement.staging
    assert window.arrangement.on_stage

    def shown() -> set[str]:
        return {name for name, panel in staging.held.items() if panel.isVisible()}

    assert shown() == {"editor"}
    window.actions["world_dialogue"].trigger()
    window.document.flush()
    settle(window)
    assert shown() == {"playground"}
    window.presentation.set_presenting(False)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_cosine_key_on_the_stage_prints_values_either_side_of_zero(qtbot, lesson,
                                                                       language) -> None:
    """Scene 15 scores by cosine: its colour bar, the key to the background, printed "0"
    alone (room was reserved for "−1", narrower than the "−0.5" its ticks needed), so the
    class could read no value off the colours."""
    from PySide6.QtGui import QImage, QPainter

    window = lesson(language, (1024, 768), 15)
    assert window.document.state.scorer == "cosine"
    axis = window.panels["playground"].landscape.colorbar.axis
    canvas = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(canvas)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    printed = {text for _rect, _flags, text in specs[2]}
    assert {"−0.5", "0", "0.5"} <= {text.replace("-", "−") for text in printed}, printed
    window.presentation.set_presenting(False)
