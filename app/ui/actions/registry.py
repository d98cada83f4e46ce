"""Owns the window's actions made from their declarations (`ActionSpec`): one QAction each,
window-wide, named `action_<id>`; their texts follow the language by themselves and their
check marks, enabled and visible states follow the window's state (`update`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from PySide6.QtCore import QEvent, QObject, Qt, Signal, SignalInstance
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QWidget

from app.i18n import tr
from app.ui.actions.spec import ActionSpec


def _sequences(spec: ActionSpec) -> list[QKeySequence]:
    found: list[QKeySequence] = []
    for key in spec.keys:
        sequences = (QKeySequence.keyBindings(key) if isinstance(key, QKeySequence.StandardKey)
                     else [QKeySequence(key)])
        found.extend(s for s in sequences if s not in found)
    return found


class Actions(QObject):
    """Every action of one window by id, in the order they were declared (read like a
    mapping: `actions["open"]`, `"open" in actions`, `actions.values()`)."""

    updated = Signal()
    """The actions' states were read again (a menu of hidden entries disables itself)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._specs: dict[str, ActionSpec] = {}
        self._actions: dict[str, QAction] = {}
        self._groups: dict[str, QActionGroup] = {}
        window.installEventFilter(self)  # the window hears of a new language first

    def add(self, specs: Iterable[ActionSpec]) -> None:
        for spec in specs:
            if spec.id in self._specs:
                raise ValueError(f"action {spec.id!r} is declared twice")
            self._specs[spec.id] = spec
            self._actions[spec.id] = self._make(spec)
            self._refresh(spec)

    def _make(self, spec: ActionSpec) -> QAction:
        action = spec.existing or QAction(self._window)
        action.setObjectName(f"action_{spec.id}")
        if spec.keys:
            action.setShortcuts(_sequences(spec))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if isinstance(spec.title, str):
            action.setText(tr(spec.title))
        if spec.existing is None:
            action.setCheckable(spec.checkable)
            if spec.triggered is not None:
                action.triggered.connect(spec.triggered)
            self._window.addAction(action)  # its keys work wherever the focus is
        if spec.group is not None:
            group = self._groups.get(spec.group)
            if group is None:
                group = self._groups[spec.group] = QActionGroup(self)
            group.addAction(action)
        return action

    def specs(self, menu: str | None = None) -> list[ActionSpec]:
        """The declarations, all or those of one menu, in declaration order."""
        return [s for s in self._specs.values() if menu is None or s.menu == menu]

    def spec(self, name: str) -> ActionSpec:
        return self._specs[name]

    def update(self) -> None:
        """Read every action's checked, enabled and visible state again."""
        for spec in self._specs.values():
            self._refresh(spec)
        self.updated.emit()

    def update_on(self, *signals: SignalInstance,
                  unless: Callable[[], bool] | None = None) -> None:
        """Update whenever one of these says the window's state may have changed (and
        `unless` does not say to wait: a drag's steps, read again when the gesture ends)."""
        for signal in signals:
            signal.connect(self.update if unless is None else _Unless(self, unless).heard)

    def update_on_new_value(self, *signals: SignalInstance) -> None:
        """Update when one of these signals carries a value other than its last one (an undo
        stack says "can undo" again at every step of a drag; reading 168 states each time
        was a tenth of the step)."""
        for signal in signals:
            signal.connect(_NewValue(self).heard)

    def _refresh(self, spec: ActionSpec) -> None:
        action = self._actions[spec.id]
        if spec.checked is not None:
            checked = bool(spec.checked())
            if action.isChecked() != checked:
                action.blockSignals(True)  # a mirror of the state, not a new request
                action.setChecked(checked)
                action.blockSignals(False)
        for value, getter, setter in ((spec.enabled, action.isEnabled, action.setEnabled),
                                      (spec.visible, action.isVisible, action.setVisible)):
            if value is not None and getter() != bool(value()):
                setter(bool(value()))
        if callable(spec.title):
            text = spec.title()
            if action.text() != text:
                action.setText(text)
        if spec.tip is not None:
            tip = spec.tip()
            if action.toolTip() != tip:
                action.setToolTip(tip)

    def retranslate(self) -> None:
        for spec in self._specs.values():
            if isinstance(spec.title, str):
                self._actions[spec.id].setText(tr(spec.title))
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif watched is self._window and event.type() == QEvent.Type.WindowStateChange:
            self.update()  # full screen, which the window manager may change too
        return False

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """(action, keys) for every visible action that has keys, as Help lists them."""
        rows = []
        for action in self._actions.values():
            sequence = " / ".join(key.toString(QKeySequence.SequenceFormat.NativeText)
                                  for key in action.shortcuts())
            if sequence and action.isVisible():
                rows.append((action.text().replace("&", ""), sequence))
        return rows

    def __getitem__(self, name: str) -> QAction:
        return self._actions[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._actions)

    def __len__(self) -> int:
        return len(self._actions)

    def __contains__(self, name: object) -> bool:
        return name in self._actions

    def values(self) -> list[QAction]:
        return list(self._actions.values())

    def items(self) -> list[tuple[str, QAction]]:
        return list(self._actions.items())


class _Unless(QObject):
    """Passes a signal on to its actions' update unless `waiting` says not now (a child of
    the actions: gone, and disconnected, with them)."""

    def __init__(self, actions: Actions, waiting: Callable[[], bool]) -> None:
        super().__init__(actions)
        self._actions = actions
        self._waiting = waiting

    def heard(self, *_args: object) -> None:
        if not self._waiting():
            self._actions.update()


class _NewValue(QObject):
    """Passes a signal's value on to its actions' update only when it differs from the last
    (a child of the actions: gone, and disconnected, with them)."""

    def __init__(self, actions: Actions) -> None:
        super().__init__(actions)
        self._actions = actions
        self._last: object = object()

    def heard(self, value: object) -> None:
        if value != self._last:
            self._last = value
            self._actions.update()
