"""The README's recipe for adding a scoring function, done by a test: negative Manhattan
distance is registered through `register` alone, walked through the model layer, every panel
and the CSV export, and unregistered afterwards so other tests see the usual scorers."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import numpy as np
import pytest

from app import i18n
from app.model.landscape import landscape_of
from app.model.scores_csv import scores_csv
from app.model.scoring import SCORERS, get_scorer, register, score_matrix, score_pair, unregister
from app.model.scoring.worked import SumWork, sum_work, worked
from app.ui.panels.heatmap.panel import HeatmapPanel

NAME = "neg_manhattan"
LABELS = {"en": "Negative Manhattan distance", "zh": "负曼哈顿距离"}


def _steps(name, q, k, _weights, total, _dot) -> SumWork:
    return sum_work(name, np.abs(q - k), total, scale=-1.0)


@pytest.fixture
def manhattan(add_strings) -> Iterator[str]:
    """The scorer registered for one test, with its name in every catalogue (the recipe's
    `.po` step), and gone afterwards."""
    before = list(SCORERS)

    @register(NAME, formula="−Σ|qᵢ−kᵢ|", signed=False, steps=_steps,
              pair=lambda q, k, _w: -float(np.sum(np.abs(q - k))))
    def _matrix(Q: np.ndarray, K: np.ndarray, _w: None) -> np.ndarray:
        return -np.abs(Q[:, None, :] - K[None, :, :]).sum(axis=2)

    add_strings({code: {f"scorer.{NAME}": LABELS.get(code, LABELS["en"])}
                 for code in i18n.languages()})
    yield NAME
    unregister(NAME)
    assert list(SCORERS) == before


def test_the_model_layer_takes_a_registered_scorer(manhattan) -> None:
    rng = np.random.default_rng(7)
    Q, K = rng.normal(size=(3, 4)), rng.normal(size=(5, 4))
    S = score_matrix(manhattan, Q, K)
    assert S.shape == (3, 5) and not np.ma.is_masked(S)
    for i in range(3):
        for j in range(5):
            assert S[i, j] == pytest.approx(score_pair(manhattan, Q[i], K[j]))
    work = worked(manhattan, Q[0], K[1], total=float(S[0, 1]))
    assert isinstance(work, SumWork)
    assert work.total == float(S[0, 1])
    assert work.reached == pytest.approx(float(S[0, 1]))
    assert np.allclose(work.terms, np.abs(Q[0] - K[1]))
    landscape = landscape_of(manhattan, np.array([1.0, 0.5]), np.eye(2), None)
    assert not landscape.signed and np.all(landscape.values <= 0)
    assert landscape.levels[0] < landscape.levels[1]
    assert get_scorer(manhattan).compared is None  # not one of the lesson's four shapes


def test_every_panel_and_the_export_show_it(qtbot, open_window, manhattan) -> None:
    window = open_window()
    document = window.document
    document.set_scorer(manhattan)
    document.flush()
    assert document.state.scorer == manhattan
    view = document.view
    for name in list(window.panels):
        window.panels[name].refresh()
    heatmaps = [p for p in window.panels.values() if isinstance(p, HeatmapPanel)]
    assert heatmaps
    expected = np.asarray(score_matrix(manhattan, view.q, view.k))
    assert np.allclose(np.asarray(view.active), expected)
    assert np.allclose(heatmaps[0].cells.grid.values, expected)
    rows = list(csv.reader(io.StringIO(scores_csv(view))))
    assert rows[0][0].startswith(manhattan)
    assert np.allclose([[float(x) for x in row[1:]] for row in rows[1:]], expected)
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_scorer("dot")
