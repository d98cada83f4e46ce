"""The benchmark runs end to end at small sizes and reports every field; never judges timings."""

from __future__ import annotations

import contextlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.model.lesson.scenes import load_scenes
from bench import Result, Target, p95
from bench.__main__ import build_parser
from bench.mpl_peer import against
from bench.run import FULL, QUICK, evaluate, format_table, row_note
from bench.startup_time import MARK
from bench.ui_latency import SETUP

ROOT = Path(__file__).resolve().parents[1]
MACHINE_FIELDS = {"cpu_count", "cpu", "python", "numpy", "blas", "pyside6", "qt", "pyqtgraph",
                  "platform", "load_average_at_start", "environment"}
RESULT_FIELDS = {"group", "name", "size", "runs", "median_ms", "p95_ms", "samples_ms"}
TARGET_KEYS = {"drag_vs_reference", "peer_vs_drag", "startup_vs_bare_window",
               "model_vs_numpy_1024", "import_edit_vs_drag", "scale_4096_ui_block",
               "import_4096_ui_block", "poll_ui_block",
               "additive_peak_bounded", "poll_counts_exact",
               "checkpoint_export_vs_transformers", "checkpoint_overview_seconds",
               "checkpoint_overview_memory"}
DEFAULT_DRAG = "drag step → every visible panel repainted (default layout)"


def test_p95_interpolates_like_numpy() -> None:
    assert p95([float(x) for x in range(1, 22)]) == pytest.approx(20.0)
    assert p95([3.0]) == 3.0
    assert p95([1.0, 2.0]) == pytest.approx(1.95)
    assert math.isnan(p95([]))


def test_target_is_met_missed_or_unmeasured() -> None:
    assert Target("a", "a", 8.0, "ms", 7.9).met is True
    assert Target("a", "a", 8.0, "ms", 8.1).met is False
    assert Target("a", "a", 8.0, "ms", None).met is None
    assert Target("a", "a", 10.0, "×", 12.0, at_least=True).met is True
    assert Target("a", "a", 10.0, "×", 9.0, at_least=True).to_json()["met"] is False


def _drag(name: str, ms: float, ratio: float) -> Result:
    return Result("ui", name, "T=5, d=4", [ms] * 20,
                  {"reference_ms": ms / ratio, "ratio_to_reference": ratio,
                   "max_ui_block_ms": ms})


def test_evaluate_fills_each_target_from_its_size_only() -> None:
    size = "T=1024, d=256"
    bare = Result("model", "bare NumPy Q @ K.T (reference)", size, [10.0])
    dot = Result("model", 'score_matrix("dot")', size, [12.0], {"ratio_to_bare": 1.2})
    small = Result("model", 'score_matrix("dot")', "T=256, d=256", [1.0], {"ratio_to_bare": 9.0})
    teaching = _drag(DEFAULT_DRAG, 20.0, 5.0)
    targets = {t.key: t for t in evaluate([small, bare, dot, teaching])}
    assert set(targets) == TARGET_KEYS
    assert targets["model_vs_numpy_1024"].value == 1.2
    assert targets["model_vs_numpy_1024"].met is True
    assert targets["model_vs_numpy_1024"].reference_ms == 10.0
    assert targets["drag_vs_reference"].value == 5.0
    assert targets["drag_vs_reference"].reference_ms == 4.0
    assert targets["drag_vs_reference"].met is False
    assert targets["startup_vs_bare_window"].met is None
    table = format_table({name: "x" for name in MACHINE_FIELDS}, SETUP, [bare, dot, teaching],
                         list(targets.values()), [], QUICK)
    assert "[met   ]" in table and "[MISSED]" in table and "[—     ]" in table
    assert "reference 4.00 ms" in table and "limit ≤ 4.00 ×" in table


def test_start_up_and_the_peer_are_ratios_to_their_references() -> None:
    """The app's first paint against a bare window's; matplotlib's step against the app's."""
    default = _drag(DEFAULT_DRAG, 5.0, 2.0)
    startup = Result("startup", "process start → first painted window", "the app",
                     [900.0, 1200.0, 1100.0], {"reference_ms": 800.0,
                                               "ratio_to_reference": 1100.0 / 800.0})
    peer = against(Result("peer", "matplotlib peer", "T=5, d=4", [40.0, 60.0, 50.0]), default)
    assert peer.extra["ratio_to_reference"] == pytest.approx(10.0)
    targets = {t.key: t for t in evaluate([default, peer, startup])}
    assert targets["startup_vs_bare_window"].value == pytest.approx(1.375)
    assert targets["startup_vs_bare_window"].met is True
    assert targets["startup_vs_bare_window"].reference_ms == 800.0
    assert targets["peer_vs_drag"].value == pytest.approx(10.0)
    assert targets["peer_vs_drag"].met is True
    assert targets["peer_vs_drag"].reference_ms == 5.0
    assert targets["peer_vs_drag"].to_json()["direction"] == "at least"
    skipped = against(Result("peer", "matplotlib peer", "T=5, d=4", [],
                             {"skipped": "matplotlib is not installed"}), default)
    assert "ratio_to_reference" not in skipped.extra
    unmeasured = {t.key: t for t in evaluate([default, skipped])}["peer_vs_drag"]
    assert unmeasured.met is None
    assert "skipped: matplotlib" in row_note(skipped)
    assert evaluate([])[0].met is None


def test_full_plan_measures_the_issue_sizes() -> None:
    assert FULL.scale_ts == (256, 1024, 4096) and FULL.scale_d == 256
    assert (FULL.additive_T, FULL.additive_d_a) == (512, 64)
    assert QUICK.repeated(4).teaching_steps == 4 == QUICK.repeated(4).startup_runs


def test_repeat_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["--repeat", "0"])
    assert exit_info.value.code == 2
    assert "at least 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--repeat", str(10**9)], "at most 1000"),
        (["--repeat", "9" * 5000], "from 1 to 1000"),
    ],
)
def test_an_absurd_repeat_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as leaving:
        build_parser().parse_args(argv)
    assert leaving.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert words in err and "digits" not in err


@pytest.mark.slow
def test_quick_bench_reports_every_field(tmp_path: Path) -> None:
    """`python -m bench --quick` in a subprocess, as `dev.py bench` runs it; JSON and table."""
    report_path = tmp_path / "bench.json"
    child = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--json", str(report_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert child.returncode == 0, child.stderr
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["errors"] == []
    assert set(report["machine"]) >= MACHINE_FIELDS
    assert report["machine"]["cpu_count"] >= 1
    results = report["results"]
    assert {r["group"] for r in results} == {"ui", "panel", "model", "startup",
                                             "startup_reference", "startup_screen", "additive",
                                             "poll", "peer"}
    peer = next(r for r in results if r["group"] == "peer")
    measured = [r for r in results if r is not peer or "skipped" not in peer]
    for result in measured:
        assert set(result) >= RESULT_FIELDS, result["name"]
        assert result["runs"] == len(result["samples_ms"]) >= 1
        assert result["median_ms"] > 0 and result["p95_ms"] >= result["median_ms"]
    startup = next(r for r in results if r["group"] == "startup")
    bare = next(r for r in results if r["group"] == "startup_reference")
    assert startup["reference_ms"] == bare["median_ms"] and bare["runs"] == startup["runs"]
    assert startup["ratio_to_reference"] == pytest.approx(
        startup["median_ms"] / bare["median_ms"])
    screen = next(r for r in results if r["group"] == "startup_screen")
    assert screen["runs"] == startup["runs"] and screen["reference_ms"] == bare["median_ms"]
    assert screen["app_ratio"] == pytest.approx(startup["median_ms"] / screen["median_ms"])
    stage = [r for r in results if r["group"] == "ui" and r["name"].startswith("stage scene")]
    assert len(stage) == len(load_scenes()), "a stage row per lesson scene"
    assert all(r["size"].startswith("1024x768") and r["timeouts"] == 0 for r in stage)
    assert any("heatmap" in r["panels_repainted"] for r in stage)
    ui = [r for r in results if r["group"] == "ui" and r not in stage]
    assert any(r["name"].startswith("scale mode") for r in ui), "heatmap scale mode not measured"
    drags = [r for r in results if r["group"] == "ui" and "drag step" in r["name"]]
    assert all(r["ratio_to_reference"] == pytest.approx(r["median_ms"] / r["reference_ms"])
               for r in drags)
    if "skipped" not in peer:
        default = next(r for r in ui if r["name"] == DEFAULT_DRAG)
        assert peer["reference_ms"] == default["median_ms"] and peer["runs"] >= 1
    for result in ui:
        assert result["timeouts"] == 0, result["name"]
        assert result["max_ui_block_ms"] > 0 and result["ui_thread_cpu_median_ms"] > 0
        assert result["panels_repainted"], result["name"]
    # The heatmap shows the dragged key's column and each new scale-mode picture.
    changing = [r for r in ui if not r["name"].startswith("scale mode on")]
    assert all("heatmap" in r["panels_repainted"] for r in changing)
    costed = {r["name"].split(":")[0] for r in results if r["group"] == "panel"}
    assert set(ui[0]["panels_repainted"]) <= costed
    model = [r for r in results if r["group"] == "model" and "bare" not in r["name"]]
    assert any("compute_view" in r["name"] for r in model)
    assert all(r["ratio_to_bare"] > 0 for r in model if "compute_view" not in r["name"])
    additive = next(r for r in results if r["group"] == "additive" and "bound_bytes" in r)
    assert additive["peak_bytes"] > 0 and additive["naive_bytes"] > 0
    assert additive["time_ratio_to_dot"] > 0 and additive["memory_ratio_to_dot"] > 0
    targets = {t["key"]: t for t in report["targets"]}
    assert set(targets) == TARGET_KEYS
    for key in ("drag_vs_reference", "startup_vs_bare_window", "additive_peak_bounded",
                "poll_ui_block"):
        assert targets[key]["met"] in (True, False), key
    for key in ("drag_vs_reference", "startup_vs_bare_window"):
        assert targets[key]["reference_ms"] > 0 and targets[key]["direction"] == "at most"
    assert targets["drag_vs_reference"]["limit"] == 4.0
    assert targets["startup_vs_bare_window"]["limit"] == 1.5
    assert targets["peer_vs_drag"]["limit"] == 10.0
    assert targets["peer_vs_drag"]["met"] is (None if "skipped" in peer else
                                              targets["peer_vs_drag"]["value"] >= 10.0)
    assert targets["poll_counts_exact"]["value"] == 0.0  # exactness is not a timing
    edit = next(r for r in results if "ratio_to_drag" in r)
    assert edit["ratio_to_drag"] == pytest.approx(edit["p95_ms"] / edit["drag_ms"])
    assert targets["import_edit_vs_drag"]["value"] == pytest.approx(edit["ratio_to_drag"])
    assert f"{report['machine']['cpu_count']} CPUs" in child.stdout
    for name in ("python", "numpy", "pyside6", "pyqtgraph"):
        assert str(report["machine"][name]) in child.stdout
    for target in report["targets"]:
        assert target["text"] in child.stdout


# ---- output checked first, no child left behind ----


@pytest.mark.parametrize("kind", ["folder", "under-a-file"])
def test_bench_json_that_cannot_be_written_stops_before_the_run(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        kind: str) -> None:
    import bench.run as bench_run
    from bench.__main__ import main

    monkeypatch.setattr(bench_run, "run_bench", lambda *_a, **_k: pytest.fail("it ran"))
    if kind == "folder":
        target = tmp_path
    else:
        (tmp_path / "file").write_text("")
        target = tmp_path / "file" / "bench.json"
    assert main(["--quick", "--json", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bench: error: --json: cannot write")


def test_a_report_that_cannot_be_written_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    from bench.run import write_report

    problem = write_report(tmp_path, {"plan": "quick"})
    assert problem is not None and str(tmp_path) in problem
    assert write_report(tmp_path / "ok" / "bench.json", {"plan": "quick"}) is None
    assert json.loads((tmp_path / "ok" / "bench.json").read_text(encoding="utf-8")) == {
        "plan": "quick"}


SIGTERM_PARENT = """
import os, signal, sys
from pathlib import Path
from bench import startup_time
from bench.run import ending_children_on_sigterm

pid_file = Path(sys.argv[1])
child = ("import os, signal, sys, time; from pathlib import Path; "
         "Path(sys.argv[1]).write_text(str(os.getpid())); "
         "os.kill(os.getppid(), signal.SIGTERM); time.sleep(120)")
with ending_children_on_sigterm():
    startup_time.launch_once([sys.executable, "-c", child, str(pid_file)])
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")
def test_sigterm_to_the_bench_ends_its_start_up_child(tmp_path: Path) -> None:
    """The child writes its pid, then sends SIGTERM to the benchmark waiting for it."""
    import signal

    pid_file = tmp_path / "child.pid"
    parent = subprocess.run([sys.executable, "-c", SIGTERM_PARENT, str(pid_file)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    child = int(pid_file.read_text())
    try:
        assert parent.returncode == 128 + signal.SIGTERM, parent.stderr
        with pytest.raises(ProcessLookupError):
            os.kill(child, 0)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)


def test_the_drag_target_is_the_slowest_row_against_its_reference() -> None:
    """Every drag row, default layout, every dock and each stage scene, within 4x of the
    QPainter reference; a scale-mode picture (no reference: it waits for a worker) is not."""
    default = _drag(DEFAULT_DRAG, 3.0, 2.0)
    every = _drag("drag step → every visible panel repainted (every dock shown)", 7.0, 3.0)
    scene = _drag("stage scene 15 (questions): drag step → every visible panel repainted",
                  9.0, 5.0)
    picture = Result("ui", "scale mode: edit → new picture shown", "T=1024, d=256", [30.0])
    target = {t.key: t for t in evaluate([default, every, scene, picture])}["drag_vs_reference"]
    assert target.value == pytest.approx(5.0) and target.met is False
    assert target.reference_ms == pytest.approx(1.8) and "stage scene 15" in target.reference
    assert "5.0× its reference (1.80 ms)" in row_note(scene)
    within = {t.key: t for t in evaluate([default, every])}["drag_vs_reference"]
    assert within.value == pytest.approx(3.0) and within.met is True


BARE_PROBE = """
import json, runpy, sys
sys.argv = [sys.argv[1]]
try:
    runpy.run_module("bench." + sys.argv[0], run_name="__main__")
except SystemExit as stop:
    print(json.dumps({"code": stop.code, "libraries": [m in sys.modules for m in
                      ("numpy", "PySide6.QtWidgets", "pyqtgraph")],
                      "app": sorted(m for m in sys.modules if m.split(".")[0] == "app")}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("child_module", ["bare_window", "first_screen_window"])
def test_the_reference_windows_import_the_libraries_and_nothing_of_the_app(
        child_module: str) -> None:
    """The start-up references' children paint a window (its mark printed, exit 0) having
    imported NumPy, Qt and pyqtgraph, but nothing of the app beyond `app.ui`'s way of
    importing pyqtgraph: their time is the libraries' alone."""
    child = subprocess.run([sys.executable, "-c", BARE_PROBE, child_module], cwd=ROOT,
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert child.returncode == 0, child.stderr
    mark, report = child.stdout.strip().splitlines()[-2:]
    assert mark.startswith(MARK)
    seen = json.loads(report)
    assert seen["code"] == 0 and seen["libraries"] == [True, True, True]
    assert seen["app"] == ["app", "app.ui", "app.ui.pyqtgraph_import"]


APP_PROBE = """
import builtins, json, runpy, sys
order = []
real_import = builtins.__import__
def noting(name, *args, **kwargs):
    if name in ("numpy", "PySide6.QtCore") and name not in order and name not in sys.modules:
        order.append(name)
    return real_import(name, *args, **kwargs)
builtins.__import__ = noting
sys.argv = ["first_paint"]
try:
    runpy.run_module("bench.first_paint", run_name="__main__")
except SystemExit as stop:
    print(json.dumps({"code": stop.code, "order": order}))
"""


@pytest.mark.slow
def test_the_app_child_imports_numpy_before_qt_as_a_user_start_does(tmp_path: Path) -> None:
    """The start-up child loads the benchmark's hook only after the app's imports: loaded
    first, it brought Qt in before NumPy, and PySide6 then read the source of every NumPy
    module, a cost that only the measured start paid."""
    child = subprocess.run([sys.executable, "-c", APP_PROBE], cwd=ROOT, capture_output=True,
                           text=True, timeout=60,
                           env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                                "ATTENTION_LAB_HOME": str(tmp_path)})
    assert child.returncode == 0, child.stderr
    mark, report = child.stdout.strip().splitlines()[-2:]
    assert mark.startswith(MARK)
    seen = json.loads(report)
    assert seen == {"code": 0, "order": ["numpy", "PySide6.QtCore"]}
