"""Owns keeping the free dock layout readable: after every road into it (leaving the lesson,
a reset, the settings brought back, a world or language switch, the window resized), each
visible dock is checked against its panel's readable size. A short dock gets room from the
docks above and below it in its column while they stay readable; one that still cannot be
read joins a neighbour's tabs (the tab bar is the visible way back to both). A dock it put
in a tab goes back to its place on the next road where it fits again (a smaller world after
a large import), unless the user has moved the docks since. A tab bar's titles stay whole
(`fit_titles`). The arithmetic is pure
(`share_room`, `plan_column`), so every case is testable without a window; `DeskFit`
measures the window's docks and applies the plan. It never refreshes a panel and never grows
the window: it only moves room between the docks that are there."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import (
    QByteArray,
    QCoreApplication,
    QEvent,
    QObject,
    QRect,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar

from app.ui.fonts import SMALL, points
from app.ui.layout.tab_titles import fit_titles, least_width

if TYPE_CHECKING:
    from app.ui.panels.base import Panel

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
PASSES = 3
"""Fits in a row at most: a tab joined changes the geometry the next pass measures."""
HOME_LAYOUT = 11
"""Version tag of the layout kept from before the fit's first tab."""
FIT_SOON = QEvent.Type(QEvent.registerEventType())
"""Posted at low priority by `schedule`: it arrives after the events the road posted (the
frame it painted among them), and only then starts the fit's timer."""


@dataclass(frozen=True)
class Slot:
    """One place along a column (a dock, or a group of tabbed docks): its name, its extent
    along the column now and the extent its panel needs to be read, both with its chrome."""

    name: str
    size: int
    need: int


def share_room(slots: Sequence[Slot]) -> list[int] | None:
    """New extents for `slots` with the same total: each short slot grows to its need, the
    room taken from the others in proportion to what they have above their own need. None
    when the needs do not fit the total (then only tabs help)."""
    total = sum(slot.size for slot in slots)
    if sum(slot.need for slot in slots) > total:
        return None
    short = sum(max(0, slot.need - slot.size) for slot in slots)
    if not short:
        return [slot.size for slot in slots]
    spare = [max(0, slot.size - slot.need) for slot in slots]
    sizes = [max(slot.size, slot.need) if not extra else slot.size - short * extra // sum(spare)
             for slot, extra in zip(slots, spare, strict=True)]
    donor = max(range(len(slots)), key=lambda i: sizes[i] - slots[i].need)
    sizes[donor] += total - sum(sizes)  # the rounding's few pixels
    return sizes


@dataclass(frozen=True)
class ColumnPlan:
    """What a column becomes: `joins` (short, host) tabbings, in order, and the extents of
    the places left (by the name of each place's first dock), None if nothing needs to move."""

    joins: tuple[tuple[str, str], ...]
    sizes: dict[str, int] | None


def plan_column(slots: Sequence[Slot], tab_bar: int) -> ColumnPlan:
    """The least change that makes every place in the column readable: room shared first;
    while the needs do not fit, the place furthest below its need joins the tabs of the
    neighbour that frees the most room (the pair then needs the larger of the two, plus a
    `tab_bar`). A single place left gets the whole column, readable or not."""
    groups = [[slot] for slot in slots]
    joins: list[tuple[str, str]] = []
    while True:
        places = [_place(group, tab_bar) for group in groups]
        sizes = share_room(places)
        if sizes is not None or len(groups) == 1:
            if sizes is None or sizes == [place.size for place in places]:
                return ColumnPlan(tuple(joins), None)
            return ColumnPlan(tuple(joins), {place.name: size
                                             for place, size in zip(places, sizes, strict=True)})
        short = max(range(len(places)), key=lambda i: places[i].need - places[i].size)
        neighbours = [i for i in (short - 1, short + 1) if 0 <= i < len(groups)]
        host = max(neighbours, key=lambda i: (min(places[i].need, places[short].need), i))
        joins.append((groups[short][0].name, groups[host][0].name))
        groups[host] = groups[host] + groups[short]
        del groups[short]


def _place(group: list[Slot], tab_bar: int) -> Slot:
    """A place for docks tabbed together: the extent of them all, the need of the neediest,
    and a tab bar's height more once it holds two."""
    extra = tab_bar if len(group) > 1 and not group[0].name.endswith("+tabs") else 0
    return Slot(group[0].name, sum(slot.size for slot in group),
                max(slot.need for slot in group) + extra)


class DeskFit(QObject):
    """Fits the window's free layout so no visible panel is below its readable size."""

    def __init__(self, window: QMainWindow, docks: dict[str, QDockWidget],
                 active: Callable[[], bool], restored: Callable[[], None]) -> None:
        super().__init__(window)
        self.window = window
        self.docks = docks
        self.active = active
        """False in the lesson, presentation mode or on the stage: those lay themselves out."""
        self.restored = restored
        """Called after the layout from before the tabs is back: the open world's docks show
        (that layout may be from another world)."""
        self._home = QByteArray()
        """The layout just before the fit's first tab, while its tabs stand."""
        self._joins: list[tuple[QDockWidget, QDockWidget]] = []
        """The (dock, tab group's dock) pairs the fit tabbed since `_home`."""
        self._placed: dict[str, tuple[Qt.DockWidgetArea, bool]] = {}
        """Each dock's side and floating after the fit's last tab: a change is the user's."""
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self.fit)
        self._passes = 0
        self._posted = False
        self._sizes: dict[QDockWidget, list[QSize]] = {}
        """Each measured panel's readable size and sizes in this pass: they hang on its content,
        fonts and look, which a pass does not change, not on the dock's geometry."""
        self._bars: list[QTabBar] | None = None
        """Every tab bar in the window in this pass, until a tab makes another."""
        self._trying = False
        """While a layout is tried and taken back (`_come_back`): the window's resizes then
        are the fit's own, not a road (taken for one, they would start the fit again, without
        end)."""
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() in (
                QEvent.Type.Resize, QEvent.Type.LanguageChange, QEvent.Type.Show,
                QEvent.Type.ApplicationFontChange) and not self._trying:  # a zoom step too
            self.schedule()
        elif (isinstance(watched, QTabBar) and isinstance(event, QResizeEvent)
              and event.size().width() != event.oldSize().width() and self.active()):
            fit_titles(watched, points(SMALL))  # a separator dragged: no road, the titles fit
        return False

    def schedule(self) -> None:
        """Fit once the events now queued are handled (panels retranslated, docks laid out,
        the road's frame painted) and the event loop has turned: measuring every panel and
        moving docks is a turn of its own, so it never adds to the frame that showed the
        road (an import's first picture). Several roads at once fit once."""
        self._passes = 0
        self._timer.stop()
        self._soon()

    def _soon(self) -> None:
        """Start the fit's timer once the events posted until now (a frame among them) have
        been delivered: the timers and input due by then come first."""
        if not self._posted:
            self._posted = True
            QCoreApplication.postEvent(self, QEvent(FIT_SOON),
                                       Qt.EventPriority.LowEventPriority.value)

    def event(self, event: QEvent) -> bool:
        if event.type() != FIT_SOON:
            return super().event(event)
        self._posted = False
        self._timer.start()
        return True

    def fit(self) -> bool:
        """Check every visible dock now; True if anything moved (then once more later, on the
        geometry that move made, once the window has painted it)."""
        if not (self.active() and self.window.isVisible()):
            return False
        self._sizes, self._bars = {}, None
        if self._passes == 0 and self._come_back():
            self._passes = 1  # the docks measured on the layout given back, once laid out
            self._soon()
            return True
        moved = False
        for column in self._columns():
            moved |= self._fit_column(column)
        moved |= self._fit_widths()
        for bar in self._tab_bars():
            if bar.isVisible():
                bar.installEventFilter(self)
                fit_titles(bar, points(SMALL))
        if moved and self._passes < PASSES:
            self._passes += 1
            self._soon()
        return moved

    def tabbed(self) -> list[str]:
        """The docks the fit has put in a tab, by name, while they are still there."""
        names = {dock: name for name, dock in self.docks.items()}
        return [names[lone] for lone, host in self._joins
                if host in self.window.tabifiedDockWidgets(lone)]

    # ---- measuring ------------------------------------------------------------------------

    def shown(self) -> list[QDockWidget]:
        """The docks that can be seen: docked, visible and not a tab behind another."""
        frame = self.window.rect()
        return [dock for dock in self.docks.values()
                if dock.isVisible() and not dock.isFloating()
                and frame.contains(dock.geometry().center())
                and callable(getattr(dock.widget(), "readable_size", None))]

    def need(self, dock: QDockWidget) -> QSize:
        """The dock's readable size: its panel's, and the dock's own title bar and frame."""
        return self._readable(dock)[0] + self._chrome(dock)

    def _readable(self, dock: QDockWidget) -> list[QSize]:
        """The readable size of `dock`'s panel, then that of each of its arrangements,
        measured once a pass (laying out its text is most of a pass's time)."""
        if dock not in self._sizes:
            panel = cast("Panel", dock.widget())  # `readable` docks hold panels
            self._sizes[dock] = [panel.readable_size(), *panel.readable_sizes()]
        return self._sizes[dock]

    def need_height(self, dock: QDockWidget) -> int:
        """The least height at which `dock` reads at its present width: a panel with two
        arrangements (readouts below or beside) is held to the one that width allows."""
        chrome = self._chrome(dock)
        heights = [need.height() + chrome.height() for need in self._readable(dock)[1:]
                   if need.width() + chrome.width() <= dock.width()]
        return min(heights, default=self.need(dock).height())

    def need_width(self, dock: QDockWidget) -> int:
        """The least width at which `dock` reads at its present height (see `need_height`)."""
        chrome = self._chrome(dock)
        widths = [need.width() + chrome.width() for need in self._readable(dock)[1:]
                  if need.height() + chrome.height() <= dock.height()]
        return min(widths, default=self.need(dock).width())

    @staticmethod
    def _chrome(dock: QDockWidget) -> QSize:
        """The dock's own title bar and frame around its panel."""
        chrome = dock.size() - dock.widget().size()
        return QSize(max(0, chrome.width()), max(0, chrome.height()))

    def _columns(self) -> list[list[QDockWidget]]:
        """The shown docks of each side, one column per run of docks over each other, each
        from the top down."""
        columns: list[list[QDockWidget]] = []
        for area in (LEFT, RIGHT):
            docks = sorted((d for d in self.shown() if self.window.dockWidgetArea(d) == area),
                           key=lambda d: (d.x(), d.y()))
            for dock in docks:
                column = next((c for c in columns if _over(c[0].geometry(), dock.geometry())),
                              None)
                if column is None:
                    columns.append([dock])
                else:
                    column.append(dock)
        return [sorted(column, key=lambda d: d.y()) for column in columns]

    def _bar_under(self, dock: QDockWidget) -> QTabBar | None:
        """The tab bar under `dock`, if it is one of a group of tabs."""
        below = dock.geometry().bottom()
        for bar in self._tab_bars():
            box = bar.geometry()
            if (bar.isVisible() and abs(box.top() - below) <= 8
                    and _over(box, dock.geometry())):
                return bar
        return None

    def _tab_bars(self, own: bool = True) -> list[QTabBar]:
        """The window's own tab bars (its dock groups'), or every tab bar in it with `own`
        False, found once a pass: searching every widget of the window is slow."""
        if self._bars is None:
            self._bars = self.window.findChildren(QTabBar)
        return [bar for bar in self._bars if bar.parent() is self.window or not own]

    def _tab_bar(self, dock: QDockWidget) -> int:
        """The height of the tab bar under `dock` (0 if it has none)."""
        bar = self._bar_under(dock)
        return 0 if bar is None else bar.height()

    def _width_need(self, dock: QDockWidget) -> int:
        """The width `dock` needs with its tab bar's titles whole at the least size."""
        bar = self._bar_under(dock)
        tabs = 0 if bar is None else least_width(bar, points(SMALL))
        return max(self.need_width(dock), tabs)

    def _tab_bar_height(self) -> int:
        """A tab bar's height in this window's style and font."""
        bars = [bar.height() for bar in self._tab_bars(own=False) if bar.isVisible()]
        if bars:
            return max(bars)
        probe = QTabBar()  # none shown yet: one made to be measured, then let go
        probe.setFont(self.window.font())
        probe.addTab("Tab")
        height = probe.sizeHint().height()
        probe.deleteLater()
        return height

    # ---- moving ---------------------------------------------------------------------------

    def _come_back(self) -> bool:
        """Give back the layout from before the fit's tabs, for the fit to start again from
        it: what fits now stays in its place. Only while the fit's tabs stand as it made
        them; once the user has moved the docks, their layout is theirs. A layout that
        would grow the window (its docks' least sizes at a larger zoom) is not given back
        yet."""
        if self._home.isEmpty():
            return False
        if any(host not in self.window.tabifiedDockWidgets(lone) for lone, host in self._joins) \
                or self._placed != self._placings():
            self._home = QByteArray()
            return False
        size, now = self.window.size(), self.window.saveState(HOME_LAYOUT)
        self._trying = True
        try:
            if not self.window.restoreState(self._home, HOME_LAYOUT):
                self._home = QByteArray()
                return False
            self.restored()
            if self.window.size() != size:
                self.window.restoreState(now, HOME_LAYOUT)
                self.restored()
                self.window.resize(size)
                return False
        finally:
            self._trying = False
        self._home, self._joins = QByteArray(), []
        return True

    def _placings(self) -> dict[str, tuple[Qt.DockWidgetArea, bool]]:
        return {name: (self.window.dockWidgetArea(dock), dock.isFloating())
                for name, dock in self.docks.items()}

    def _join(self, lone: QDockWidget, group: QDockWidget) -> None:
        """Tab `lone` onto `group`, the layout before the first such tab kept."""
        if self._home.isEmpty():
            self._home = self.window.saveState(HOME_LAYOUT)
            self._joins = []
        self.window.tabifyDockWidget(group, lone)
        self._bars = None  # the tab may have made a tab bar
        self._joins.append((lone, group))
        self._placed = self._placings()

    def _fit_column(self, column: list[QDockWidget]) -> bool:
        slots = []
        for dock in column:
            bar = self._tab_bar(dock)
            name = dock.objectName() + ("+tabs" if bar else "")
            slots.append(Slot(name, dock.height() + bar, self.need_height(dock) + bar))
        plan = plan_column(slots, self._tab_bar_height())
        by_name = {slot.name: dock for slot, dock in zip(slots, column, strict=True)}
        for short, host in plan.joins:  # a tab group is never split: the lone dock joins it
            lone, group = ((by_name[host], by_name[short]) if short.endswith("+tabs")
                           and not host.endswith("+tabs") else (by_name[short], by_name[host]))
            self._join(lone, group)
            order = [slot.name for slot in slots]  # the upper dock stays in front: the
            by_name[min(short, host, key=order.index)].raise_()  # matrix over its terms
        if plan.joins:  # the tabs' geometry is the next pass's to measure
            return True
        if plan.sizes is None:
            return False
        # a tabbed dock's size in resizeDocks is its tab group's, the tab bar's included
        self.window.resizeDocks([by_name[name] for name in plan.sizes], list(plan.sizes.values()),
                                Qt.Orientation.Vertical)
        return True

    def _fit_widths(self) -> bool:
        """The two sides share the window's width so each column's widest need fits, when
        both can, with its tab titles whole at the least size if that fits too (else they
        scroll); otherwise the widths stay as they are."""
        sides: list[tuple[QDockWidget, Slot, Slot]] = []
        for area in (LEFT, RIGHT):
            docks = [d for d in self.shown() if self.window.dockWidgetArea(d) == area]
            if docks:
                first = min(docks, key=lambda d: (d.x(), d.y()))
                name, width = first.objectName(), first.width()
                sides.append((first, Slot(name, width, max(self.need_width(d) for d in docks)),
                              Slot(name, width, max(self._width_need(d) for d in docks))))
        if len(sides) < 2:
            return False
        sizes = share_room([titled for _, _, titled in sides]) or share_room(
            [panels for _, panels, _ in sides])
        if sizes is None:
            return self._one_column([(dock, panels) for dock, panels, _ in sides])
        if sizes == [slot.size for _, slot, _ in sides]:
            return False
        self.window.resizeDocks([dock for dock, _, _ in sides], sizes, Qt.Orientation.Horizontal)
        return True

    def _one_column(self, sides: list[tuple[QDockWidget, Slot]]) -> bool:
        """Two sides whose widest panels cannot both be read side by side (a large zoom):
        the side that needs less joins the other's tabs, so each panel is shown on its own
        at the window's width, the wider side's panel in front."""
        (host, _), (lone, _) = sorted(sides, key=lambda side: side[1].need, reverse=True)
        area = self.window.dockWidgetArea(lone)
        movers = [dock for dock in self.docks.values() if not dock.isHidden()
                  and not dock.isFloating() and self.window.dockWidgetArea(dock) == area]
        for dock in movers:
            self._join(dock, host)
        host.raise_()
        return bool(movers)


def _over(a: QRect, b: QRect) -> bool:
    """Whether two rectangles share some of their horizontal extent."""
    return a.left() < b.right() and b.left() < a.right()
