"""Soak: 10,000 random edits, undos, redos, world and scorer switches and selections through
the document while the whole window is on screen. At every repaint the document's view and
what the panels show must equal a from-scratch recompute, and memory must stay bounded."""

from __future__ import annotations

import gc
import math
import os
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QApplication

from app import i18n
from app.i18n import tr
from app.model.scoring import SCORERS, Undefined
from app.model.state import EDIT_LIMIT, WORLDS
from app.model.view import View, compute_view
from app.startup import build_window, make_application
from app.ui.format import UNDEFINED_TEXT, format_score
from app.ui.language import apply_language
from app.ui.panels.expansion.panel import number
from app.ui.widgets.live_label import LiveLabel

VIEW_BOOKKEEPING = ("serial", "patch")
"""Which view a view is and which it was patched from: no number on screen."""
pytestmark = [pytest.mark.slow,
              pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]

OPERATIONS = 10_000
REPAINT_EVERY = 50
MEMORY_LIMIT_MB = 50
WARM_UP = 1_000
"""Operations before the memory baseline: caches, fonts and glyphs fill up during the first."""


def rss_mb() -> float:
    """Resident memory of this process from /proc (Linux), else the peak from getrusage."""
    try:
        with open("/proc/self/statm", encoding="ascii") as stream:
            pages = int(stream.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def same(a: Any, b: Any, where: str = "view") -> None:
    """Deep equality of two computed views: arrays bit for bit (NaN equal to NaN), masks too."""
    if isinstance(a, np.ma.MaskedArray) or isinstance(b, np.ma.MaskedArray):
        assert np.array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b)), where
        assert np.array_equal(np.ma.filled(a.astype(float), 0.0),
                              np.ma.filled(b.astype(float), 0.0), equal_nan=True), where
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.shape == b.shape, where
        assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), where
    elif is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for item in fields(a):
            if isinstance(a, View) and item.name in VIEW_BOOKKEEPING:
                continue
            same(getattr(a, item.name), getattr(b, item.name), f"{where}.{item.name}")
        if isinstance(a, View):  # worked out when first read, not a field
            same(a.swaps, b.swaps, f"{where}.swaps")
    elif isinstance(a, Mapping):
        assert a.keys() == b.keys(), where
        for key in a:
            same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), where
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{index}]")
    elif isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        assert math.isnan(b), where
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


class Soak:
    """Random operations through the document's public methods, from one seeded generator."""

    def __init__(self, window, seed: int) -> None:
        self.window = window
        self.document = window.document
        self.rng = np.random.default_rng(seed)
        self.counts: dict[str, int] = {}

    def entries(self, size: int) -> np.ndarray:
        kind = self.rng.integers(10)
        if kind == 0:
            return np.zeros(size)
        if kind == 1:
            return self.rng.choice([-1.5, 1.5], size) * EDIT_LIMIT  # clamped, with a notice
        if kind == 2:
            return np.round(self.rng.uniform(-EDIT_LIMIT, EDIT_LIMIT, size), 2)
        return np.round(self.rng.normal(0, 2, size), 1)

    def step(self) -> None:
        document, rng = self.document, self.rng
        state = document.state
        queries, keys = state.vectors
        roll = rng.random()
        if roll < 0.35:
            name = "edit"
            role = "q" if rng.random() < 0.4 else "k"
            count = len(queries) if role == "q" else len(keys)
            index = int(rng.integers(count))
            if role == "k" and rng.random() < 0.1:  # an identical key: ties
                values = keys[int(rng.integers(len(keys)))]
            else:
                values = self.entries(queries.shape[1])
            document.set_vector(role, index, values)
        elif roll < 0.45:
            name = "drag"
            document.begin_drag()
            index = int(rng.integers(len(keys)))
            for _ in range(int(rng.integers(2, 8))):
                document.set_vector("k", index, self.entries(keys.shape[1]))
            document.end_drag()
        elif roll < 0.60:
            name = "undo"
            document.undo_stack.undo()
        elif roll < 0.70:
            name = "redo"
            document.undo_stack.redo()
        elif roll < 0.75:
            name = "world"
            document.set_world(WORLDS[int(rng.integers(len(WORLDS)))])
        elif roll < 0.83:
            name = "scorer"
            document.set_scorer(list(SCORERS)[int(rng.integers(len(SCORERS)))])
        elif roll < 0.95:
            name = "select"
            document.select(int(rng.integers(len(queries))), int(rng.integers(len(keys))))
        else:
            name = "options"
            choice = int(rng.integers(6))
            document.set_options(**[
                {"heatmap_mode": str(rng.choice(["scores", "weights"]))},
                {"causal": bool(rng.integers(2))},
                {"heads": int(rng.choice([1, 2, 4]))},
                {"sink_logit": None if rng.random() < 0.5 else float(rng.normal(0, 2))},
                {"rope": bool(rng.integers(2))},
                {"show_additive": bool(rng.integers(2))},
            ][choice])
        self.counts[name] = self.counts.get(name, 0) + 1


# ---- what each panel shows, against values formatted from a fresh view ------------------------

def heatmap_cell(view: View, state, row: int, col: int, decimals: int) -> str:
    if state.options.heatmap_mode == "weights":
        weight = float(view.weights[row, col])
        return "0" if weight == 0 else "100" if weight >= 0.9995 else f"{100 * weight:.1f}"
    if not view.allowed[row, col]:
        return "−∞"
    value = view.active[row, col]  # the heatmap rounds first, so 6e−17 noise reads as 0
    return format_score(None if value is np.ma.masked else round(float(value), decimals),
                        decimals)


def check_heatmap(window, fresh: View) -> None:
    panel, state = window.show_panel("heatmap"), window.document.state
    if state.options.heatmap_mode == "weights":
        expected = 100 * fresh.weights
    else:
        expected = np.ma.filled(fresh.active.astype(np.float64), np.nan)
        expected[~fresh.allowed] = np.nan
    shown = panel.cells.grid.values
    assert shown.shape == expected.shape
    assert np.array_equal(shown, expected, equal_nan=True), "heatmap cell colours"
    decimals = 2 if max(expected.shape) <= 6 else 1
    texts = panel.cells.grid.labels
    assert texts == [[heatmap_cell(fresh, state, r, c, decimals)
                      for c in range(expected.shape[1])] for r in range(expected.shape[0])]


def check_match_table(window, fresh: View) -> None:
    from app.ui.format import token_glosses, with_gloss
    from app.ui.panels.match.model import COLUMNS

    model, row = window.show_panel("match").model, window.document.state.query
    glosses = token_glosses(window.document.data, fresh.world)
    for key, name in enumerate(fresh.key_names):
        def cell(column: str, key: int = key) -> str:
            return model.data(model.index(key, COLUMNS.index(column)))

        # the gloss beside the word in English, unless the table is compact (then in its tooltip)
        assert cell("key") == (name if model.compact else with_gloss(name, glosses))
        for scorer in ("dot", "cosine", "neg_euclidean", "additive"):
            value = fresh.scores[scorer][row][key]
            expected = UNDEFINED_TEXT if value is np.ma.masked else format_score(float(value))
            assert cell(scorer) == expected, (scorer, key)
            rank = str(int(fresh.row_ranks[scorer][key]))
            assert cell(f"{scorer}_rank") == (UNDEFINED_TEXT if value is np.ma.masked else rank)


def check_readouts(window, fresh: View) -> None:
    state = window.document.state
    status = window.findChild(LiveLabel, "status_pair").text()
    assert status == tr("status.pair", query=fresh.query_names[state.query],
                        key=fresh.key_names[state.key], scorer=tr(f"scorer.{state.scorer}"),
                        score=format_score(fresh.selected_score))
    expansion = window.show_panel("expansion")
    if not isinstance(fresh.selected_score, Undefined):  # each scorer's steps end on its score
        assert f"<b>{number(fresh.selected_score)}</b>" in expansion.equation.text()
    if fresh.scorer in ("dot", "scaled_dot", "cosine") and not isinstance(fresh.pair.cos,
                                                                          Undefined):
        assert format_score(fresh.pair.cos, 3) in expansion.polar.text()


def check_editor_and_playground(window, fresh: View) -> None:
    state = window.document.state
    if state.world == "teaching":
        editor = window.show_panel("editor")
        for (role, token), chart in editor.charts.items():
            matrix = state.teaching_q if role == "q" else state.teaching_k
            shown = [box.value() for box in chart.boxes]
            assert shown == [round(float(v), 2) for v in matrix[token]], (role, token)
    elif "playground" in window.panels and fresh.plane is not None:
        playground = window.show_panel("playground")
        land = fresh.landscape_at(playground.plane_aspect())  # the plot's own shape
        images = [item.image for item in image_items(playground)]
        assert any(image is not None and image.shape == land.values.shape
                   and np.array_equal(image, land.values) for image in images), (
            "the playground must show the fresh landscape")


def image_items(panel) -> list[pg.ImageItem]:
    """Every image a panel draws, wherever it keeps its plots."""
    return [item for view in panel.findChildren(pg.GraphicsView)
            for item in view.scene().items() if isinstance(item, pg.ImageItem)]


def check_everything(window) -> None:
    document = window.document
    shown_view = document.view
    fresh = compute_view(document.state, document.data)
    same(shown_view, fresh)
    check_heatmap(window, fresh)
    check_match_table(window, fresh)
    check_readouts(window, fresh)
    check_editor_and_playground(window, fresh)


def test_soak_ten_thousand_operations(qtbot):
    make_application()
    language = i18n.language()
    window = build_window("en")
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    for dock in window.docks.values():
        dock.show()
    soak = Soak(window, seed=20260)
    repaints = 0
    baseline = None
    try:
        for number in range(1, OPERATIONS + 1):
            soak.step()
            if number % REPAINT_EVERY == 0:
                QApplication.processEvents()
                check_everything(window)
                repaints += 1
            if number == WARM_UP:
                gc.collect()
                baseline = rss_mb()
        QApplication.processEvents()
        check_everything(window)
        gc.collect()
        grown = rss_mb() - baseline
    finally:
        apply_language(language)
    assert repaints == OPERATIONS // REPAINT_EVERY
    kinds = ("edit", "drag", "undo", "redo", "world", "scorer", "select", "options")
    assert all(soak.counts.get(name, 0) > 100 for name in kinds), soak.counts
    assert window.document.recompute_count >= repaints // 2, "panels must really have repainted"
    assert grown < MEMORY_LIMIT_MB, f"memory grew by {grown:.1f} MB"
