"""Owns running the benchmark (`python -m bench`): every measurement, the table, the JSON.

Headless by force (QT_QPA_PLATFORM=offscreen) and with a private, temporary user-data
folder, so a benchmark never touches a teacher's autosave or layout.
"""

from __future__ import annotations

import json
import math
import os
import platform
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from bench import Result, Target
from bench.checkpoint_speed import (
    EXPORT_LIMIT,
    OVERVIEW_LIMIT_S,
    OVERVIEW_MEMORY_LIMIT,
)

MIB = 1024 * 1024


@dataclass(frozen=True)
class Plan:
    """How much to measure: the full sizes, or a quick pass for tests."""

    name: str
    teaching_steps: int
    scale_ts: tuple[int, ...]
    scale_d: int
    scale_steps: int
    model_repeat: int
    startup_runs: int
    additive_T: int
    additive_d_a: int
    fixed_repeat: bool = False
    poll_phones: int = 300
    poll_seconds: float = 60.0
    """Simulated phones answering and changing their answers, for this long."""
    checkpoint_runs: int = 0
    """Runs of each real-sized checkpoint row (0: not measured; they take minutes)."""

    def repeated(self, count: int) -> Plan:
        """The same sizes with every repeat count set to `count`."""
        return replace(self, teaching_steps=count, scale_steps=count, model_repeat=count,
                       startup_runs=count, fixed_repeat=True,
                       checkpoint_runs=count if self.checkpoint_runs else 0)

    def model_runs(self, T: int) -> int:
        """Model timings at size T: more runs where each is cheap (model_repeat at T = 1024)."""
        if self.fixed_repeat:
            return self.model_repeat
        return min(300, max(3, self.model_repeat * 1024 // T))


FULL = Plan("full", teaching_steps=200, scale_ts=(256, 1024, 4096), scale_d=256,
            scale_steps=30, model_repeat=30, startup_runs=7, additive_T=512, additive_d_a=64,
            checkpoint_runs=3)
QUICK = Plan("quick", teaching_steps=5, scale_ts=(64,), scale_d=32, scale_steps=3,
             model_repeat=3, startup_runs=1, additive_T=64, additive_d_a=16, fixed_repeat=True,
             poll_phones=20, poll_seconds=2.0)


def machine() -> dict[str, object]:
    """What the figures depend on: CPUs, library versions, BLAS and its environment, load."""
    import numpy as np
    import pyqtgraph as pg
    import PySide6
    from PySide6.QtCore import qVersion

    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines()
                 if line.startswith("model name")]
        cpu = names[0] if names else cpu
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        blas_text = f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except (TypeError, KeyError):
        blas_text = "unknown"
    return {
        "cpu_count": os.cpu_count(),
        "cpu": cpu,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "blas": blas_text,
        "pyside6": PySide6.__version__,
        "qt": qVersion(),
        "pyqtgraph": pg.__version__,
        "load_average_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "environment": {name: os.environ[name] for name in (
            "OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
        ) if name in os.environ},
    }


def _find(results: list[Result], name_part: str, size: str) -> Result | None:
    return next((r for r in results if name_part in r.name and r.size == size), None)


DRAG_LIMIT = 4.0
"""A drag step may take at most this many times the plain QPainter reference."""
PEER_LIMIT = 10.0
"""matplotlib's blitted peer should take at least this many times the app's drag step."""
STARTUP_LIMIT = 1.5
"""The app's first paint may take at most this many times a bare window's."""
IMPORT_EDIT_LIMIT = 2.0
"""A drag step on an imported T = 4096 capture: its p95 at most this many times the
default layout's drag step (median)."""
UI_BLOCK_LIMIT = 50.0


def _drag_rows(results: list[Result]) -> list[Result]:
    """Every drag row through the app, with its reference."""
    return [r for r in results if r.group == "ui" and r.extra.get("ratio_to_reference")]


def evaluate(results: list[Result]) -> list[Target]:
    """The targets, each filled from the run's results when its size was measured: every
    speed target a ratio to a reference timed in the same run; the UI block in ms."""
    drags = _drag_rows(results)
    slowest = max(drags, key=lambda r: float(r.extra["ratio_to_reference"]), default=None)
    peer = next((r for r in results if r.group == "peer"
                 and r.extra.get("ratio_to_reference")), None)
    startup = next((r for r in results if r.group == "startup"
                    and r.extra.get("ratio_to_reference")), None)  # not an import's row
    dot_1024 = _find(results, 'score_matrix("dot")', "T=1024, d=256")
    bare_1024 = _find(results, "bare NumPy", "T=1024, d=256")
    blocks_4096 = [r.extra["max_ui_block_ms"] for r in results
                   if r.group == "ui" and r.size == "T=4096, d=256"]
    additive = next((r for r in results if r.group == "additive" and "peak_bytes" in r.extra
                     and "bound_bytes" in r.extra), None)
    bound = float(additive.extra["bound_bytes"]) / MIB if additive else math.inf
    poll = next((r for r in results if r.group == "poll"), None)
    import_edit = next((r for r in results if "ratio_to_drag" in r.extra), None)
    blocks_import = [float(r.extra["max_ui_block_ms"]) for r in results
                     if r.size == "T=4096, d=128" and "max_ui_block_ms" in r.extra]
    export = next((r for r in results if r.group == "checkpoint"
                   and r.extra.get("ratio_to_reference")), None)
    overview = next((r for r in results if r.group == "checkpoint"
                     and "memory_ratio_to_disk" in r.extra), None)

    def reference(row: Result | None, what: str) -> dict[str, object]:
        if row is None:
            return {"reference": what}
        return {"value": float(row.extra["ratio_to_reference"]),
                "reference": what, "reference_ms": float(row.extra["reference_ms"])}

    return [
        Target("drag_vs_reference",
               f"every drag row: median ≤ {DRAG_LIMIT:g} × the reference (plain QPainter "
               "repainting what a default-layout step changes)", DRAG_LIMIT, "×",
               **reference(slowest, "the QPainter reference step, median, timed after the "
                           f"slowest row ({slowest.name if slowest else '—'})")),
        Target("peer_vs_drag",
               f"matplotlib peer (blitting): its drag step ≥ {PEER_LIMIT:g} × the app's "
               "(default layout)", PEER_LIMIT, "×", at_least=True,
               **reference(peer, "the app's drag step (default layout), median")),
        Target("startup_vs_bare_window",
               f"start-up: app's first paint ≤ {STARTUP_LIMIT:g} × a bare window's "
               "(NumPy, Qt, pyqtgraph)", STARTUP_LIMIT, "×",
               **reference(startup, "bare window's first paint, median")),
        Target("model_vs_numpy_1024",
               'T=1024: score_matrix("dot") median ≤ 1.3 × bare NumPy Q @ K.T', 1.3, "×",
               dot_1024.extra["ratio_to_bare"] if dot_1024 else None,
               "bare NumPy Q @ K.T, median", bare_1024.median_ms if bare_1024 else None),
        Target("import_edit_vs_drag",
               f"drag step on an imported T=4096 capture: p95 ≤ {IMPORT_EDIT_LIMIT:g} × the "
               "default layout's drag step", IMPORT_EDIT_LIMIT, "×",
               float(import_edit.extra["ratio_to_drag"]) if import_edit else None,
               "the app's drag step (default layout), median",
               float(import_edit.extra["drag_ms"]) if import_edit else None),
        Target("scale_4096_ui_block", "scale mode T=4096: UI thread never blocked > 50 ms",
               UI_BLOCK_LIMIT, "ms", max(blocks_4096) if blocks_4096 else None),
        Target("import_4096_ui_block",
               "importing and editing a T=4096 capture: UI thread never blocked > 50 ms",
               UI_BLOCK_LIMIT, "ms", max(blocks_import) if blocks_import else None),
        Target("poll_ui_block", "poll: UI thread never blocked > 50 ms while phones answer",
               UI_BLOCK_LIMIT, "ms", float(poll.extra["max_ui_block_ms"]) if poll else None),
        Target("additive_peak_bounded",
               "additive peak memory ≤ chunk + T² output + projections + 1 MiB (not T²·d_a)",
               bound, "MiB",
               float(additive.extra["peak_bytes"]) / MIB if additive else None),
        Target("poll_counts_exact",
               "poll: no answer lost or counted twice (scenes whose counts differ ≤ 0)", 0.0,
               "scenes", float(len(poll.extra["mismatched"])) if poll else None),
        Target("checkpoint_export_vs_transformers",
               f"GPT-2-small-sized checkpoint: the app's --export-csv process ≤ "
               f"{EXPORT_LIMIT:g} × transformers loading the folder and running its forward",
               EXPORT_LIMIT, "×",
               **reference(export, "transformers AutoModel load + forward process, median")),
        Target("checkpoint_overview_seconds",
               f"Qwen3-0.6B-sized checkpoint: overview of every layer × head, 32 tokens, "
               f"≤ {OVERVIEW_LIMIT_S:g} s", OVERVIEW_LIMIT_S, "s",
               overview.median_ms / 1000.0 if overview else None),
        Target("checkpoint_overview_memory",
               f"the same overview: peak memory above the imports ≤ {OVERVIEW_MEMORY_LIMIT:g} "
               "× the checkpoint's size on disk", OVERVIEW_MEMORY_LIMIT, "× disk",
               float(overview.extra["memory_ratio_to_disk"]) if overview else None),
    ]


def _bytes(count: object) -> str:
    value = float(count)  # type: ignore[arg-type]
    for unit in ("B", "KiB", "MiB"):
        if value < 1024:
            return f"{value:.3g} {unit}"
        value /= 1024
    return f"{value:.3g} GiB"


def row_note(result: Result) -> str:
    """The table's notes for a row: what it reports besides its samples."""
    extra = result.extra
    parts = []
    if "ui_thread_cpu_median_ms" in extra:
        parts.append(f"UI-thread CPU {extra['ui_thread_cpu_median_ms']:.1f} ms (median)")
    if "skipped" in extra:
        parts.append(f"skipped: {extra['skipped']}")
    if extra.get("ratio_to_reference"):
        parts.append(f"{extra['ratio_to_reference']:.1f}× its reference "
                     f"({extra['reference_ms']:.2f} ms)")
    if "app_ratio" in extra:
        parts.append(f"the app's first paint is {extra['app_ratio']:.1f}× this")
    if "max_ui_block_ms" in extra:
        parts.append(f"longest UI block {extra['max_ui_block_ms']:.1f} ms")
    if "reference_missing" in extra:
        parts.append(f"reference not measured ({extra['reference_missing']})")
    if "memory_ratio_to_disk" in extra:
        parts.append(f"peak RSS +{_bytes(extra['peak_rss_above_imports_bytes'])} above the "
                     f"imports, {extra['memory_ratio_to_disk']:.2f}× the "
                     f"{_bytes(extra['disk_bytes'])} on disk")
    if "one_blas_thread_median_ms" in extra:
        parts.append(f"OPENBLAS_NUM_THREADS=1: {extra['one_blas_thread_median_ms']:.0f} ms")
    if extra.get("timeouts"):
        parts.append(f"{extra['timeouts']} timed out")
    if "counts_match" in extra:
        parts.append(f"{extra['answers']} answers, counts "
                     f"{'exact' if extra['counts_match'] else 'WRONG'}")
    if extra.get("rss_growth_mib") is not None:
        parts.append(f"memory +{extra['rss_growth_mib']:.1f} MiB over the run")
    if "ratio_to_drag" in extra:
        parts.append(f"p95 {extra['ratio_to_drag']:.1f}× the default layout's drag step")
    if "ratio_to_bare" in extra:
        parts.append(f"{extra['ratio_to_bare']:.2f}× bare NumPy")
    if "peak_bytes" in extra:
        parts.append(f"peak {_bytes(extra['peak_bytes'])}")
    if "naive_bytes" in extra:
        parts.append(f"naive T²·d_a tensor {_bytes(extra['naive_bytes'])}")
    if "time_ratio_to_dot" in extra:
        parts.append(f"{extra['time_ratio_to_dot']:.0f}× dot time, "
                     f"{extra['memory_ratio_to_dot']:.1f}× dot memory")
    return "; ".join(parts)


def _ms(value: float) -> str:
    return f"{value:>7.2f} ms" if math.isfinite(value) else f"{'—':>10}"


def target_note(target: Target) -> str:
    """A target's figure, its limit and what it was divided by."""
    if target.value is None:
        return "not measured in this run"
    sign = "≥" if target.at_least else "≤"
    text = f"{target.value:.2f} {target.unit} (limit {sign} {target.limit:.2f} {target.unit})"
    if target.reference_ms is not None:
        text += f"; reference {target.reference_ms:.2f} ms: {target.reference}"
    return text


def format_table(info: dict[str, object], setup: dict[str, str], results: list[Result],
                 targets: list[Target], errors: list[str], plan: Plan) -> str:
    """The human-readable report: machine, one row per measurement, then the targets."""
    load = info["load_average_at_start"]
    lines = [
        f"Attention Lab benchmark ({plan.name}) — {info['cpu_count']} CPUs ({info['cpu']}), "
        f"Python {info['python']}, NumPy {info['numpy']} ({info['blas']}), "
        f"PySide6 {info['pyside6']} (Qt {info['qt']}), pyqtgraph {info['pyqtgraph']}",
        f"platform {info['platform']}; load average at start "
        f"{', '.join(f'{x:.2f}' for x in load) if isinstance(load, list) else load}; "
        f"BLAS environment {info['environment'] or 'default'}",
        f"UI window {setup['window']}; frame = {setup['frame']}",
        f"drag reference = {setup['drag_reference']}",
        f"peer = {setup['peer']}",
        "",
        f"{'measurement':<60} {'size':<16} {'runs':>5} {'median':>10} {'p95':>10}  notes",
    ]
    for result in results:
        lines.append(f"{result.name:<60} {result.size:<16} {len(result.samples_ms):>5} "
                     f"{_ms(result.median_ms)} {_ms(result.p95_ms)}  {row_note(result)}")
    lines += ["", "targets (ratio to a reference timed in this run; the UI block in ms)"]
    marks = {True: "met   ", False: "MISSED", None: "—     "}
    for target in targets:
        lines.append(f"  [{marks[target.met]}] {target.text}: {target_note(target)}")
    lines += [f"error: {error}" for error in errors]
    return "\n".join(lines)


def _sections(plan: Plan) -> list[tuple[str, Callable[[], list[Result]]]]:
    from bench import (
        checkpoint_speed,
        import_time,
        model_speed,
        mpl_peer,
        poll_load,
        startup_time,
        ui_latency,
    )

    def ui() -> list[Result]:
        window = ui_latency.open_window()
        try:
            drag = ui_latency.teaching_latency(window, plan.teaching_steps)
            peer = mpl_peer.peer_drag(ui_latency.WINDOW_SIZE, max(plan.teaching_steps // 2, 5))
            results = [drag, mpl_peer.against(peer, drag)]
            if ui_latency.has_scale_mode(window):
                for T in plan.scale_ts:
                    results += ui_latency.scale_latency(window, T, plan.scale_steps,
                                                        plan.scale_d)
            quick = plan.name == "quick"  # T = 4096, d = 128 in under a second
            results.append(import_time.import_to_picture(window, 256 if quick else 4096, 128,
                                                         1 if quick else 5))
            results.append(import_time.against_drag(import_time.import_edit_latency(
                window, 256 if quick else 4096, 128, max(plan.teaching_steps // 4, 3)), drag))
            ui_latency.show_every_dock(window)
            for T in (256,) if quick else (256, 4096):  # any size in under 2 s
                results.append(import_time.import_to_picture(
                    window, T, 128, 1 if quick else 3, import_time.EVERY_DOCK, 2000.0))
            results.append(ui_latency.teaching_latency(window, plan.teaching_steps,
                                                       ui_latency.ALL_DOCKS))
            results += ui_latency.panel_costs(window, max(plan.teaching_steps // 4, 3))
        finally:
            ui_latency.close_window(window)
        return results + ui_latency.stage_latency(max(plan.teaching_steps // 4, 3))

    def model() -> list[Result]:
        results = model_speed.teaching_recompute(plan.model_runs(8))
        for T in plan.scale_ts:
            results += model_speed.scale_recompute(T, plan.scale_d, plan.model_runs(T))
        return results

    return [
        ("start-up", lambda: startup_time.measure_startup(plan.startup_runs,
                                                          warmup=plan.name == "full")),
        ("model", model),
        ("additive", lambda: model_speed.additive_vs_dot(plan.additive_T, plan.additive_d_a,
                                                         plan.model_runs(plan.additive_T))),
        ("ui", ui),
        ("poll", lambda: [poll_load.measure_poll_load(plan.poll_phones, plan.poll_seconds)]),
        *([("checkpoint", lambda: checkpoint_speed.measure(plan.checkpoint_runs))]
          if plan.checkpoint_runs else []),
    ]


def _terminated(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def ending_children_on_sigterm() -> Iterator[None]:
    """Turn SIGTERM into SystemExit while the benchmark runs, so `finally` blocks run and a
    start-up child is killed instead of left running (Ctrl+C already raises)."""
    if not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def write_report(json_path: Path, report: dict[str, object]) -> str | None:
    """Write the JSON report; the reason it could not be written, or None."""
    try:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(_finite(report), indent=2, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    except OSError as error:
        return f"cannot write {json_path}: {error.strerror or error}"
    return None


def run_bench(json_path: Path | None = None, quick: bool = False,
              repeat: int | None = None, only: str | None = None) -> int:
    """Run the benchmark (only the section `only`, when given); 0 when every section ran
    (targets missed or not), 1 otherwise (2 when the JSON file could not be written)."""
    with ending_children_on_sigterm():
        return _run_bench(json_path, quick, repeat, only)


def _run_bench(json_path: Path | None, quick: bool, repeat: int | None,
               only: str | None = None) -> int:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    plan = QUICK if quick else FULL
    if repeat is not None:
        plan = plan.repeated(repeat)
    results: list[Result] = []
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="attention-lab-bench-home-") as home:
        os.environ["ATTENTION_LAB_HOME"] = home
        info = machine()
        for title, section in _sections(plan):
            if only is not None and title != only:
                continue
            print(f"bench: {title} …", file=sys.stderr, flush=True)
            started = time.perf_counter()
            try:
                results += section()
            except Exception as error:  # one broken section must not hide the others
                errors.append(f"{title}: {error!r}")
                traceback.print_exc()
            print(f"bench: {title} took {time.perf_counter() - started:.1f} s",
                  file=sys.stderr, flush=True)
    from bench.ui_latency import SETUP

    targets = evaluate(results)
    print(format_table(info, SETUP, results, targets, errors, plan), flush=True)
    if json_path is not None:
        report = {"plan": plan.name, "machine": info, "setup": SETUP,
                  "results": [result.to_json() for result in results],
                  "targets": [target.to_json() for target in targets], "errors": errors}
        problem = write_report(json_path, report)
        if problem is not None:  # checked before the run; it changed since
            print(f"attention-lab: error: {problem}", file=sys.stderr, flush=True)
            return 2
    return 1 if errors else 0


def _finite(value: object) -> object:
    """JSON has no NaN: a figure that could not be computed is written as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value
