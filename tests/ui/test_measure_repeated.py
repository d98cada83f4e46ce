"""The guide's live measurement through its real widgets: it runs several times off the UI
thread, the bar counts the runs, and the result is the median with the runs' spread."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.i18n import tr
from app.model.measure import RUNS, Repeated
from app.ui.format import format_seconds, format_times


def test_the_measurement_repeats_and_reports_median_and_spread(qtbot, box):
    box.t_box.setValue(96)
    box.d_box.setValue(8)
    shown: list[str] = []
    box.progress.valueChanged.connect(lambda _value: shown.append(box.progress.text()))
    assert box.progress.format() == tr("guide.measure.runs_done", done=0, runs=RUNS)
    with qtbot.waitSignal(box.measured, timeout=60000) as blocker:
        qtbot.mouseClick(box.run_button, Qt.MouseButton.LeftButton)
        assert box.running  # the click returned before any run finished
    result = blocker.args[0]
    assert isinstance(result, Repeated) and len(result.runs) == RUNS
    assert (result.T, result.d_a) == (96, 8)
    runs_seen = [tr("guide.measure.runs_done", done=n, runs=RUNS) for n in range(RUNS + 1)]
    assert shown[-1] == runs_seen[-1]
    assert set(runs_seen[1:-1]) <= set(shown)  # the bar counted every run on the way
    text = box.status.text()
    low, high = result.spread(lambda run: run.time_ratio)
    assert tr("guide.measure.spread", runs=RUNS, low=format_times(low),
              high=format_times(high)) in text
    assert format_times(result.time_ratio) in text  # the median, in the table's ratio row
    assert format_seconds(result.median(lambda run: run.additive.seconds)) in text
    assert low <= result.time_ratio <= high


def test_the_intro_says_how_many_runs(box):
    assert str(RUNS) in box.intro.text()
