"""Owns the class poll as the teacher drives it: P starts it and, once asked, stops it (in the
View menu and on the toolbar too), View → Poll network chooses the interface the phones reach
it on, and File → Export writes the class's counts as CSV. The poll itself is
`app.poll.classpoll`; it keeps its port and room code when started again, so the phones that
joined come back by themselves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox, QWidget

from app.i18n import tr
from app.poll.classpoll import ClassPoll, PollError
from app.poll.lesson import LessonPoll
from app.ui.actions.common import warn
from app.ui.actions.exports import ExportActions
from app.ui.actions.poll_stop import StopQuestion
from app.ui.actions.spec import ActionSpec

if TYPE_CHECKING:
    from app.poll.network import Interface

EVERY_INTERFACE = "0.0.0.0"
NETWORK_KEYS = "Ctrl+Alt+Shift+"
"""View → Poll network: …+0 the classroom's, …+1 to …+8 each address, …+9 all of them."""
NETWORKS_LISTED = 8


class PollActions(QObject):
    """Start, stop and export the poll; say so when it cannot start or stops by itself."""

    unchanged = Signal()
    """P was pressed but the poll goes on as it was (asked, or kept): the action's check mark
    shows it again."""

    def __init__(self, window: QMainWindow, poll: ClassPoll, lesson: LessonPoll,
                 exports: ExportActions,
                 interfaces: list[Interface] | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.poll = poll
        self.lesson = lesson
        self.exports = exports
        """Where the counts' CSV is written, as every other export (its dialog, its message)."""
        self.interfaces = interfaces
        """The addresses View → Poll network lists; None: this machine's, read (with Qt's
        network module) when its entries are made."""
        self.host: str | None = None
        """The address chosen in View → Poll network; None: the LAN's (the default route)."""
        self.message: QMessageBox | None = None
        self.question: StopQuestion | None = None
        """Open while the teacher is asked whether to stop the poll."""
        poll.running_changed.connect(self._on_running_changed)
        poll.failed.connect(lambda why: self._warn(tr("poll.action.stopped"), why))
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A new language: the phones get the question in it (their answers stay)."""
        if watched is self.window and event.type() == QEvent.Type.LanguageChange:
            self.lesson.refresh()
        return False

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec("poll", "poll.action.poll", self.set_running, ("P",), menu="view",
                       section=3, toolbar=0, checkable=True, checked=lambda: self.poll.running),
            ActionSpec("poll_csv", "poll.action.export", self.export_dialog, ("Ctrl+Alt+Shift+P",),
                       menu="file.export", section=2),
        ]

    def network_specs(self) -> list[ActionSpec]:
        """View → Poll network: the classroom's network, each address of this machine, every
        one of them."""
        if self.interfaces is None:
            from app.poll.network import ipv4_interfaces

            self.interfaces = ipv4_interfaces()
        specs = [
            ActionSpec("poll_on_lan", "poll.action.lan", lambda _=False: self.choose(None),
                       (f"{NETWORK_KEYS}0",), menu="view.poll_network", checkable=True,
                       group="poll_network", checked=lambda: self.host is None),
        ]
        for number, interface in enumerate(self.interfaces[:NETWORKS_LISTED]):
            text = f"{interface.name}: {interface.address}"
            # (type: ignore[misc]: mypy cannot infer a lambda whose default binds the loop's value)
            specs.append(ActionSpec(
                f"poll_on_{number}", lambda t=text: t,  # type: ignore[misc]
                lambda _=False, a=interface.address: self.choose(a),
                (f"{NETWORK_KEYS}{number + 1}",), menu="view.poll_network", checkable=True,
                group="poll_network", checked=lambda a=interface.address: self.host == a))  # type: ignore[misc]
        specs.append(ActionSpec(
            "poll_on_every", "poll.action.every", lambda _=False: self.choose(EVERY_INTERFACE),
            (f"{NETWORK_KEYS}9",), menu="view.poll_network", checkable=True,
            group="poll_network", checked=lambda: self.host == EVERY_INTERFACE))
        return specs

    def choose(self, host: str | None) -> None:
        """Listen on `host` from now on; a running poll moves there, with its room code and
        port (if free there): phones that reach the new address come back by themselves,
        others scan the new code."""
        self.host = host
        if self.poll.running:
            self.poll.stop()
            self.set_running(True)

    def set_running(self, on: bool) -> None:
        """P: start the poll, or ask before stopping it (a slip would end it for every phone)."""
        if not on:
            self.ask_to_stop()
            return
        try:
            address = self.poll.start(self.host)
        except PollError as error:
            self._warn(tr("poll.action.failed"), str(error))
            return
        self.lesson.refresh()
        self.window.statusBar().showMessage(
            tr("poll.action.started", address=address, room=self.poll.room), 8000)

    def ask_to_stop(self) -> None:
        """Ask, on the teacher's window that has the keyboard, whether to stop the poll."""
        if not self.poll.running or self.question is not None:
            self.unchanged.emit()
            return
        # every action's keys, as the window holds them (MainWindow.actions is the registry)
        self.question = question = StopQuestion(self._teachers_window(), self.poll.connected,
                                                QWidget.actions(self.window))
        question.finished.connect(self._on_answered)
        question.open()
        self.unchanged.emit()  # the poll runs until the teacher says otherwise

    def _teachers_window(self) -> QWidget:
        """The window of ours that has the keyboard (the console, on two screens), else ours."""
        active = QApplication.activeWindow()
        widget = active
        while widget is not None and widget is not self.window:
            widget = widget.parentWidget()
        return active if widget is not None and active is not None else self.window

    def _on_answered(self, _result: int) -> None:
        question, self.question = self.question, None
        if question is None:
            return
        question.deleteLater()
        if question.stops:
            self.poll.stop()

    def _on_running_changed(self, running: bool) -> None:
        """A poll that stopped by itself needs no question any more."""
        if not running and self.question is not None:
            self.question.reject()

    def start_at(self, host: str, port: int) -> str:
        """`--poll HOST:PORT`: listen there now; returns the address phones open."""
        self.host = host
        address = self.poll.start(host, port)
        self.lesson.refresh()
        return address

    def export_dialog(self) -> None:
        path = self.exports.ask_csv_path(tr("poll.action.export_dialog"), "class-poll.csv")
        if path is not None:
            self.export(path)

    def export(self, path: Path) -> bool:
        return self.exports.export_csv(path, self.poll.csv_text())

    def _warn(self, headline: str, detail: str) -> None:
        self.message = warn(self.window, headline, detail)
