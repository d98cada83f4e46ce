"""Owns the lesson's window actions: lesson mode on and off, stepping through scenes with a
presentation clicker's keys (PageDown/PageUp, Space/Shift+Space, Home/End), and laying the
docks out for each scene (data first, the guide beside it). Leaving the lesson gives the free
dock layout back exactly as it was.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFontMetrics, QKeyEvent
from PySide6.QtWidgets import QApplication, QMainWindow

from app.i18n import tr
from app.state.lesson import LessonRun
from app.ui.actions.common import make_action

GUIDE = "guide"
GUIDE_TEXT_LINES = 2
"""Lines of the guide's own text (it scrolls) kept in view above a panel set under it."""
SCENE_ACTIONS = ("lesson", "scene_next", "scene_previous", "scene_first", "scene_last")


class SceneActions(QObject):
    """Window-wide stepping actions over one `LessonRun`, and each scene's dock layout."""

    left = Signal()
    """The lesson was left and the free layout is back (the window re-fits its world docks)."""

    def __init__(self, window: QMainWindow, run: LessonRun, layout_version: int) -> None:
        super().__init__(window)
        self.window = window
        self.run = run
        self.layout_version = layout_version
        self.active = False
        self.free_layout: QByteArray | None = None
        self._aside: str | None = None
        """The panel the current scene sets under the guide, if any."""
        self.actions: dict[str, QAction] = {}
        make_action(window, self.actions, "lesson", ["F7"], self.set_active, checkable=True)
        make_action(window, self.actions, "scene_next", ["PgDown"], run.next)
        make_action(window, self.actions, "scene_previous", ["PgUp"], run.previous)
        make_action(window, self.actions, "scene_first", ["Home"], run.first)
        make_action(window, self.actions, "scene_last", ["End"], run.last)
        for action in self.actions.values():
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        run.moved.connect(lambda _index: self.arrange())
        run.moved.connect(lambda _index: self._keep_keys_for_the_clicker())
        run.revealed.connect(lambda _index: self.arrange())
        self._sync()

    # ---- lesson mode --------------------------------------------------------------------

    def set_active(self, on: bool) -> None:
        """Enter the lesson (keep the free layout, lay out the current scene) or leave it."""
        on = bool(on)
        if on == self.active:
            self._sync()
            return
        if on:
            self.free_layout = self.window.saveState(self.layout_version)
            self.active = True
            self.arrange()
        else:
            self.active = False
            if self.free_layout is not None:
                self.window.restoreState(self.free_layout, self.layout_version)
            self.left.emit()
        self._sync()

    def open_scene(self, index: int, set_up: bool) -> None:
        """Start the lesson at scene `index` (0-based) with no undo step: the first start,
        `--scene N`, or a session that ended in the lesson."""
        self.run.start(index, set_up)
        self.set_active(True)
        self.arrange()

    def _sync(self) -> None:
        toggle = self.actions["lesson"]
        toggle.blockSignals(True)
        toggle.setChecked(self.active)
        toggle.blockSignals(False)
        for name in SCENE_ACTIONS[1:]:
            self.actions[name].setEnabled(self.active)

    # ---- the scene's layout -------------------------------------------------------------

    def shown_panels(self) -> list[str]:
        """The data panels the current scene shows now (answer panels once revealed)."""
        scene = self.run.scene
        names = list(scene.panels)
        if self.run.is_revealed():
            names += [name for name in scene.answer_panels if name not in names]
        return names

    def arrange(self) -> None:
        """Data panels left (the first large), the guide right, and the scene's `aside`
        panel, if it has one, under the guide; every other dock hidden. The shares come
        from the scene's layout (`data/lesson-scenes.json`)."""
        if not self.active:
            return
        window = self.window
        docks = window.docks  # type: ignore[attr-defined]
        layout = self.run.scene.layout
        names = self.shown_panels()
        aside = layout.aside if layout.aside in names and len(names) > 1 else None
        left_names = [name for name in names if name != aside]
        for name, dock in docks.items():
            dock.setFloating(False)
            if name not in names and name != GUIDE:
                dock.hide()
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        first, guide = docks[left_names[0]], docks[GUIDE]
        window.addDockWidget(left, first)
        window.addDockWidget(right, guide)
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
        window.panels[GUIDE].catch_up()  # type: ignore[attr-defined]

    def fit_aside(self, width: int | None = None) -> None:
        """Under the guide, the aside panel gets the height the guide's notes leave: the
        scene's title, what to look at and its question whole, and a few lines of the
        guide's own text (which scrolls)."""
        if not self.active or self._aside is None:
            return
        docks = self.window.docks  # type: ignore[attr-defined]
        guide, aside = docks[GUIDE], docks[self._aside]
        if aside.isHidden() or guide.isHidden():
            return
        panel = self.window.panels[GUIDE]  # type: ignore[attr-defined]
        stepper = panel.stepper
        line = QFontMetrics(panel.font()).lineSpacing()
        text = (max(panel.scroll.minimumSizeHint().height(), GUIDE_TEXT_LINES * line)
                if self.run.scene.blocks else 0)
        needed = (stepper.heightForWidth(width or stepper.width()) + text
                  + 2 * panel.layout().spacing()
                  + (guide.height() - panel.height() if guide.height() > panel.height()
                     else 2 * line))
        column = (guide.height() + aside.height() if guide.isVisible()
                  else self.window.height() - 4 * line)
        self.window.resizeDocks([guide, aside], [needed, max(1, column - needed)],
                                Qt.Orientation.Vertical)

    # ---- Space: what a clicker sends, unless the focused widget wants it ------------------

    def step_key(self, event: QKeyEvent) -> bool:
        """Space / Shift+Space that no focused widget used (a text field types it, a button
        presses, a list opens) steps the lesson. They are not shortcuts, which would take the
        key from those widgets first: the window sees only the keys nobody else accepted."""
        if not self.active or event.key() != Qt.Key.Key_Space:
            return False
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if modifiers == Qt.KeyboardModifier.NoModifier:
            self.run.next()
        elif modifiers == Qt.KeyboardModifier.ShiftModifier:
            self.run.previous()
        else:
            return False
        return True

    def _keep_keys_for_the_clicker(self) -> None:
        """A new scene hides the panel that had the focus and Qt hands it on, often to the
        toolbar's world list, where the next Space would open it. Focus stays only inside a
        panel the scene shows; otherwise the window takes it, so Space steps the lesson."""
        window = self.window
        focus = QApplication.focusWidget()
        docks = window.docks.values()  # type: ignore[attr-defined]
        if focus is not None and any(dock.isVisible() and dock.isAncestorOf(focus)
                                     for dock in docks):
            return
        window.setFocus(Qt.FocusReason.OtherFocusReason)

    def retranslate(self) -> None:
        texts = {"lesson": tr("lesson.action.lesson"), "scene_next": tr("lesson.action.next"),
                 "scene_previous": tr("lesson.action.previous"),
                 "scene_first": tr("lesson.action.first"), "scene_last": tr("lesson.action.last")}
        for name, text in texts.items():
            self.actions[name].setText(text)
