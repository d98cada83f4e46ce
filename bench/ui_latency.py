"""Owns edit→frame timing through the real main window, its document and its event loop.

How "repainted" is detected: an event filter on every widget of every panel (not the whole
application: an app-wide filter cost about 1 ms a step itself) files each Paint event under
its panel. One frame is over when
(1) `document.changed` has been emitted and handled (its recompute count moved),
(2) every panel that repaints for this kind of edit has received a Paint event,
(3) any extra wait is over (scale mode: the worker's picture arrived and the heatmap's plot
    viewport painted it), and
(4) the event loop has drained: Qt's glib loop emits `aboutToBlock` at the start of every
    pass, even while posted events (a relayout, another paint) still wait, so at that signal
    a sentinel event is posted at the lowest priority, which Qt delivers only after every
    other posted event; the frame ends when it arrives with nothing painted since it was
    posted (else another is posted). Checked against QT_NO_GLIB=1, whose dispatcher emits
    `aboutToBlock` only when the loop is idle: over 60 drag steps in the teaching world the
    medians agreed within this shared machine's noise (6.3–7.8 ms without glib, 6.6–7.2 ms
    with the sentinel), while glib's bare `aboutToBlock` read 5.1–6.1 ms: a millisecond or
    more of each frame went uncounted.
Which panels repaint for an edit is calibrated first: a few unrecorded edits each run the
loop a little longer, and the panels that painted after every one of them are waited for.
A 1 ms heartbeat timer runs during each timed edit; its longest gap is the longest time the
UI thread was blocked (no input, no paint), reported as `max_ui_block_ms`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QAbstractEventDispatcher, QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from app.startup import build_window, make_application
from app.ui.main_window import MainWindow
from bench import Result, time_interleaved
from bench.reference_paint import reference_ms

WINDOW_SIZE = (1920, 1080)
LANGUAGE = "zh"
CALIBRATION_EDITS = 3
GRACE_MS = 100
FRAME_TIMEOUT_MS = 10_000
REFERENCE_STEPS = 20
"""Fewest steps of the reference workload timed after each row (it takes under a
millisecond a step)."""
SCALE_D = 256
DRAG_TICK = 0.1
DRAG_EDIT = "document.set_vector on the selected key, inside one begin_drag gesture"
SEED_EDIT = "document.set_options(scale_seed=…): new random Q, K, new picture"
DEFAULT_LAYOUT = "default layout"
ALL_DOCKS = "every dock shown"
SETUP = {
    "window": f"{WINDOW_SIZE[0]}x{WINDOW_SIZE[1]} offscreen, language {LANGUAGE}, the app's "
              f"default dock layout (one more drag run with every dock shown side by side)",
    "frame": "edit → document.changed handled → every panel that repaints for this edit got "
             "a Paint event (scale mode: the new picture painted) → event loop idle",
    "ui_block": "longest gap between ticks of a 1 ms timer during the timed edits",
    "drag_reference": f"a plain QPainter widget of {WINDOW_SIZE[0]}x{WINDOW_SIZE[1]} "
                      "repainting per step what a default-layout step changes: the changed "
                      "cells of a 5x5 grid (colour and number), a row of term bars, the "
                      "dragged key's bars and numbers and seven lines of text, timed after "
                      "each drag row",
    "peer": "the same teaching view in matplotlib (imshow + text, bars, equation) redrawn "
            "by blitting the changed artists on a QtAgg canvas; its reference is the app's "
            "drag step (default layout)",
}


def run_loop(ms: int) -> None:
    """Let the event loop run for `ms` milliseconds (settling, calibration grace)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def on_screen(panel: QWidget) -> bool:
    """Whether any part of the panel can be seen (a dock behind another tab stays "visible"
    in Qt 6, but nothing of it is exposed)."""
    return panel.isVisible() and any(
        not widget.visibleRegion().isEmpty() for widget in (panel, *panel.findChildren(QWidget)))


@dataclass
class _Wait:
    """What one edit must be followed by before its frame counts as shown."""

    expected: frozenset[str]
    ready: Callable[[], bool] = lambda: True


@dataclass(frozen=True)
class _Frame:
    """One timed edit: wall-clock ms to the finished frame, UI-thread CPU ms, timed out?"""

    ms: float
    cpu_ms: float
    timed_out: bool


SENTINEL = QEvent.Type(QEvent.registerEventType())
"""Posted at Qt.LowEventPriority: delivered once every other posted event has been."""


class Heartbeat:
    """A 1 ms timer's longest gap: the longest the UI thread was blocked while it ran."""

    def __init__(self, parent: QObject | None = None) -> None:
        self.max_gap_s = 0.0
        self._last: float | None = None
        self._timer = QTimer(parent)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(1)
        self._timer.timeout.connect(self._beat)

    def _beat(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.max_gap_s = max(self.max_gap_s, now - self._last)
        self._last = now

    def start(self, at: float | None = None) -> None:
        """Beat from now on; `at`, a `time.perf_counter()` stamp, counts as the first beat."""
        self._last = at
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._last = None


class FrameClock(QObject):
    """Times edits until every panel has repainted, and watches how long the UI thread blocks."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._panels = {panel: name for name, panel in window.panels.items()}
        self._owner: dict[QWidget, str | None] = {}
        self._watched: set[QWidget] = set()
        self.painted: set[str] = set()
        self._paints = 0
        self._posted_at: int | None = None
        """The paint count when the sentinel now on its way was posted (None: none is)."""
        self._loop: QEventLoop | None = None
        self._wait = _Wait(frozenset())
        self._recomputes = 0
        self._end = self._cpu_end = 0.0
        self._timed_out = False
        self.heartbeat = Heartbeat(self)

    def panel_of(self, widget: QWidget) -> str | None:
        """The name of the panel a widget belongs to (None for toolbars, docks' titles …)."""
        if widget not in self._owner:
            node: QWidget | None = widget
            while node is not None and node not in self._panels:
                node = node.parentWidget()
            self._owner[widget] = None if node is None else self._panels[node]
        return self._owner[widget]

    def watch(self) -> None:
        """Filter the Paint events of every widget of every built panel (new children too)."""
        for panel in self.window.panels.built().values():
            for widget in (panel, *panel.findChildren(QWidget)):
                if widget not in self._watched:
                    self._watched.add(widget)
                    widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and isinstance(watched, QWidget):
            name = self.panel_of(watched)
            if name is not None:
                self.painted.add(name)
                self._paints += 1
        return False

    def event(self, event: QEvent) -> bool:
        if event.type() == SENTINEL:
            drained = self._posted_at == self._paints
            self._posted_at = None
            if self._loop is not None and drained and self._done():
                self._stop()
            return True
        return super().event(event)

    def _done(self) -> bool:
        return (self.window.document.recompute_count != self._recomputes
                and self._wait.expected <= self.painted and self._wait.ready())

    def _on_idle(self) -> None:
        """The loop is starting a pass: if the frame looks done, make sure nothing posted is
        still waiting (the sentinel comes after all of it)."""
        if self._loop is None or self._posted_at is not None or not self._done():
            return
        self._posted_at = self._paints
        QApplication.postEvent(self, QEvent(SENTINEL), Qt.EventPriority.LowEventPriority.value)

    def _on_timeout(self) -> None:
        self._timed_out = True
        self._stop()

    def _stop(self) -> None:
        self._end, self._cpu_end = time.perf_counter(), time.thread_time()
        if self._loop is not None:
            self._loop.quit()

    def time_edit(self, edit: Callable[[], None], wait: _Wait) -> _Frame:
        """Time one edit to its finished frame; `painted` keeps the panels that painted."""
        dispatcher = QAbstractEventDispatcher.instance()
        self.painted.clear()
        self._wait = wait
        self._recomputes = self.window.document.recompute_count
        self._timed_out = False
        self._posted_at = None
        self._loop = QEventLoop()
        guard = QTimer(self)
        guard.setSingleShot(True)
        guard.timeout.connect(self._on_timeout)
        self.watch()
        dispatcher.aboutToBlock.connect(self._on_idle)
        guard.start(FRAME_TIMEOUT_MS)
        cpu_start = time.thread_time()
        start = time.perf_counter()
        self.heartbeat.start(at=start)
        edit()
        self._loop.exec()
        self.heartbeat.stop()
        guard.stop()
        guard.deleteLater()
        dispatcher.aboutToBlock.disconnect(self._on_idle)
        self._loop = None
        return _Frame((self._end - start) * 1000.0, (self._cpu_end - cpu_start) * 1000.0,
                      self._timed_out)

    def calibrate(self, edit: Callable[[], None], ready: Callable[[], bool]) -> frozenset[str]:
        """The panels that repainted after every one of a few unrecorded edits."""
        repainted: set[str] | None = None
        for _ in range(CALIBRATION_EDITS):
            self.time_edit(edit, _Wait(frozenset(), ready))
            run_loop(GRACE_MS)  # what still paints after the frame counts as repainting too
            repainted = set(self.painted) if repainted is None else repainted & self.painted
        return frozenset(repainted or ())

    def measure(self, name: str, size: str, edit: Callable[[], None], steps: int,
                ready: Callable[[], bool] = lambda: True, drag: bool = True,
                **extra: object) -> Result:
        """Calibrate, then time `steps` edits; the result carries the longest UI block too,
        and a drag's row the reference workload's time, measured right after it."""
        expected = self.calibrate(edit, ready)
        self.heartbeat.max_gap_s = 0.0
        frames = [self.time_edit(edit, _Wait(expected, ready)) for _ in range(steps)]
        shown = {n for n, panel in self.window.panels.items() if on_screen(panel)}
        if drag:
            reference = reference_ms(WINDOW_SIZE, max(REFERENCE_STEPS, steps // 4))
            median = statistics.median(frame.ms for frame in frames)
            extra.update(reference_ms=reference, ratio_to_reference=median / reference)
        return Result("ui", name, size, [frame.ms for frame in frames], {
            **extra,
            "max_ui_block_ms": self.heartbeat.max_gap_s * 1000.0,
            "ui_thread_cpu_median_ms": statistics.median(frame.cpu_ms for frame in frames),
            "timeouts": sum(frame.timed_out for frame in frames),
            "panels_repainted": sorted(expected),
            "panels_on_screen_not_repainting": sorted(shown - expected),
            "panels_hidden": sorted(set(self.window.panels) - shown),
        })


class _PictureShown(QObject):
    """Scale mode's extra wait: the worker delivered a picture and the plot has painted it."""

    def __init__(self, heatmap: QWidget) -> None:
        super().__init__(heatmap)
        self._viewport = heatmap.graphics.viewport()
        self._delivered = False
        self._painted = False
        heatmap.worker.finished.connect(self._on_finished)
        self._viewport.installEventFilter(self)

    def reset(self) -> None:
        self._delivered = self._painted = False

    def _on_finished(self, _result: object) -> None:
        self._delivered = True
        self._painted = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._viewport and event.type() == QEvent.Type.Paint and self._delivered:
            self._painted = True
        return False

    def __call__(self) -> bool:
        return self._delivered and self._painted


def open_window() -> MainWindow:
    """The real window in the app's default layout, as a first start shows it, painted once."""
    make_application()
    window = build_window(LANGUAGE)
    window.resize(*WINDOW_SIZE)
    window.show()
    run_loop(300)
    return window


def show_every_dock(window: MainWindow) -> None:
    """Take every dock out of its tab group, so every panel is on screen and can repaint."""
    for dock in window.docks.values():
        dock.setFloating(False)
        window.addDockWidget(window.dockWidgetArea(dock), dock)
        dock.show()
    run_loop(300)


def drag_steps(window: MainWindow) -> Callable[[], None]:
    """One synthetic drag of the selected key: each call moves it one 0.1 tick, the editor's
    drag step (never back to the previous value, so every step is a real, visible edit)."""
    document = window.document
    state = document.state
    key = state.key
    base = np.array(state.vectors[1][key], dtype=np.float64)
    pattern = np.resize(np.array([1.0, -1.0]), base.shape)
    steps = iter(range(1 << 30))

    def step() -> None:
        offset = DRAG_TICK * (next(steps) % 20 - 10)
        document.set_vector("k", key, base + offset * pattern)

    return step


def settle(window: MainWindow, ready: Callable[[], bool] = lambda: True) -> None:
    """Let a setup change finish (scale mode: its first picture) before anything is timed."""
    window.document.flush()
    deadline = time.perf_counter() + FRAME_TIMEOUT_MS / 1000.0
    while not ready():
        if time.perf_counter() > deadline:
            raise RuntimeError("scale mode showed no picture within the frame timeout")
        run_loop(20)
    run_loop(100)


def teaching_latency(window: MainWindow, steps: int, layout: str = DEFAULT_LAYOUT) -> Result:
    """Edit→frame for drag steps in the 4-D teaching world, in the window's current layout."""
    document = window.document
    document.set_world("teaching")
    if getattr(document.state.options, "scale_mode", False):
        document.set_options(scale_mode=False)
    clock = FrameClock(window)
    settle(window)
    T, d = document.state.vectors[1].shape
    document.begin_drag()
    result = clock.measure(f"drag step → every visible panel repainted ({layout})",
                           f"T={T}, d={d}", drag_steps(window), steps, edit_kind=DRAG_EDIT)
    document.end_drag()
    return result


STAGE_SIZE = (1024, 768)
STAGE_ZOOM = 1.5
STAGE_ROW = "stage"
"""Every stage row's name starts so: one per lesson scene, presented at 1024×768."""


def stage_latency(steps: int) -> list[Result]:
    """A drag step in each lesson scene on the projector's stage at 1024×768, as a class sees
    it (presentation mode, the default 150 % zoom), before the answer is revealed."""
    make_application()
    window = build_window(LANGUAGE)
    window.resize(*STAGE_SIZE)
    window.show()
    run_loop(300)
    results = []
    try:
        window.arrangement.open_scene(0, set_up=True)
        window.presentation.set_presenting(True)
        window.presentation.set_scale(STAGE_ZOOM)
        run = window.lesson
        for index, scene in enumerate(run.lesson.scenes):
            run.go(index)
            settle(window)
            document = window.document
            T, d = document.state.vectors[1].shape
            clock = FrameClock(window)
            document.begin_drag()
            results.append(clock.measure(
                f"{STAGE_ROW} scene {index + 1} ({scene.id}): drag step → every visible "
                f"panel repainted", f"{STAGE_SIZE[0]}x{STAGE_SIZE[1]}, T={T}, d={d}",
                drag_steps(window), steps, edit_kind=DRAG_EDIT,
                panels=list(run.scene.panels)))
            document.end_drag()
            clock.deleteLater()
    finally:
        window.presentation.set_presenting(False)
        close_window(window)
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # while Qt is whole
    return results


def panel_costs(window: MainWindow, repeat: int) -> list[Result]:
    """Where a frame goes, per panel: `refresh()` (reading the view, Python) and `grab()`
    (painting the whole panel into a pixmap), so an owner can see their share."""
    document = window.document
    T, d = document.state.vectors[1].shape
    results = []
    for name, panel in window.panels.items():
        samples = time_interleaved({"refresh": panel.refresh, "paint": panel.grab}, repeat)
        results += [Result("panel", f"{name}: refresh()", f"T={T}, d={d}", samples["refresh"]),
                    Result("panel", f"{name}: paint whole panel (grab)", f"T={T}, d={d}",
                           samples["paint"])]
    return results


def close_window(window: MainWindow) -> None:
    """Close as a user would. The stack is marked clean first: destroying an unclean
    QUndoStack emits cleanChanged into the window's title lambda after the window is gone."""
    window.document.mark_clean()
    window.close()
    window.deleteLater()


def has_scale_mode(window: MainWindow) -> bool:
    """Whether the heatmap offers scale mode (the bench measures whatever panels exist)."""
    heatmap = window.panels.get("heatmap")
    options = window.document.state.options
    return (heatmap is not None and hasattr(heatmap, "worker") and hasattr(heatmap, "graphics")
            and hasattr(options, "scale_T"))


def scale_latency(window: MainWindow, T: int, steps: int, d: int = SCALE_D) -> list[Result]:
    """Heatmap in scale mode at T×T: a new picture per edit (new random Q, K), and at the
    same time how long the UI thread ever blocked; then a drag step with scale mode on."""
    document = window.document
    heatmap = window.panels["heatmap"]
    shown = _PictureShown(heatmap)
    clock = FrameClock(window)
    document.set_world("teaching")
    document.set_options(scale_mode=True, scale_T=T, scale_d=d, scale_seed=0)
    settle(window, shown)
    seeds = iter(range(1, 1 << 30))

    def new_picture() -> None:
        shown.reset()
        document.set_options(scale_seed=next(seeds))

    size = f"T={T}, d={d}"
    results = [clock.measure("scale mode: edit → new picture shown", size, new_picture, steps,
                             ready=shown, drag=False, edit_kind=SEED_EDIT)]
    document.begin_drag()
    results.append(clock.measure("scale mode on: drag step → every visible panel repainted", size,
                                 drag_steps(window), steps, edit_kind=DRAG_EDIT))
    document.end_drag()
    document.set_options(scale_mode=False)
    settle(window)
    shown.deleteLater()
    return results
