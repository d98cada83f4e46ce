"""Owns the attention-evolution timeline: its stages, their sources, figures and live options.

Pure data, no text: each stage names the `lesson_figures()` keys its card prints, the claims it
quotes, and the options it sets on the document so the live views show that stage. The UI
turns ids into words through its string tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from app.model.lesson.data import LessonData
from app.model.lesson.figures import EXAMPLE
from app.model.memory import Scheme, kv_cache, linear_state_bytes
from app.model.modelconfig import ModelConfig

__all__ = [
    "BASE_OPTIONS",
    "STAGES",
    "TRACKS",
    "KVBar",
    "Milestone",
    "Track",
    "kv_bars",
    "kv_context",
    "stage",
    "stage_changes",
    "stages_of",
]

Track = Literal["training", "generation"]
TRACKS: tuple[Track, ...] = ("training", "generation")

Panel = Literal["none", "weights", "heads", "rope", "sink", "kv"]
"""Which live widget the expanded card shows beside its text."""

BASE_OPTIONS: MappingProxyType[str, object] = MappingProxyType({
    "heatmap_mode": "scores",
    "causal": False,
    "heads": 1,
    "sink_logit": None,
    "rope": False,
    "q_scale": 1.0,  # weights at q's own length, from the projected Q·Kᵀ
    "heatmap_source": "qk",
})
"""Every stage starts from these, so moving back and forth along the track is reproducible."""


@dataclass(frozen=True)
class Milestone:
    """One card of the timeline and what choosing it does to the live views."""

    id: str
    track: Track
    year: int | None
    source: str  # citations only, as published (untranslated, so no prose); "" for none
    figures: tuple[str, ...]  # lesson_figures() keys the card prints
    claims: tuple[str, ...] = ()  # reported figures (claim ids) the card quotes
    options: MappingProxyType[str, object] = field(default_factory=lambda: MappingProxyType({}))
    world: Literal["dialogue", "teaching"] | None = None
    scorer: str | None = None
    panel: Panel = "none"
    here: bool = False  # the stages this lesson covers: "you are here"
    split_heads: bool = False  # use the teaching world's own head count
    kv_context: str | None = None  # the KV chart's length: "anchor", a model key or "long"


def _options(**changes: object) -> MappingProxyType[str, object]:
    return MappingProxyType(changes)


STAGES: tuple[Milestone, ...] = (
    Milestone("rnn", "training", None, "Elman 1990; Sutskever et al. 2014",
          ("rnn_serial_steps", "rnn_hops_first_to_last")),
    Milestone("additive", "training", 2014, "Bahdanau, Cho & Bengio 2014",
          ("additive_intermediate_gib", "dot_scores_mib"),
          world="teaching", scorer="additive", here=True),
    Milestone("self_attention", "training", 2017, "Vaswani et al. 2017, §3.2",
          ("embed_cos_self", "embed_rank_last3", "qk_rank_top3", "names_k_cos",
           "anchor_head_dim", "unscaled_dot_std", "exp_20"),
          world="teaching", scorer="dot", here=True),
    Milestone("scaled_softmax", "training", 2017, "Vaswani et al. 2017, eq. (1)",
          ("dialogue_scores", "dialogue_car_share_proportional", "anchor_head_dim",
           "unscaled_dot_std", "unmasked_weight_on_answer"),
          options=_options(heatmap_mode="weights"), world="teaching", scorer="scaled_dot",
          panel="weights"),
    Milestone("causal", "training", 2017, "Vaswani et al. 2017, §3.2.3",
          ("causal_prefix_forwards", "causal_prefix_positions", "masked_weight_apple",
           "masked_weight_xiaoming"),
          options=_options(heatmap_mode="weights", causal=True), world="teaching",
          scorer="scaled_dot", panel="weights"),
    Milestone("rope", "training", 2021, "Su et al. 2021 (RoFormer)",
          ("anchor_head_dim", "anchor_rope_dims"),
          options=_options(rope=True), world="dialogue", scorer="dot", panel="rope"),
    Milestone("multi_head", "training", 2017, "Vaswani et al. 2017, §3.2.2",
          ("head_a_weight_xiaoming", "head_b_weight_apple", "anchor_q_heads",
           "anchor_head_dim", "nocache_kv_computations", "nocache_kv_repeated"),
          options=_options(heatmap_mode="weights", causal=True), world="teaching",
          scorer="scaled_dot", panel="heads", split_heads=True),
    Milestone("sink", "training", 2023, "Xiao et al. 2023 → Gated Attention 2025",
          ("apple_row_scaled", "apple_row_weights"),
          options=_options(heatmap_mode="weights", causal=True), world="teaching",
          scorer="scaled_dot", panel="sink"),
    Milestone("kv_cache", "generation", None, "",
          ("nocache_kv_computations", "cache_kv_computations", "anchor_full_layers",
           "anchor_q_heads", "anchor_head_dim", "anchor_mha_kib_per_token",
           "anchor_mha_gib_native"),
          panel="kv", kv_context="anchor"),
    Milestone("mqa", "generation", 2019, "Shazeer 2019",
          ("anchor_mqa_kib_per_token", "anchor_mqa_gib_native"),
          claims=("gqa_t5xxl_mha_avg", "gqa_t5xxl_mqa_avg"), panel="kv", kv_context="anchor"),
    Milestone("gqa", "generation", 2023, "Ainslie et al. 2023",
          ("anchor_q_heads", "anchor_kv_groups", "anchor_gqa_kib_per_token",
           "anchor_gqa_gib_native", "dsllm67b_bytes_per_token", "dsllm67b_mha_bytes_per_token",
           "dsllm67b_gib_1m"),
          claims=("gqa_t5xxl_gqa8_avg", "gqa_t5xxl_gqa8_time", "gqa_t5xxl_mha_avg",
                  "gqa_t5xxl_mha_time", "gqa_t5xxl_mqa_time"),
          panel="kv", kv_context="anchor"),
    Milestone("mla", "generation", 2024, "DeepSeek-AI 2024 (V2) → V3, GLM-5.3",
          ("mla_numbers_per_layer", "dsv2_bytes_per_token", "dsv3_bytes_per_token",
           "dsv2_vs_67b_reduction_pct", "glm53_bytes_per_token", "glm53_gib_native"),
          claims=("dsv2_kv_reduction_vs_67b",), panel="kv", kv_context="glm-5.3"),
    Milestone("linear", "generation", None, "DeepSeek-V4.1",
          ("anchor_linear_layers", "anchor_full_layers", "anchor_linear_state_mib"),
          claims=("dsv41_global_kv_per_token",), panel="kv", kv_context="long"),
)

_BY_ID = {s.id: s for s in STAGES}


def stage(stage_id: str) -> Milestone:
    """The stage with this id; KeyError names the unknown id."""
    try:
        return _BY_ID[stage_id]
    except KeyError:
        raise KeyError(f"no timeline stage {stage_id!r}") from None


def stages_of(track: Track) -> tuple[Milestone, ...]:
    return tuple(s for s in STAGES if s.track == track)


def kv_context(stage_id: str, data: LessonData) -> int | None:
    """How many tokens the KV chart shows for a stage: the context its card talks about (the
    anchor's native length, a model's native length, or the lesson's long example)."""
    where = stage(stage_id).kv_context
    if where is None:
        return None
    if where == "long":
        return EXAMPLE["long_context"]
    model = data.anchor if where == "anchor" else data.frontier.models[where]
    return model.max_position_embeddings


def stage_changes(stage_id: str, n_heads: int) -> dict[str, object]:
    """The full option set a stage installs: the base options, its own, and its id.

    `n_heads` is the teaching world's head count, used by the stage that splits heads.
    """
    chosen = stage(stage_id)
    heads = {"heads": n_heads} if chosen.split_heads else {}
    return {**BASE_OPTIONS, **chosen.options, **heads, "stage": chosen.id}


@dataclass(frozen=True)
class KVBar:
    """One bar pair of the KV chart: what a scheme stores per token, and what never grows."""

    id: str  # "anchor_mha", "dsv2_mla", …: the UI's label keys are chosen by it
    model: str  # the model's key in the data ("anchor" for the anchor)
    scheme: str  # "MHA", "MQA", "GQA", "MLA" or "state"
    per_token: int  # bytes each token adds (0 for a fixed state)
    fixed: int  # bytes held whatever the length (the linear layers' state)
    stages: tuple[str, ...]  # the stages that highlight this bar

    def bytes_for(self, tokens: int) -> int:
        """Memory for one sequence of `tokens` tokens."""
        return self.per_token * tokens + self.fixed


def kv_bars(data: LessonData) -> tuple[KVBar, ...]:
    """The chart's bars, each computed from a model config by app.model.memory."""
    anchor, models = data.anchor, data.frontier.models

    def cache(key: str, model: ModelConfig, scheme: Scheme, stages: tuple[str, ...]) -> KVBar:
        return KVBar(f"{key}_{scheme.lower()}", key, scheme,
                     kv_cache(model, scheme).bytes_per_token, 0, stages)

    return (
        cache("anchor", anchor, "MHA", ("kv_cache",)),
        cache("anchor", anchor, "MQA", ("mqa",)),
        cache("anchor", anchor, "GQA", ("gqa",)),
        KVBar("anchor_state", "anchor", "state", 0, linear_state_bytes(anchor), ("linear",)),
        cache("deepseek-llm-67b", models["deepseek-llm-67b"], "GQA", ("gqa", "mla")),
        cache("deepseek-v2", models["deepseek-v2"], "MLA", ("mla",)),
        cache("deepseek-v3", models["deepseek-v3"], "MLA", ("mla",)),
        cache("glm-5.3", models["glm-5.3"], "MLA", ("mla",)),
    )
