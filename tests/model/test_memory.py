"""KV-cache, state and work counts: exact bytes for the lesson's models, and the identities
that make GQA the family MHA and MQA belong to."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.model.lesson.data import load_anchor, load_frontier
from app.model.memory import (
    GIB,
    KIB,
    MIB,
    additive_intermediate_bytes,
    cache_kv_computations,
    causal_prefix_forwards,
    causal_prefix_positions,
    kv_cache,
    linear_state_bytes,
    nocache_kv_computations,
    nocache_kv_repeated,
    score_matrix_bytes,
)
from app.model.modelconfig import FULL_ATTENTION, LINEAR_ATTENTION, ModelConfig


def _config(layers: int, heads: int, kv_heads: int, head_dim: int, dtype: int,
            layer_types: tuple[str, ...] | None = None) -> ModelConfig:
    return ModelConfig(
        key="synthetic", display_name="synthetic", source="test", dtype_bytes=dtype,
        num_hidden_layers=layers, layer_types=layer_types or (FULL_ATTENTION,) * layers,
        num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=head_dim,
    )


def test_anchor_counts_only_its_full_attention_layers() -> None:
    anchor = load_anchor()
    assert (anchor.full_attention_layers, anchor.linear_attention_layers) == (16, 48)
    assert kv_cache(anchor, "MHA").bytes_per_token == 16 * 2 * 24 * 256 * 2
    assert kv_cache(anchor, "MQA").bytes_per_token == 16 * 2 * 1 * 256 * 2
    assert kv_cache(anchor, "GQA").bytes_per_token == 16 * 2 * 4 * 256 * 2
    assert kv_cache(anchor, "GQA").bytes_for(262144) == 16 * GIB
    assert linear_state_bytes(anchor) == 48 * 48 * 128 * 128 * 4 == 144 * MIB


def test_hybrid_layer_pattern_is_what_is_counted() -> None:
    anchor = load_anchor()
    all_full = dataclasses.replace(anchor, layer_types=(FULL_ATTENTION,) * 64)
    assert kv_cache(all_full, "MHA").bytes_per_token == 4 * kv_cache(anchor, "MHA").bytes_per_token
    assert linear_state_bytes(all_full) == 0
    half = dataclasses.replace(anchor, layer_types=(FULL_ATTENTION, LINEAR_ATTENTION) * 32)
    assert kv_cache(half, "MQA").bytes_per_token == 32 * 2 * 256 * 2
    assert linear_state_bytes(half) == 32 * 48 * 128 * 128 * 4


def test_frontier_models() -> None:
    models = load_frontier().models
    m67 = models["deepseek-llm-67b"]
    assert m67.head_dim == 8192 // 64  # derived the way Hugging Face derives it
    assert kv_cache(m67, "GQA").bytes_per_token == 95 * 2 * 8 * 128 * 2 == 389120
    assert kv_cache(m67, "MHA").bytes_per_token == 95 * 2 * 64 * 128 * 2
    v2 = kv_cache(models["deepseek-v2"], "MLA")
    assert (v2.numbers_per_layer, v2.kv_heads, v2.bytes_per_token) == (576, None, 60 * 576 * 2)
    assert kv_cache(models["glm-5.3"], "MLA").bytes_for(1048576) == 78 * 576 * 2 * 1048576
    with pytest.raises(ValueError, match="num_attention_heads"):
        kv_cache(models["glm-5.3"], "MHA")
    with pytest.raises(ValueError, match="kv_lora_rank"):
        kv_cache(m67, "MLA")


shapes = st.tuples(
    st.integers(1, 128),  # layers
    st.integers(1, 16),  # kv heads
    st.integers(1, 16),  # query heads per KV head
    st.integers(1, 512),  # head_dim
    st.sampled_from([1, 2, 4]),  # dtype bytes
)


@given(shapes)
def test_gqa_with_one_group_per_head_is_mha_and_with_one_group_is_mqa(shape) -> None:
    layers, kv_heads, per_group, head_dim, dtype = shape
    cfg = _config(layers, kv_heads * per_group, kv_heads, head_dim, dtype)
    heads = kv_heads * per_group
    assert kv_cache(cfg, "GQA", groups=heads).bytes_per_token == \
        kv_cache(cfg, "MHA").bytes_per_token
    assert kv_cache(cfg, "GQA", groups=1).bytes_per_token == kv_cache(cfg, "MQA").bytes_per_token
    gqa = kv_cache(cfg, "GQA")  # default: the config's num_key_value_heads
    assert gqa.kv_heads == kv_heads
    assert gqa.bytes_per_token * per_group == kv_cache(cfg, "MHA").bytes_per_token


@given(shapes, st.integers(0, 10**7))
def test_cache_grows_linearly_with_tokens(shape, tokens) -> None:
    layers, kv_heads, per_group, head_dim, dtype = shape
    cache = kv_cache(_config(layers, kv_heads * per_group, kv_heads, head_dim, dtype), "GQA")
    assert cache.bytes_for(tokens) == tokens * layers * 2 * kv_heads * head_dim * dtype


def test_groups_must_divide_heads() -> None:
    cfg = _config(2, 24, 4, 8, 2)
    with pytest.raises(ValueError, match="equal groups"):
        kv_cache(cfg, "GQA", groups=5)
    with pytest.raises(ValueError, match="groups"):
        kv_cache(cfg, "GQA", groups=0)
    with pytest.raises(ValueError, match="scheme"):
        kv_cache(cfg, "XQA")  # type: ignore[arg-type]


def test_additive_intermediate_is_d_a_times_the_score_matrix() -> None:
    assert additive_intermediate_bytes(4096, 256, 2) == 8 * GIB
    assert score_matrix_bytes(4096, 2) == 32 * MIB
    assert additive_intermediate_bytes(4096, 256, 2) == 256 * score_matrix_bytes(4096, 2)
    assert kv_cache(load_anchor(), "MHA").bytes_per_token == 384 * KIB


def _simulate_decoding(prompt: int, generate: int, cache: bool) -> tuple[int, int]:
    """Count K/V computations step by step, and how many recompute a known position."""
    known: set[int] = set()
    computed = repeated = 0
    length = prompt
    for _ in range(generate):
        fed = range(length) if not cache else [p for p in range(length) if p not in known]
        for position in fed:
            computed += 1
            repeated += position in known
            known.add(position)
        length += 1  # the new token joins the sequence; it is fed on the next step
    return computed, repeated


@given(st.integers(0, 40), st.integers(0, 40))
def test_decoding_counts_match_a_step_by_step_simulation(prompt: int, generate: int) -> None:
    computed, repeated = _simulate_decoding(prompt, generate, cache=False)
    assert nocache_kv_computations(prompt, generate) == computed
    assert nocache_kv_repeated(prompt, generate) == repeated
    cached, cached_repeats = _simulate_decoding(prompt, generate, cache=True)
    assert cache_kv_computations(prompt, generate) == cached and cached_repeats == 0


def test_lesson_decoding_example() -> None:
    assert (nocache_kv_computations(2, 3), nocache_kv_repeated(2, 3),
            cache_kv_computations(2, 3)) == (9, 5, 4)


@given(st.integers(0, 500))
def test_causal_prefix_counts(T: int) -> None:
    assert causal_prefix_forwards(T) == T
    assert causal_prefix_positions(T) == sum(len(range(t)) for t in range(1, T + 1))


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_counts_reject_nonsense(bad) -> None:
    with pytest.raises(ValueError):
        nocache_kv_computations(bad, 3)
    with pytest.raises(ValueError):
        score_matrix_bytes(bad, 2)
