"""The timeline's stage list: real figure keys and claims, options the document knows, KV bars."""

from __future__ import annotations

import math
from dataclasses import fields

import pytest

from app.model.lesson.data import load_lesson_data
from app.model.lesson.figures import lesson_figures
from app.model.memory import KIB, MIB
from app.model.state import Options
from app.model.timeline import BASE_OPTIONS, STAGES, TRACKS, kv_bars, stage, stage_changes

DATA = load_lesson_data()
FIGURES = lesson_figures()
N_HEADS = DATA.teaching.n_heads


def test_stage_ids_are_unique_and_both_tracks_are_used() -> None:
    ids = [s.id for s in STAGES]
    assert len(ids) == len(set(ids))
    assert {s.track for s in STAGES} == set(TRACKS)


def test_the_lesson_marks_additive_and_dot_product_self_attention_as_here() -> None:
    assert [s.id for s in STAGES if s.here] == ["additive", "self_attention"]


@pytest.mark.parametrize("item", STAGES, ids=lambda s: s.id)
def test_every_figure_and_claim_a_card_uses_exists(item) -> None:
    assert set(item.figures) <= set(FIGURES)
    claim_ids = {c.id for c in DATA.frontier.claims}
    assert set(item.claims) <= claim_ids


@pytest.mark.parametrize("item", STAGES, ids=lambda s: s.id)
def test_stage_options_are_document_options(item) -> None:
    names = {f.name for f in fields(Options)}
    changes = stage_changes(item.id, N_HEADS)
    assert set(changes) <= names
    assert changes["stage"] == item.id
    Options(**changes)  # every value is accepted by the dataclass


def test_causal_and_multi_head_stages_drive_the_right_options() -> None:
    causal = stage_changes("causal", N_HEADS)
    assert causal["causal"] is True and causal["heatmap_mode"] == "weights"
    heads = stage_changes("multi_head", N_HEADS)
    assert heads["heads"] == N_HEADS and heads["causal"] is True
    rope = stage_changes("rope", N_HEADS)
    assert rope["rope"] is True and stage("rope").world == "dialogue"
    back = stage_changes("rnn", N_HEADS)
    assert {k: back[k] for k in BASE_OPTIONS} == dict(BASE_OPTIONS)


def test_unknown_stage_is_a_clear_key_error() -> None:
    with pytest.raises(KeyError, match="no timeline stage"):
        stage("transformer-xl")


def test_kv_bars_match_the_lesson_figures_for_the_anchor() -> None:
    bars = {bar.id: bar for bar in kv_bars(DATA)}
    for scheme in ("mha", "mqa", "gqa"):
        expected = FIGURES[f"anchor_{scheme}_kib_per_token"].value * KIB
        assert bars[f"anchor_{scheme}"].per_token == expected
    state = bars["anchor_state"]
    assert state.per_token == 0
    fixed = FIGURES["anchor_linear_state_mib"].value * MIB
    assert state.bytes_for(1) == state.bytes_for(10**6) == fixed
    assert bars["deepseek-v2_mla"].per_token == FIGURES["dsv2_bytes_per_token"].value
    assert bars["glm-5.3_mla"].per_token == FIGURES["glm53_bytes_per_token"].value


def test_a_cache_grows_linearly_with_the_context() -> None:
    mha = next(bar for bar in kv_bars(DATA) if bar.id == "anchor_mha")
    native = DATA.anchor.max_position_embeddings
    assert mha.bytes_for(native) == FIGURES["anchor_mha_gib_native"].value * 1024**3
    assert math.isclose(mha.bytes_for(2 * native), 2 * mha.bytes_for(native))
