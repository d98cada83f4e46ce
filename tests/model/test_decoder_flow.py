"""The anchor decoder layer's flow: stages in order, shapes chained, parameters from the config."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.model.decoder_flow import SEQUENCE, STAGE_KEYS, decoder_stages
from app.model.lesson.data import load_anchor


@pytest.fixture(scope="module")
def anchor():
    return load_anchor()


def test_stages_follow_the_lesson_order(anchor):
    assert tuple(s.key for s in decoder_stages(anchor)) == STAGE_KEYS


def test_each_stage_consumes_what_an_earlier_stage_produced(anchor):
    produced = {"ids": (SEQUENCE,)}
    for stage in decoder_stages(anchor):
        for name, shape in stage.inputs:
            assert produced.get(name) == shape, (stage.key, name)
        produced.update(stage.outputs)


def test_shapes_and_parameters_come_from_the_config(anchor):
    stages = {s.key: s for s in decoder_stages(anchor)}
    hidden, d_h = anchor.hidden_size, anchor.head_dim
    heads, kv = anchor.num_attention_heads, anchor.num_key_value_heads
    assert dict(stages["qkv"].outputs) == {
        "Q": (SEQUENCE, heads, d_h), "K": (SEQUENCE, kv, d_h), "V": (SEQUENCE, kv, d_h),
    }
    assert stages["embedding"].params == anchor.vocab_size * hidden
    assert stages["norm"].params == hidden
    assert stages["qkv"].params == hidden * heads * d_h + 2 * hidden * kv * d_h
    assert stages["qk_norm"].params == 2 * d_h
    assert stages["output_gate"].params == hidden * heads * d_h
    assert stages["o_proj"].params == heads * d_h * hidden
    for key in ("rope", "scores", "softmax", "weighted_v"):
        assert stages[key].params == 0
    assert dict(stages["scores"].outputs) == {"S": (heads, SEQUENCE, SEQUENCE)}


def test_lesson_figures_of_the_anchor_shape(anchor):
    """Published: head_dim 256, 24 query heads, 64 of 256 dims rotated (published)."""
    stages = {s.key: s for s in decoder_stages(anchor)}
    assert dict(stages["qkv"].outputs)["Q"] == (SEQUENCE, 24, 256)
    assert anchor.rotary_dims == 64


def test_a_config_without_gate_or_qk_norm_keeps_the_steps_without_weights(anchor):
    plain = replace(anchor, attn_output_gate=False, use_qk_norm=None)
    stages = {s.key: s for s in decoder_stages(plain)}
    assert tuple(stages) == STAGE_KEYS
    assert stages["output_gate"].params == 0
    assert stages["qk_norm"].params == 0


def test_a_missing_field_is_named(anchor):
    with pytest.raises(ValueError, match="head_dim"):
        decoder_stages(replace(anchor, head_dim=None))
