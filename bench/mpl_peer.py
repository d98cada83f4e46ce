"""Owns the matplotlib peer: the teaching view as a skilled teacher would write it with
matplotlib, timed per drag step beside the app's.

A heatmap with its numbers (imshow + one text per cell), the selected pair's terms as bars
and the equation as text, in a QtAgg canvas of the default layout's size. Each step is drawn
by blitting: every changing artist is animated, each axes' background is saved once
(`copy_from_bbox`), and a step restores those backgrounds, draws only the changing artists
(`draw_artist`) and blits each axes (`blit`, a synchronous repaint of its rectangle). The
peer's median step divided by the app's drag step says how much faster the app is.

matplotlib is the `bench` extra (`python3 dev.py bench` installs it), never the app's
dependency: it is imported here only when the peer runs, and the row is skipped without it.
"""

from __future__ import annotations

import time

from bench import Result
from bench.teaching_drag import QUERY, D, Frame, T, TeachingDrag

NAME = "matplotlib peer: drag step, blitting the changed artists (QtAgg)"
SIZE = f"T={T}, d={D}"
SCORE_RANGE = 4.0
DARK = 0.6
"""Cells beyond this share of the colour range are dark enough for white numbers."""
WARMUP = 3


class _PeerView:
    """The figure, its animated artists and the saved backgrounds."""

    def __init__(self, size: tuple[int, int]) -> None:
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure

        dpi = 100
        self.figure = Figure(figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.resize(*size)
        heat, bars = self.figure.subplots(1, 2)
        equation = self.figure.add_axes((0.05, 0.02, 0.9, 0.06))
        equation.set_axis_off()
        self.drag = TeachingDrag()
        frame = self.drag.frame()
        self.image = heat.imshow(frame.scores, cmap="RdBu_r", vmin=-SCORE_RANGE,
                                 vmax=SCORE_RANGE, animated=True)
        self.numbers = [[heat.text(col, row, "", ha="center", va="center", fontsize=16,
                                   animated=True) for col in range(T)] for row in range(T)]
        self.bars = bars.bar(range(D), frame.terms, animated=True)
        bars.set_ylim(-SCORE_RANGE, SCORE_RANGE)
        bars.axhline(0.0, color="black", linewidth=0.8)
        bars.set_xticks(range(D), [f"q{QUERY}[{i}]·k[{i}]" for i in range(D)])
        self.equation = equation.text(0.0, 0.5, "", fontsize=18, va="center", animated=True)
        self.axes = (heat, bars, equation)
        self.canvas.show()
        self.canvas.draw()
        self.backgrounds = [self.canvas.copy_from_bbox(ax.bbox) for ax in self.axes]
        self.show(frame)

    def show(self, frame: Frame) -> None:
        """Set what changed, then restore, redraw the changing artists and blit each axes."""
        self.image.set_data(frame.scores)
        for row, col in frame.changed:
            value = float(frame.scores[row, col])
            number = self.numbers[row][col]
            number.set_text(f"{value:.2f}")
            number.set_color("white" if abs(value) > DARK * SCORE_RANGE else "black")
        for bar, term in zip(self.bars, frame.terms, strict=True):
            bar.set_height(float(term))
        self.equation.set_text(frame.equation)
        heat, bars, equation = self.axes
        for background in self.backgrounds:
            self.canvas.restore_region(background)
        heat.draw_artist(self.image)
        for row in self.numbers:
            for number in row:
                heat.draw_artist(number)
        for bar in self.bars:
            bars.draw_artist(bar)
        equation.draw_artist(self.equation)
        for ax in self.axes:
            self.canvas.blit(ax.bbox)

    def close(self) -> None:
        self.canvas.close()
        self.canvas.deleteLater()


def peer_drag(size: tuple[int, int], steps: int) -> Result:
    """The peer's drag steps (ms each, after unrecorded warm-up steps); skipped without
    matplotlib."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return Result("peer", NAME, SIZE, [], {
            "skipped": "matplotlib is not installed (python3 dev.py bench installs it)"})
    from PySide6.QtTest import QTest

    view = _PeerView(size)
    QTest.qWaitForWindowExposed(view.canvas)  # before it is exposed, a blit paints nothing
    samples = []
    try:
        for index in range(WARMUP + steps):
            start = time.perf_counter()
            view.show(view.drag.step())
            if index >= WARMUP:
                samples.append((time.perf_counter() - start) * 1000.0)
    finally:
        view.close()
    return Result("peer", NAME, SIZE, samples, {"edit_kind": "the same key dragged by 0.1"})


def against(peer: Result, app_drag: Result) -> Result:
    """The peer's row with the app's drag step as its reference (how many times slower)."""
    if peer.samples_ms:
        peer.extra.update(reference_ms=app_drag.median_ms,
                          ratio_to_reference=peer.median_ms / app_drag.median_ms)
    return peer
