"""Owns "measure it here": additive against dot on this machine, off the UI thread, cancellable,
run several times and reported as the median and the spread of the runs.

The measurement runs on a `BackgroundRunner` (the one helper for work off the UI thread);
progress and the result come back queued to the UI thread, so the window never waits on it.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.measure import (
    CHUNK_BYTES,
    DTYPE,
    MAX_D_A,
    MAX_T,
    MIN_T,
    RUNS,
    Comparison,
    Measurement,
    Repeated,
    measure_repeated,
)
from app.state.background import BackgroundRunner
from app.ui.fonts import STRONG, emphasize
from app.ui.format import format_bytes, format_number, format_seconds, format_times
from app.ui.widgets.number_box import WholeBox

DEFAULT_T, DEFAULT_D_A = 1024, 128
"""A first run that takes about a second on a school laptop."""


def size_box(name: str, low: int, high: int) -> WholeBox:
    """A whole number in a range that says so: a number past the range is refused under the
    box, which keeps the previous value (a plain spin box dropped the keystroke that left
    the range: 4096 became 409, unsaid)."""
    box = WholeBox()
    box.setObjectName(name)
    box.setRange(low, high)
    return box


class MeasureBox(QWidget):
    """T and d_a inputs, Run / Cancel, a progress bar and the comparison table."""

    measured = Signal(object)
    """A `Repeated` measurement arrived (every run done)."""
    stopped = Signal()
    """The run was cancelled."""
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guide_measure")
        self._runner = BackgroundRunner(self)
        self._runner.progressed.connect(self._on_progressed)
        self._runner.finished.connect(self._on_measured)
        self._runner.dropped.connect(self._on_stopped)  # one run at a time: only a cancel drops
        self._runner.failed.connect(self._on_failed)
        self.result: Repeated | None = None
        self.runs_done = 0
        self.running = False
        self.title = QLabel()
        emphasize(self.title, STRONG, bold=True)  # the rest reads in the guide's page font
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.RichText)
        self.t_label, self.d_label = QLabel(), QLabel()
        self.t_box = size_box("guide_measure_t", MIN_T, MAX_T)
        self.t_box.setValue(DEFAULT_T)
        self.t_box.setSingleStep(256)
        self.d_box = size_box("guide_measure_d_a", 1, MAX_D_A)
        self.d_box.setValue(DEFAULT_D_A)
        self.d_box.setSingleStep(32)
        self.run_button = QPushButton()
        self.run_button.setObjectName("guide_measure_run")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("guide_measure_cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setObjectName("guide_measure_progress")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.status = QLabel()
        self.status.setObjectName("guide_measure_status")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        inputs = QGridLayout()
        inputs.addWidget(self.t_label, 0, 0)  # one per row: fits the guide's narrow column
        inputs.addWidget(self.t_box, 0, 1)
        inputs.addWidget(self.d_label, 1, 0)
        inputs.addWidget(self.d_box, 1, 1)
        inputs.setColumnStretch(2, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.intro)
        layout.addLayout(inputs)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)  # its own line: the runs count must fit at 250 %
        layout.addWidget(self.status)

    def start(self) -> None:
        """Run one measurement with the chosen sizes (ignored while one is running)."""
        if self.running:
            return
        self.running = True
        self.result = None
        self.cancel_button.setEnabled(True)
        if self.run_button.hasFocus():  # else Qt hands focus on, and the page scrolls to it
            self.cancel_button.setFocus()
        self.run_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self._show_runs_done(0)
        self.status.setText(html.escape(tr("guide.measure.running")))
        T, d_a = self.t_box.value(), self.d_box.value()
        self._runner.start(lambda should_stop, progress: measure_repeated(
            T, d_a, runs=RUNS, cancelled=should_stop, progress=progress))

    def cancel(self) -> None:
        self._runner.cancel()

    def shutdown(self) -> None:
        """Stop a running measurement and wait for its thread (the app is quitting)."""
        self._runner.shutdown()

    def _finish(self) -> None:
        self.running = False
        self.run_button.setEnabled(True)
        if self.cancel_button.hasFocus():
            self.run_button.setFocus()
        self.cancel_button.setEnabled(False)

    def _on_progressed(self, done: int, total: int) -> None:
        self._show_runs_done(done * RUNS // max(total, 1))
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def _show_runs_done(self, runs: int) -> None:
        """The bar counts blocks (it moves within a run); its text counts whole runs."""
        self.runs_done = runs
        self.progress.setFormat(tr("guide.measure.runs_done", done=runs, runs=RUNS))

    def _on_measured(self, result: Repeated) -> None:
        self._finish()
        self.result = result
        self._show_result()
        self.measured.emit(result)

    def _on_stopped(self, _generation: int = 0) -> None:
        self._finish()
        self.progress.setValue(0)
        self.status.setText(html.escape(tr("guide.measure.cancelled")))
        self.stopped.emit()

    def _on_failed(self, reason: str) -> None:
        self._finish()
        self.status.setText(html.escape(tr("guide.measure.failed", reason=reason)))
        self.failed.emit(reason)

    def _show_result(self) -> None:
        """Medians in the table (three columns fit the guide's column at 250 %), and the
        time ratio's spread over the runs in words below it."""
        result = self.result
        if result is None:
            return
        head = (tr("guide.measure.col_scorer"), tr("guide.measure.col_time"),
                tr("guide.measure.col_memory"))

        def median_row(name: str, pick: Callable[[Comparison], Measurement]) -> tuple[str, ...]:
            return (name, format_seconds(result.median(lambda run: pick(run).seconds)),
                    format_bytes(round(result.median(lambda run: pick(run).peak_bytes))))

        rows = [
            median_row(tr("guide.measure.additive"), lambda run: run.additive),
            median_row(tr("guide.measure.dot"), lambda run: run.dot),
            (tr("guide.measure.ratio"), format_times(result.time_ratio),
             format_times(result.memory_ratio)),
        ]
        # a header or a scorer's name on one line: a narrow guide broke "内存峰值" and
        # "scorer" between their characters; the table then scrolls with the guide
        whole = "style='white-space:nowrap'"
        cells = "".join(f"<th align=left {whole}>{html.escape(h)}&nbsp;&nbsp;</th>"
                        for h in head)
        body = "".join(
            "<tr>" + "".join(f"<td {whole if i == 0 else ''}>{'<b>' if i else ''}"
                             f"{html.escape(c)}{'</b>' if i else ''}&nbsp;&nbsp;</td>"
                             for i, c in enumerate(row)) + "</tr>"
            for row in rows)
        low, high = result.spread(lambda run: run.time_ratio)
        spread = tr("guide.measure.spread", runs=len(result.runs), low=format_times(low),
                    high=format_times(high))
        note = tr("guide.measure.note", chunk=format_bytes(CHUNK_BYTES),
                  naive=format_bytes(result.naive_bytes))
        self.status.setText(f"<table cellspacing=4><tr>{cells}</tr>{body}</table>"
                            f"<p><b>{html.escape(spread)}</b></p><p>{html.escape(note)}</p>")

    def retranslate(self) -> None:
        self.title.setText(tr("guide.measure.title"))
        self.intro.setText(tr("guide.measure.intro", dtype=np.dtype(DTYPE).name, runs=RUNS))
        self._show_runs_done(self.runs_done)
        self.t_label.setText(tr("guide.measure.t"))
        self.d_label.setText(tr("guide.measure.d_a"))
        for box in (self.t_box, self.d_box):
            box.setToolTip(tr("guide.measure.range_tip", low=format_number(box.minimum()),
                              high=format_number(box.maximum())))
        self.run_button.setText(tr("guide.measure.run"))
        self.cancel_button.setText(tr("guide.measure.cancel"))
        if self.result is not None:
            self._show_result()
        elif not self.running:
            self.status.setText("")
