"""A drag step costs what it changes: the match table announces only the cells
whose values moved, rebuilds its reasons only when they change, and a panel whose inputs a
vector edit does not touch (the shapes panel) neither refreshes nor repaints."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from app.state.document import Document
from app.ui.format import format_score
from app.ui.look import Look
from app.ui.main_window import MainWindow
from app.ui.panels.base import Panel
from app.ui.panels.heatmap import panel as heatmap_panel
from app.ui.panels.heatmap.panel import HeatmapPanel
from app.ui.panels.match.model import COLUMNS, SORT_ROLE
from app.ui.panels.match.panel import MatchTablePanel
from app.ui.panels.playground.panel import PlaygroundPanel
from app.ui.panels.shapes.panel import ShapesPanel
from app.ui.presentation import restore_base_style
from app.ui.widgets.stage_text import WORD_JOINER
from tests.ui.staging import project
from tests.ui.still_plot import far_apart, pixels

UNSWAPPED_KEY = 1
"""In the lesson's 4-D world (query 3) keys 0, 2 and 4 swap ranks; key 1 takes no part."""


def cells(panel: MatchTablePanel) -> dict[tuple[int, int], tuple[object, object]]:
    model = panel.model
    return {(r, c): (model.index(r, c).data(), model.index(r, c).data(SORT_ROLE))
            for r in range(model.rowCount()) for c in range(len(COLUMNS))}


def side_by_side(window: MainWindow) -> None:
    """The matrix over the term-by-term bars, both in view: at 1280×720 both are not
    readable one over the other, so the desk fit put them in one tab group."""
    for _ in range(5):  # the fit's passes first
        QApplication.processEvents()
    docks = window.arrangement.docks
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, docks["expansion"],
                         Qt.Orientation.Vertical)  # out of the tabs, under the matrix
    docks["expansion"].show()
    # the columns as a first start makes them (half the window each): the editor's boxes
    # ask the left one for more, and a narrower right one rewraps the written-out sum
    half = window.width() // 2
    window.resizeDocks([docks["editor"], docks["heatmap"]], [half, half],
                       Qt.Orientation.Horizontal)
    QApplication.processEvents()


def drag_step(document: Document, key: int, offset: float) -> None:
    """One step of a drag of key `key`, recomputed at once."""
    document.set_vector("k", key, document.state.vectors[1][key] + offset)
    document.flush()


class Calls:
    """Counts calls of one method of one instance, then calls through."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
        self.count = 0
        real = getattr(owner, name)

        def spy(*args: object, **kwargs: object) -> object:
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, spy)


class Paints(QObject):
    """Counts Paint events of a widget and everything inside it."""

    def __init__(self, root: QWidget) -> None:
        super().__init__()
        self.root, self.count = root, 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.Paint and isinstance(watched, QWidget)
                and (watched is self.root or self.root.isAncestorOf(watched))):
            self.count += 1
        return False


class Events(QObject):
    """Counts the events of one type sent to any object."""

    def __init__(self, kind: QEvent.Type) -> None:
        super().__init__()
        self.kind, self.count = kind, 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == self.kind:
            self.count += 1
        return False


@pytest.fixture
def paints() -> Iterator[type[Paints]]:
    installed: list[Paints] = []

    def install(root: QWidget) -> Paints:
        counter = Paints(root)
        QApplication.instance().installEventFilter(counter)
        installed.append(counter)
        return counter

    yield install  # type: ignore[misc]
    for counter in installed:
        QApplication.instance().removeEventFilter(counter)


def settled(painted: Paints) -> int:
    """Let everything posted finish painting (a first show's polish and layouts, or a drag
    step's repaints, however many passes they take); returns the paints it took, and counts
    afresh."""
    quiet, total = 0, painted.count
    for _ in range(100):
        painted.count = 0
        QApplication.processEvents()
        QApplication.sendPostedEvents()
        total += painted.count
        quiet = 0 if painted.count else quiet + 1
        if quiet == 5:
            break
    assert quiet == 5
    painted.count = 0
    return total


@pytest.fixture
def match(open_panel) -> MatchTablePanel:
    panel = open_panel(MatchTablePanel, (1200, 360))
    assert panel.document.state.world == "teaching" and panel.document.state.query == 3
    assert UNSWAPPED_KEY not in panel.document.view.reasons.flagged
    return panel


def test_a_drag_step_announces_only_the_cells_that_moved(qtbot, match):
    document, model = match.document, match.model
    announced: set[tuple[int, int]] = set()
    resets: list[str] = []
    model.dataChanged.connect(lambda first, last, _roles=(): announced.update(
        (r, c) for r in range(first.row(), last.row() + 1)
        for c in range(first.column(), last.column() + 1)))
    model.modelReset.connect(lambda: resets.append("reset"))
    model.layoutChanged.connect(lambda: resets.append("layout"))
    before = cells(match)
    document.begin_drag()
    drag_step(document, UNSWAPPED_KEY, 0.1)
    after = cells(match)
    moved = {cell for cell in after if after[cell] != before[cell]}
    assert moved, "the step moved some numbers"
    assert announced == moved
    assert all(row == UNSWAPPED_KEY or COLUMNS[c].endswith("_rank") for row, c in moved)
    assert (UNSWAPPED_KEY, COLUMNS.index("key")) not in announced
    assert resets == []
    document.end_drag()


def test_reasons_are_rebuilt_only_when_the_swaps_change(qtbot, monkeypatch, match):
    document = match.document
    rebuilt = Calls(monkeypatch, match.reasons, "setText")
    refits = Calls(monkeypatch, match, "_fit_table")
    text = match.reasons.text()
    document.begin_drag()
    for step in (0.1, -0.1, 0.05):
        drag_step(document, UNSWAPPED_KEY, step)
    assert document.view.reasons.reasons and UNSWAPPED_KEY not in document.view.reasons.flagged
    assert rebuilt.count == 0 and match.reasons.text() == text
    assert refits.count == 0, "same widths: the columns are not measured again"
    # Key 1 made long and turned towards q: now it wins the dot product by its length.
    q = document.view.q[document.state.query]
    drag_step(document, UNSWAPPED_KEY, 3 * q - document.state.vectors[1][UNSWAPPED_KEY])
    document.end_drag()
    assert UNSWAPPED_KEY in document.view.reasons.flagged
    assert rebuilt.count == 1
    assert (document.view.key_names[UNSWAPPED_KEY]
            in match.reasons.text().replace(WORD_JOINER, ""))  # it only holds a name whole


def test_shapes_panel_ignores_a_vector_edit_but_not_an_option_or_scale(
        qtbot, monkeypatch, open_panel, paints):
    panel = open_panel(ShapesPanel, (900, 700))
    document = panel.document
    painted = paints(panel)
    settled(painted)  # the first show finishes painting (fonts polish, layouts settle)
    refreshes = Calls(monkeypatch, panel, "refresh")
    document.begin_drag()
    for step in (0.1, 0.2, -0.3):
        drag_step(document, 0, step)
        QApplication.processEvents()
    document.end_drag()
    QApplication.processEvents()
    assert not np.array_equal(document.view.k, document.data.teaching.K), "the edits happened"
    assert (refreshes.count, painted.count) == (0, 0)
    document.set_options(show_additive=not document.state.options.show_additive)
    document.flush()
    assert refreshes.count == 1
    panel.set_look(Look(scale=1.5))
    assert refreshes.count == 2


def test_picking_a_vector_repaints_the_playground_once_or_not_at_all(
        qtbot, monkeypatch, open_panel, paints) -> None:
    """A key picked by its number is the document's selection: the document's change
    repaints the plane once. q picked only changes which arrow the arrow keys move: its
    ring, not the plane."""
    panel = open_panel(PlaygroundPanel, (900, 700))
    document = panel.document
    document.set_world("dialogue")
    document.flush()
    settled(paints(panel))  # the new world laid out, its labels placed
    refreshes = Calls(monkeypatch, panel, "refresh")
    qtbot.keyClick(panel.canvas, Qt.Key.Key_2)
    document.flush()
    QApplication.processEvents()
    assert document.state.key == 1 and refreshes.count == 1
    assert panel.arrows[("k", 1)].handle._active
    qtbot.keyClick(panel.canvas, Qt.Key.Key_0)
    document.flush()
    QApplication.processEvents()
    assert refreshes.count == 1
    assert panel.arrows[("q", 0)].handle._active and not panel.arrows[("k", 1)].handle._active


class OptionsProbe(Panel):
    """A panel that shows only the options: counts its refreshes."""

    name = "options_probe"
    depends_on = ("options",)

    def __init__(self, document: Document) -> None:
        super().__init__(document)
        self.refreshes = 0

    def refresh(self) -> None:
        self.refreshes += 1


def test_a_panel_skips_changes_outside_its_inputs_and_catches_up_on_the_rest(
        qtbot, open_panel):
    probe = open_panel(OptionsProbe, (200, 200))
    document = probe.document
    drag_step(document, 0, 0.5)
    document.select(key=0)
    document.flush()
    assert probe.refreshes == 0
    document.set_options(causal=not document.state.options.causal)
    document.flush()
    assert probe.refreshes == 1
    document.undo_stack.undo()  # back to the options it showed before: a real change again
    document.flush()
    assert probe.refreshes == 2


class ReadProbe(OptionsProbe):
    """The options probe, counting how often its inputs are read."""

    name = "read_probe"

    def __init__(self, document: Document) -> None:
        self.reads = 0
        super().__init__(document)

    def inputs(self) -> tuple[object, ...] | None:
        self.reads += 1
        return super().inputs()


def test_a_change_reads_a_panels_inputs_once_for_its_refresh_and_remembers_them(
        qtbot, open_panel):
    probe = open_panel(ReadProbe, (200, 200))
    document = probe.document
    reads = probe.reads
    document.set_options(causal=not document.state.options.causal)
    document.flush()
    assert (probe.refreshes, probe.reads - reads) == (1, 1)
    assert probe._shown_inputs == probe.inputs()
    probe.refresh()  # a refresh of its own (a look, a language) reads them itself
    assert probe.reads - reads == 3
    document.undo_stack.undo()  # the remembered inputs are those shown: a change again
    document.flush()
    assert probe.refreshes == 3


def test_a_key_dragged_on_the_plane_leaves_its_landscape_as_it_was(
        qtbot, monkeypatch, open_2d_panel):
    panel = open_2d_panel(PlaygroundPanel, (900, 700))
    document = panel.document
    images = Calls(monkeypatch, panel.landscape.image, "setImage")
    contours = Calls(monkeypatch, panel.landscape.iso, "setData")
    key = document.state.key
    tip = panel.arrows[("k", key)].handle.pos()
    document.begin_drag()
    drag_step(document, key, 0.1)
    assert (images.count, contours.count) == (0, 0)
    assert panel.arrows[("k", key)].handle.pos() != tip, "the key's arrow moved"
    document.set_vector("q", 0, document.state.vectors[0][0] + 0.1)  # q moves: a new picture
    document.flush()
    assert images.count >= 1 and contours.count == 1
    document.end_drag()


def test_a_new_sum_is_painted_once_per_drag_step(qtbot, window, paints):
    document = window.document
    document.set_world("teaching")
    side_by_side(window)
    panel = window.panels["expansion"]
    painted = paints(panel.equation)
    settled(painted)
    text, height = panel.equation.text(), panel.equation.height()
    document.begin_drag()
    for step in (0.1, -0.1, 0.1):  # new numbers, as many lines: nothing to lay out anew
        drag_step(document, document.state.key, step)
        assert settled(painted) == 1, "one paint a step (a QLabel's text control made three)"
    document.end_drag()
    assert panel.equation.text() != text and panel.equation.height() == height


def test_a_drag_step_on_the_timeline_stage_leaves_its_card_alone(qtbot, stage_scene_one, paints):
    """Stage scene 12's card quotes the lesson's figures at the class's vectors; a drag that
    moves none of them sets the same text, yet the card (a QLabel, which lays its rich text
    out again at each paint and for each width it is asked about) was repainted at every
    step: half of the frame. Now it is neither laid out nor painted."""
    window = stage_scene_one
    window.lesson.go(11)
    panel = window.panels["timeline"]
    settled(paints(window))
    document = window.document
    key = document.state.key
    text = panel.card.text()
    painted = paints(panel.card)
    settled(painted)
    document.begin_drag()
    for step in (0.5, -0.3, 0.2):
        drag_step(document, key, step)
        assert settled(painted) == 0
    document.end_drag()
    assert panel.card.text() == text


def test_a_drag_step_paints_the_dragged_chart_once(qtbot, window, paints):
    document = window.document
    document.set_world("teaching")
    panel = window.panels["editor"]
    key = document.state.key
    painted = paints(panel.charts[("k", key)].plot)
    settled(painted)
    document.begin_drag()
    for step in (0.1, 0.2, -0.3):
        drag_step(document, key, step)
        assert settled(painted) == 1, "its outline did not change: no repaint for it"
    document.end_drag()


class Passes(QObject):
    """Counts the passes that painted `window`: update requests followed by a paint before the
    next one (an application filter sees a request before the window's own filters do, so a
    request the frame gate holds is seen too, and paints nothing)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__()
        self.window, self.count, self._painting = window, 0, False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.UpdateRequest and watched is self.window:
            self._painting = False
        elif (event.type() == QEvent.Type.Paint and not self._painting
              and isinstance(watched, QWidget) and watched.window() is self.window):
            self._painting = True
            self.count += 1
        return False


def test_a_drag_step_paints_the_window_in_one_pass(qtbot, window, paints):
    """The heatmap, the dragged chart and the term-by-term bars each have a scene of their
    own; each scene hands the window its update request when it has processed its items,
    which painted the window three times a step."""
    document = window.document
    document.set_world("teaching")
    drag_step(document, document.state.key, 0.1)  # Undo turns on: the toolbar is laid out
    settled(paints(window))
    side_by_side(window)
    settled(paints(window))
    passes = Passes(window)
    QApplication.instance().installEventFilter(passes)
    try:
        views = [window.panels["heatmap"].graphics, window.panels["expansion"].bars_plot,
                 window.panels["editor"].charts[("k", document.state.key)].plot]
        painted = [paints(view.viewport()) for view in views]
        document.begin_drag()
        for step in (0.1, -0.2, 0.1):
            passes.count = 0
            drag_step(document, document.state.key, step)
            counts = [settled(one) for one in painted]
            assert all(counts), "every one of the three plots repaints for a key's drag step"
            assert passes.count == 1
        document.end_drag()
    finally:
        QApplication.instance().removeEventFilter(passes)


def test_a_drag_reads_the_actions_when_it_ends(qtbot, window):
    document = window.document
    reads: list[None] = []
    document.begin_drag()
    drag_step(document, document.state.key, 0.1)  # the first step makes undo possible
    assert window.actions["undo"].isEnabled()
    window.actions.updated.connect(lambda: reads.append(None))
    for step in (0.1, 0.2, -0.3):
        drag_step(document, document.state.key, step)
    assert reads == [], "no menu is open during a drag: 168 states are not read at each step"
    document.end_drag()
    assert len(reads) == 1
    document.undo_stack.undo()
    document.flush()
    assert window.actions["redo"].isEnabled() and not window.actions["undo"].isEnabled()


def on_screen(widget: QWidget) -> QImage:
    """What the window's backing store holds for `widget` (what the screen shows), not a
    fresh render of it."""
    top = widget.window()
    corner = widget.mapTo(top, QPoint(0, 0))
    shot = top.screen().grabWindow(top.winId(), corner.x(), corner.y(), widget.width(),
                                   widget.height())
    return shot.toImage().convertToFormat(QImage.Format.Format_RGB32)


ROUNDING = 2
"""Antialiased lines painted inside a smaller dirty region can blend one or two levels
differently from a whole repaint; a pixel left from an old frame differs by far more."""


def test_the_heatmap_fits_its_lines_when_a_drag_ends_not_at_each_step(
        qtbot, monkeypatch, open_panel):
    panel = open_panel(HeatmapPanel, (900, 600))
    document = panel.document
    fits = Calls(monkeypatch, heatmap_panel, "fit_lines")
    key = document.state.key
    document.begin_drag()
    for step in (0.3, -0.5, 0.4):
        drag_step(document, key, step)
    assert fits.count == 0
    document.end_drag()
    assert fits.count == 1
    drag_step(document, key, 0.1)  # a typed edit fits them at once
    assert fits.count == 2


def test_the_heatmap_repaints_only_the_dragged_keys_column_and_leaves_nothing_stale(
        qtbot, open_panel, paints):
    panel = open_panel(HeatmapPanel, (900, 600))
    document = panel.document
    port = panel.graphics.viewport()
    exposed: list[QRect] = []

    class Exposed(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if watched is port and event.type() == QEvent.Type.Paint:
                exposed.append(event.rect())
            return False

    settled(paints(panel))
    spy = Exposed()
    port.installEventFilter(spy)
    key = document.state.key
    document.begin_drag()
    drag_step(document, key, 0.3)  # the first step holds the colour scale: all repaint once
    settled(paints(panel))
    exposed.clear()
    for step in (-0.5, 0.4):
        drag_step(document, key, step)
        settled(paints(panel))
    assert len(exposed) == 2 and all(rect.width() < port.width() / 3 for rect in exposed)
    document.end_drag()
    settled(paints(panel))
    port.removeEventFilter(spy)
    shown = on_screen(port)
    panel.cells.grid.update()  # everything painted afresh
    settled(paints(panel))
    assert far_apart(pixels(on_screen(port)), pixels(shown)) == 0


def test_a_drag_step_prints_only_the_dragged_keys_numbers_and_shows_a_whole_repaint(
        qtbot, monkeypatch, open_panel, paints):
    """The columns beside the dragged one are repainted at their edges only: their colour,
    not their numbers, yet the screen is pixel for pixel a whole repaint."""
    panel = open_panel(HeatmapPanel, (900, 600))
    document = panel.document
    port = panel.graphics.viewport()
    settled(paints(panel))
    key = document.state.key
    document.begin_drag()
    drag_step(document, key, 0.3)  # the first step holds the colour scale: all repaint once
    settled(paints(panel))
    printed: list[str] = []
    real = QPainter.drawText

    def spy(painter: QPainter, *args: object) -> object:
        printed.append(str(args[-1]))
        return real(painter, *args)  # type: ignore[call-overload]

    monkeypatch.setattr(QPainter, "drawText", spy)
    for step in (-0.1, 0.05):  # inside the colour scale the first step set
        printed.clear()
        drag_step(document, key, step)
        settled(paints(panel))
        column = [row[key] for row in panel.cells.grid.labels]
        assert printed == column
        shown = on_screen(port)
        panel.cells.grid.update()  # everything painted afresh
        settled(paints(panel))
        assert on_screen(port) == shown
    document.end_drag()


def test_a_drag_on_the_plane_leaves_nothing_stale_on_screen(qtbot, open_2d_panel, paints):
    """Arrows the step did not move, and a landscape it did not change, keep what they drew:
    what the screen shows after the drag is what painting everything afresh shows."""
    panel = open_2d_panel(PlaygroundPanel, (900, 700))
    document = panel.document
    port = panel.canvas.viewport()
    settled(paints(panel))
    key = document.state.key
    document.begin_drag()
    for step in (0.3, -0.5, 0.4):
        drag_step(document, key, step)
        settled(paints(panel))
    document.end_drag()
    settled(paints(panel))
    shown = on_screen(port)
    port.update()  # everything painted afresh
    settled(paints(panel))
    assert far_apart(pixels(on_screen(port)), pixels(shown), ROUNDING) == 0


def test_the_plane_keeps_its_readouts_room_while_a_drag_only_shrinks_a_number(
        qtbot, monkeypatch, open_2d_panel, paints):
    """Fitting the readouts beside or below the plane again took a fifth of a stage drag
    step, at one step in four: during a drag only a number that grows is given new room,
    and the room is fitted to the texts when the drag ends."""
    panel = open_2d_panel(PlaygroundPanel, (900, 700))
    document = panel.document
    settled(paints(panel))
    fits = Calls(monkeypatch, panel, "_fit_readouts")
    start = document.state.dialogue_keys[2].copy()  # (−0.5, −1): q·k −4.00, θ 172.9°

    def step_to(k: list[float]) -> int:
        before = fits.count
        document.set_vector("k", 2, k)
        document.flush()
        settled(paints(panel))
        return fits.count - before

    document.begin_drag()
    assert step_to([1.0, 0.0]) == 0, "2.00 and 56.3° fit the room of −4.00 and 172.9°"
    assert step_to(list(start)) == 0
    assert step_to([-4.5, -4.5]) == 1, "−22.50 needs more room than −4.00"
    assert step_to([1.0, 0.0]) == 0
    before = fits.count
    document.end_drag()
    settled(paints(panel))
    assert fits.count - before == 1, "the room is fitted to the narrower texts at the end"


@pytest.fixture
def stage_scene_one(open_window) -> Iterator[QWidget]:
    """The window in Chinese at 1024×768, presenting scene 1 at 150 %, as a classroom sees
    it; presentation mode and the base style come back afterwards."""
    window = open_window("zh")
    window.resize(1024, 768)
    window.arrangement.open_scene(0, set_up=True)
    project(window)
    window.presentation.set_scale(1.5)
    yield window
    window.presentation.set_presenting(False)
    restore_base_style()


def test_a_drag_on_the_stage_keeps_the_readouts_columns_and_side(qtbot, stage_scene_one, paints):
    """A number that grows mid-drag (q·k to −21.00) gets room where the readouts are: the
    stage dropped the coordinates column for it, and the plane under the pointer grew by a
    fifth, so the key slid away from the pointer; the layout is chosen again at the end."""
    window = stage_scene_one
    panel = window.panels["playground"]
    settled(paints(window))
    readouts, body = panel.readouts, panel._body
    arrangement = (body.direction(), readouts.hidden_columns())
    assert arrangement[1] == ()
    document = window.document
    document.begin_drag()
    for k in ([-3.0, -5.0], [-9.5, -9.5]):
        document.set_vector("k", 0, k)
        document.flush()
        settled(paints(window))
        assert (body.direction(), readouts.hidden_columns()) == arrangement
        assert readouts.cells[0]["dot"].width() >= readouts.cells[0]["dot"].sizeHint().width()
    document.set_vector("k", 0, [2.0, 2.0])
    document.flush()
    document.end_drag()
    settled(paints(window))
    assert (body.direction(), readouts.hidden_columns()) == arrangement


def test_a_drag_step_on_the_stage_lays_out_the_readouts_only_for_a_text_that_grew(
        qtbot, stage_scene_one, paints):
    """Each new number asked the table for a layout pass, a tenth of a stage drag step:
    while a drag runs the texts keep their size, and only one that needs more room than it
    has is laid out again (and shown whole)."""
    window = stage_scene_one
    readouts = window.panels["playground"].readouts
    settled(paints(window))
    document = window.document
    layouts = Events(QEvent.Type.LayoutRequest)
    readouts.installEventFilter(layouts)
    document.begin_drag()
    document.set_vector("k", 0, [2.5, 1.5])
    document.flush()
    settled(paints(window))
    layouts.count = 0
    for k in ([2.0, 1.0], [1.5, 2.0], [2.5, 0.5]):
        document.set_vector("k", 0, k)
        document.flush()
        settled(paints(window))
    assert layouts.count == 0
    document.set_vector("k", 0, [-9.5, -9.5])  # a q·k wider than any before
    document.flush()
    settled(paints(window))
    assert layouts.count >= 1
    dot = readouts.cells[0]["dot"]
    assert dot.text() == format_score(float(document.view.scores["dot"][0][0]))
    assert dot.width() >= QFontMetrics(dot.font()).horizontalAdvance(dot.text())
    document.end_drag()
    settled(paints(window))
    for label in readouts.findChildren(QLabel):  # every text its own size again
        assert (label.minimumSize(), label.maximumSize().width()) == (QSize(0, 0), 16777215)


def test_a_zoom_during_a_drag_leaves_no_text_of_the_table_cut(qtbot, open_2d_panel, present,
                                                              paints):
    """A pinned text keeps its size; a new presentation zoom mid-drag (Ctrl+= with the mouse
    still held) gives every text a larger font, so the table lets its pins go and measures
    again before it pins."""
    panel = open_2d_panel(PlaygroundPanel, (1100, 800))
    readouts, document = panel.readouts, panel.document
    settled(paints(panel))
    document.begin_drag()
    for k in ([2.5, 1.5], [2.0, 1.0]):
        document.set_vector("k", 0, k)
        document.flush()
        settled(paints(panel))
    present(panel, Look().scaled(2.0))
    settled(paints(panel))
    document.set_vector("k", 0, [1.5, 2.0])
    document.flush()
    settled(paints(panel))
    shown = [label for row in readouts.cells for label in row.values() if not label.isHidden()]
    assert shown
    for label in shown:
        assert label.width() >= label.fontMetrics().horizontalAdvance(label.text()), \
            label.objectName()
    document.end_drag()


def test_a_drag_step_on_the_stage_sets_no_tooltip_it_already_has(qtbot, window, paints):
    """Qt sends a ToolTipChange through every event filter even for the same text; the
    playground's table and the status line set a dozen at each step."""
    document = window.document
    window.arrangement.open_scene(0, set_up=True)
    window.presentation.set_presenting(True)
    key = document.state.key
    document.begin_drag()
    drag_step(document, key, 0.5)  # Undo turns on and names the drag: its button's tooltip
    settled(paints(window))
    changes = Events(QEvent.Type.ToolTipChange)
    QApplication.instance().installEventFilter(changes)
    try:
        for step in (-1.0, 0.5, 0.5):
            drag_step(document, key, step)
            settled(paints(window))
        document.end_drag()
    finally:
        QApplication.instance().removeEventFilter(changes)
        window.presentation.set_presenting(False)
    assert document.state.world == "dialogue" and window.panels["playground"].isVisible()
    assert changes.count == 0


def test_a_new_tooltip_alone_repaints_no_cell(qtbot, match):
    """The reasons a flagged row's tooltip quotes change at most drag steps; a tooltip is
    read when shown, so announcing every cell of the row (and measuring its widths again)
    for it only cost a repaint."""
    model = match.model
    announced: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda first, _last, _roles=(): announced.append(
        (first.row(), first.column())))
    rows = model.rows
    row = next(iter(rows.flagged), 0)
    model.set_rows(replace(rows, tips={**rows.tips, row: "a new reason, 1.23"}))
    assert announced == []
    tip = model.index(row, COLUMNS.index("norm")).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "a new reason, 1.23"


def test_reasons_that_come_and_go_during_a_drag_keep_their_room_until_it_ends(qtbot, match):
    document = match.document
    holder = match.reasons.holder
    settled_height = holder.height()
    q = document.view.q[document.state.query]
    towards = 3 * q - document.state.vectors[1][UNSWAPPED_KEY]
    document.begin_drag()
    drag_step(document, UNSWAPPED_KEY, towards)  # long and towards q: a new reason
    qtbot.waitUntil(lambda: holder.height() == match.reasons.heightForWidth(holder.width()))
    grown = holder.height()
    drag_step(document, UNSWAPPED_KEY, -towards)  # back: the reason goes
    QApplication.processEvents()
    assert UNSWAPPED_KEY not in document.view.reasons.flagged
    assert holder.height() == grown, "the room stays: the panel is not laid out twice"
    document.end_drag()
    qtbot.waitUntil(lambda: holder.height() == match.reasons.heightForWidth(holder.width()))
    assert holder.height() == settled_height < grown
