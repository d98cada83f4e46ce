"""The drag rows' references: the plain QPainter workload repaints only what a drag step
changes, and the matplotlib peer draws the same steps, or is skipped without matplotlib."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QPaintEvent, QRegion

from bench.mpl_peer import peer_drag
from bench.reference_paint import BARS, EQUATION, ReferenceView, cell_rect, reference_samples
from bench.teaching_drag import KEY, T, TeachingDrag

ROOT = Path(__file__).resolve().parents[1]


def test_a_drag_step_changes_the_dragged_keys_column_only() -> None:
    drag = TeachingDrag()
    assert len(drag.frame().changed) == T * T
    frames = [drag.step() for _ in range(3)]
    for frame in frames[1:]:  # the first step may land on the starting value's neighbour
        assert sorted(frame.changed) == [(row, KEY) for row in range(T)]
    assert frames[1].equation != frames[2].equation and frames[2].equation.startswith("q·k = ")


class _Recording(ReferenceView):
    """Keeps each paint's region."""

    def __init__(self) -> None:
        super().__init__((1920, 1080))
        self.painted: list[QRegion] = []

    def paintEvent(self, event: QPaintEvent) -> None:
        self.painted.append(QRegion(event.region()))
        super().paintEvent(event)


def test_the_reference_repaints_the_changed_cells_bars_and_equation(qtbot) -> None:
    view = _Recording()
    qtbot.addWidget(view)
    with qtbot.waitExposed(view):
        view.show()
    view.step()
    view.step()
    region = view.painted[-1]
    assert all(region.contains(cell_rect(row, KEY).center()) for row in range(T))
    assert not region.contains(cell_rect(0, (KEY + 1) % T).center())
    assert region.contains(BARS.center()) and region.contains(EQUATION.center())


def test_reference_samples_time_each_step(qapp) -> None:
    samples = reference_samples((800, 600), 4, warmup=1)
    assert len(samples) == 4 and all(ms > 0 for ms in samples)


def test_the_peer_is_skipped_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    result = peer_drag((640, 480), 2)
    assert result.samples_ms == [] and "not installed" in str(result.extra["skipped"])


def test_the_peer_blits_each_step(qapp) -> None:
    pytest.importorskip("matplotlib")
    result = peer_drag((640, 480), 2)
    assert len(result.samples_ms) == 2 and all(ms > 0 for ms in result.samples_ms)


def test_matplotlib_is_the_bench_extra_and_nothing_of_the_app() -> None:
    """The peer's library installs only with the bench extra; no app module imports it."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not any(dep.startswith("matplotlib") for dep in project["dependencies"])
    assert any(dep.startswith("matplotlib") for dep in project["optional-dependencies"]["bench"])
    importing = [path for path in (ROOT / "app").rglob("*.py")
                 if "matplotlib" in path.read_text(encoding="utf-8")]
    assert importing == []
