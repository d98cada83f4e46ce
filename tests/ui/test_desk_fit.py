"""The desk fit's arithmetic: room shared in a column of docks, and tabs where it is not
enough (the windows it is applied to: test_desk_screens.py)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QMainWindow

from app.ui.layout.desk_fit import DeskFit, Slot, plan_column, share_room


def test_a_short_dock_takes_room_from_its_neighbours_in_proportion_to_their_spare() -> None:
    sizes = share_room([Slot("a", 200, 300), Slot("b", 400, 200), Slot("c", 300, 200)])
    assert sizes == [300, 333, 267]
    assert sum(sizes) == 900


def test_room_already_readable_stays_as_it_is() -> None:
    assert share_room([Slot("a", 300, 100), Slot("b", 300, 100)]) == [300, 300]


def test_needs_past_the_column_cannot_be_shared() -> None:
    assert share_room([Slot("a", 300, 350), Slot("b", 300, 300)]) is None


def test_a_dock_that_cannot_be_readable_joins_its_neighbours_tabs() -> None:
    plan = plan_column([Slot("heatmap", 225, 290), Slot("expansion+tabs", 350, 360)],
                       tab_bar=30)
    assert plan.joins == (("heatmap", "expansion+tabs"),)  # the pair needs 360, not 650
    assert plan.sizes is None  # one place: it has the whole column


def test_a_join_frees_the_most_room_and_the_rest_is_shared() -> None:
    plan = plan_column([Slot("a", 200, 250), Slot("b", 200, 260), Slot("c", 200, 220)],
                       tab_bar=20)
    assert plan.joins == (("b", "a"),)  # beside a (250) it saves more than beside c (220)
    assert plan.sizes == {"a": 380, "c": 220}


def test_nothing_moves_when_every_dock_is_readable() -> None:
    assert plan_column([Slot("a", 300, 200), Slot("b", 300, 200)], 30).sizes is None


def test_the_fit_waits_until_the_frame_the_road_posted_is_painted(qtbot) -> None:
    """An import's landing posts its frame, then schedules the fit: measuring every panel
    and moving docks is a turn of its own, after that frame and after the timers that came
    due meanwhile (the window's input among them), never part of the frame's turn."""
    order: list[str] = []
    frame_end = QEvent.Type(QEvent.registerEventType())

    class Frame(QObject):
        def event(self, event: QEvent) -> bool:
            if event.type() == frame_end:
                order.append("frame")
                return True
            return super().event(event)

    class Counted(DeskFit):
        def fit(self) -> bool:
            order.append("fit")
            return super().fit()

    window = QMainWindow()
    qtbot.addWidget(window)
    desk = Counted(window, {}, lambda: True, lambda: None)
    frame = Frame(window)
    QCoreApplication.postEvent(frame, QEvent(frame_end), Qt.EventPriority.LowEventPriority.value)
    desk.schedule()
    desk.schedule()  # several roads at once fit once
    tick = QTimer(window, singleShot=True, interval=0)
    tick.timeout.connect(lambda: order.append("tick"))
    tick.start()
    qtbot.waitUntil(lambda: "fit" in order)
    QCoreApplication.processEvents()
    assert order == ["frame", "tick", "fit"]
