"""The playground, the four landscapes and term by term on the projector's stage, at 100, 150
and 200 %, in both languages: at the size each says it is readable at, every text is at least
STAGE_MIN_PX device pixels (painted and pyqtgraph text included), none covers another, none is
cut or scrolled away, and no number or token name is split across lines; much smaller, they
are no longer readable. The plane's labels keep clear of each other and of the arrows, with a
key dragged onto q too."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from app.model.lesson.data import load_lesson_data
from app.model.scoring import SCORERS
from app.state.document import Document
from app.ui.panels.expansion.panel import ExpansionPanel
from app.ui.panels.landscapes.panel import LandscapesPanel
from app.ui.panels.playground.panel import PlaygroundPanel
from app.ui.panels.playground.placement import crosses, overlaps
from tests.ui.legibility import (
    overlapping,
    report,
    seen_texts,
)
from tests.ui.staging import ZOOMS, fit, settle, stage_panel, unreadable

PANELS = {"playground": (PlaygroundPanel, "dialogue"),
          "landscapes": (LandscapesPanel, "dialogue"),
          "expansion": (ExpansionPanel, "teaching")}
"""Each panel in the world its scenes show it in."""




def staged(open_panel, on_stage, name: str, language: str, zoom: float, scorer: str = "dot"):
    panel_class, world = PANELS[name]
    document = Document(load_lesson_data())
    document.set_world(world)
    document.set_scorer(scorer)
    document.flush()
    return stage_panel(open_panel, on_stage, panel_class, document, language, zoom)



@pytest.mark.matrix(keep=6)
@pytest.mark.parametrize(("name", "language", "zoom"),
                         list(itertools.product(PANELS, ("zh", "en"), ZOOMS)))
def test_at_its_readable_size_every_text_reads_from_the_last_row(open_panel, on_stage, name,
                                                                 language, zoom):
    panel = staged(open_panel, on_stage, name, language, zoom)
    assert panel.look.stage
    assert panel.size() == panel.readable_size()
    problems = unreadable(panel)
    assert not problems, problems
    if name == "landscapes":  # room for every map's contour values and key names
        assert all(plot.detailed() for plot in panel.plots.values())


@pytest.mark.parametrize(("name", "scorer"),
                         list(itertools.product(("playground", "expansion"), SCORERS)))
def test_every_scorers_calculation_reads_whole(open_panel, on_stage, name, scorer):
    """Each scorer's own steps (the longest are QK-Norm's and the additive's) fit the
    readable size its page asks for, results and all."""
    panel = staged(open_panel, on_stage, name, "en", 1.0, scorer)
    problems = unreadable(panel)
    assert not problems, problems


@pytest.mark.parametrize("name", list(PANELS))
def test_much_smaller_than_readable_is_not_readable(open_panel, on_stage, name):
    panel = staged(open_panel, on_stage, name, "zh", 1.0)
    readable = panel.readable_size()
    fit(panel, readable * 0.55)
    lost = unreadable(panel)
    if name == "landscapes":
        lost += "".join("no labels" for plot in panel.plots.values() if not plot.detailed())
    assert lost


def shafts(panel) -> list[tuple[float, float, float, float]]:
    return [(0.0, 0.0, *arrow.tip) for arrow in panel.arrows.values() if arrow.tip != (0, 0)]


def assert_labels_clear(panel, of_arrows: bool) -> None:
    """No two labels the plane placed overlap (and, `of_arrows`, none lies across an arrow
    but its own name's)."""
    placed = {item: rect for item, rect in panel.placed.items() if item.isVisible()}
    assert len(placed) >= 4 + 2  # q, three keys, θ or |k|cos θ, a contour value at least
    for (a, first), (b, second) in itertools.combinations(placed.items(), 2):
        assert not overlaps(first, second), (a.toPlainText(), b.toPlainText())
    if of_arrows:
        names = {arrow.label for arrow in panel.arrows.values()}
        for item, rect in placed.items():
            if item in names:
                assert not any(crosses(rect, shaft) for shaft in shafts(panel)), \
                    item.toPlainText()


@pytest.mark.parametrize("zoom", ZOOMS)
def test_the_planes_labels_stay_clear_even_with_a_key_dragged_onto_q(open_panel, on_stage,
                                                                      zoom):
    panel = staged(open_panel, on_stage, "playground", "zh", zoom)
    document = panel.document
    assert_labels_clear(panel, of_arrows=True)  # the lesson's vectors
    seen_labels = {arrow.label for arrow in panel.arrows.values()}
    assert seen_labels <= set(panel.placed)
    document.begin_drag()
    for target in ([2.5, 2.5], list(document.state.dialogue_q)):  # on its way, then on q
        document.set_vector("k", 1, target)
        document.flush()
        settle()
        assert np.array_equal(panel.arrows[("k", 1)].tip, target)
        assert_labels_clear(panel, of_arrows=False)
        assert not overlapping(seen_texts(panel)), report(overlapping(seen_texts(panel)))
    document.end_drag()
    settle()
    assert_labels_clear(panel, of_arrows=False)
    assert not overlapping(seen_texts(panel))
