"""Owns every number the lesson prints: computed from data/*.json at call time, beside the value
the lesson publishes, so a test (and the UI) can see that text and data agree.

Only published values and the lesson's stated example parameters (T = 4096, d_a = 256, …) are
typed in here; everything else comes from the data files through the model functions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property
from pathlib import Path
from typing import Literal, cast

import numpy as np

from app.model.attention import attention_weights, split_heads
from app.model.embeddings import embedding_cosines
from app.model.errors import DataError
from app.model.jsonfile import join
from app.model.lesson.data import LessonData, ModelConfig, load_lesson_data
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
    reduction_pct,
    score_matrix_bytes,
)
from app.model.scoring import Undefined, score_matrix, score_pair

__all__ = [
    "EXAMPLE",
    "PUBLISHED",
    "Comparison",
    "Figure",
    "decimals_of",
    "lesson_figures",
    "live_teaching_figures",
    "rounds_to",
]

Comparison = Literal["equal", "at_most", "set", "order"]
Value = float | int | tuple[float, ...] | tuple[str, ...]

EXAMPLE = {
    "rnn_T": 4096,  # the example length of lesson 2 and side path B1
    "additive_d_a": 256,
    "exp_gap": 20,  # "a gap of twenty in one row is common": e^20
    "prompt": 2,
    "generate": 3,
    "long_context": 1048576,  # "1M tokens" for DeepSeek LLM 67B
}
"""Parameters the lesson states as its examples; they are inputs, not results."""

_E: Comparison = "equal"
_A: Comparison = "at_most"
_S: Comparison = "set"
_O: Comparison = "order"
PUBLISHED: dict[str, tuple[str | tuple[str, ...], str, str, Comparison]] = {
    # the two worlds
    "dialogue_scores": (("10", "3", "-4"), "score", "q·k for the three keys, in file order", _E),
    "dialogue_car_cos_max": ("-0.9", "cos", "cosine of q with 汽车 is at most this", _A),
    "dialogue_car_share_proportional": ("-44.4", "pct", "-4 / (10 + 3 - 4): why dividing by "
                                        "the sum fails", _E),
    "embed_cos_self": ("1.000", "cos", "cos(e_给了, e_给了)", _E),
    "embed_rank_last3": (("小明", "苹果", "小王"), "set", "the three tokens least similar to "
                         "给了 by embedding cosine", _S),
    "qk_rank_top3": (("苹果", "小王", "小明"), "order", "top three keys for q_给了 by q·k", _O),
    "given_row_scaled": (("1.84", "-1.04", "2.2", "-1.2", "2.04"), "score",
                         "q_给了·k_j / √4 for j = 0..4", _E),
    "names_k_cos": ("0.995", "cos", "cos(k_小明, k_小王): keys alone can't tell the names apart",
                    _E),
    "unmasked_weight_on_answer": ("32.5", "pct", "给了 row, no mask: weight on 小王", _E),
    "masked_weight_apple": ("56.5", "pct", "给了 row, causal mask: weight on 苹果", _E),
    "masked_weight_xiaoming": ("39.4", "pct", "给了 row, causal mask: weight on 小明", _E),
    "head_a_weight_xiaoming": ("89.5", "pct", "head A (dims 0–1, causal, ÷√2): 给了 on 小明", _E),
    "head_b_weight_apple": ("77.0", "pct", "head B (dims 2–3, causal, ÷√2): 给了 on 苹果", _E),
    "apple_row_scaled": (("0.04", "0.36", "0.00"), "score", "q_苹果·k_j / √4, j = 0..2", _E),
    "apple_row_weights": (("30", "41", "29"), "pct", "softmax of that row: the sink problem", _E),
    # shapes and memory
    "sentence_pairs": ("25", "pairs", "T² for T = 5", _E),
    "anchor_pairs_per_head": ("68719476736", "pairs", "262144²", _E),
    "anchor_head_dim": ("256", "dims", "head_dim", _E),
    "anchor_rope_dims": ("64", "dims", "head_dim × partial_rotary_factor", _E),
    "anchor_q_heads": ("24", "heads", "num_attention_heads", _E),
    "anchor_kv_groups": ("4", "groups", "num_key_value_heads; 6 query heads per group", _E),
    "rnn_serial_steps": ("4096", "steps", "T = 4096 example length", _E),
    "rnn_hops_first_to_last": ("4095", "updates", "T - 1", _E),
    "additive_intermediate_gib": ("8.0", "GiB", "T × T × d_a × 2 B, T = 4096, d_a = 256", _E),
    "dot_scores_mib": ("32", "MiB", "T × T × 2 B", _E),
    "unscaled_dot_std": ("16", "std", "√head_dim for unit-variance q, k", _E),
    "exp_20": ("4.9e8", "ratio", "e^20", _E),
    "causal_prefix_forwards": ("5", "forwards", "T prefixes fed one by one", _E),
    "causal_prefix_positions": ("15", "positions", "1 + 2 + … + T", _E),
    "nocache_kv_computations": ("9", "K/V", "prompt 2, generate 3: 2 + 3 + 4", _E),
    "nocache_kv_repeated": ("5", "K/V", "of those, already computed a step before", _E),
    "cache_kv_computations": ("4", "K/V", "with a KV cache", _E),
    "anchor_mha_kib_per_token": ("384", "KiB", "full layers × 2 × 24 heads × 256 × 2 B", _E),
    "anchor_mha_gib_native": ("96", "GiB", "MHA × 262144 tokens", _E),
    "anchor_mqa_kib_per_token": ("16", "KiB", "one KV head", _E),
    "anchor_mqa_gib_native": ("4", "GiB", "MQA × 262144 tokens", _E),
    "anchor_gqa_kib_per_token": ("64", "KiB", "4 KV heads", _E),
    "anchor_gqa_gib_native": ("16", "GiB", "GQA × 262144 tokens", _E),
    "dsllm67b_bytes_per_token": ("389120", "B", "95 × 2 × 8 × 128 × 2", _E),
    "dsllm67b_mha_bytes_per_token": ("3112960", "B", "64 KV heads", _E),
    "dsllm67b_gib_1m": ("380", "GiB", "× 1048576 tokens", _E),
    "mla_numbers_per_layer": ("576", "numbers", "kv_lora_rank + qk_rope_head_dim", _E),
    "dsv2_bytes_per_token": ("69120", "B", "60 × 576 × 2", _E),
    "dsv3_bytes_per_token": ("70272", "B", "61 × 576 × 2", _E),
    "dsv2_vs_67b_reduction_pct": ("82.2", "pct", "1 - 69120 / 389120 (BF16 both)", _E),
    "glm53_bytes_per_token": ("89856", "B", "78 × 576 × 2", _E),
    "glm53_gib_native": ("87.75", "GiB", "× 1048576 native context", _E),
    "anchor_linear_state_mib": ("144", "MiB", "linear layers × heads × 128 × 128 × 4 B, any "
                                "length", _E),
    "anchor_linear_layers": ("48", "layers", "layers with a fixed state instead of a KV cache",
                             _E),
    "anchor_full_layers": ("16", "layers", "layers that keep a KV cache", _E),
}
"""key -> (published as printed, unit, meaning, comparison), in the lesson's order."""



def decimals_of(published: str) -> tuple[int, bool]:
    """(decimals, scientific) as printed: "1.84" -> (2, False), "4.9e8" -> (1, True)."""
    text = published.replace("−", "-").lower()
    mantissa = text.split("e")[0]
    return (len(mantissa.split(".")[1]) if "." in mantissa else 0), "e" in text


def rounds_to(value: float, published: str) -> bool:
    """True when `value` printed the way `published` is printed gives `published`.

    Rounding is half-up on the shortest decimal form of the float, which is how a reader
    rounds the number they see; -0.00 and 0.00 are the same print.
    """
    places, scientific = decimals_of(published)
    target = Decimal(published.replace("−", "-"))
    if scientific:
        return f"{value:.{places}e}" == f"{float(target):.{places}e}"
    step = Decimal(1).scaleb(-places)
    return Decimal(repr(float(value))).quantize(step, rounding=ROUND_HALF_UP) == target


@dataclass(frozen=True)
class Figure:
    """One printed number: `value` computed now, `published` as the lesson prints it.

    `published` is the printed text (a tuple of texts for lists and token sets), so its
    precision is explicit. `comparison`: "equal" at the printed precision, "at_most" for a
    bound, "set"/"order" for token names.
    """

    key: str
    value: Value
    published: str | tuple[str, ...]
    unit: str
    meaning: str
    comparison: Comparison = "equal"

    def matches(self) -> bool:
        """Does the computed value print as the published one (or satisfy the bound)?"""
        # The comparison says the value's shape: token names or a list for a tuple published,
        # one number otherwise (a mismatch is a bug in the table, and raises TypeError here).
        if self.comparison == "set":
            return set(cast("tuple[str, ...]", self.value)) == set(self.published)
        if self.comparison == "order":
            return tuple(cast("tuple[str, ...]", self.value)) == tuple(self.published)
        if self.comparison == "at_most":
            return float(cast(float, self.value)) <= float(
                str(self.published).replace("−", "-"))
        if isinstance(self.published, tuple):
            values = tuple(cast("tuple[float, ...]", self.value))
            return len(values) == len(self.published) and all(
                rounds_to(v, p) for v, p in zip(values, self.published, strict=True))
        return rounds_to(float(cast(float, self.value)), self.published)


LESSON_MODELS = {
    "deepseek-llm-67b": ("num_attention_heads", "num_key_value_heads", "head_dim"),
    "deepseek-v2": ("kv_lora_rank", "qk_rope_head_dim"),
    "deepseek-v3": ("kv_lora_rank", "qk_rope_head_dim"),
    "glm-5.3": ("kv_lora_rank", "qk_rope_head_dim", "max_position_embeddings"),
}
"""Frontier models the lesson cites, and the config fields their figures are computed from."""


def _lesson_models(data: LessonData) -> dict[str, ModelConfig]:
    """The cited models, or a DataError naming the entry a teacher removed from the file."""
    frontier = data.frontier
    for key, fields in LESSON_MODELS.items():
        where = join("models", key)
        if key not in frontier.models:
            raise DataError(frontier.path, where, "is required: the lesson cites this model")
        for name in fields:
            if getattr(frontier.models[key], name) is None:
                raise DataError(frontier.path, join(where, name), "is required by the lesson")
    return dict(frontier.models)


def _number(x: float | Undefined) -> float:
    """An undefined cosine (a zero vector someone typed in) shows as NaN, which never matches."""
    return math.nan if isinstance(x, Undefined) else float(x)


def _dialogue(data: LessonData) -> dict[str, Value]:
    world = data.dialogue
    scores = np.asarray(score_matrix("dot", world.q[None, :], world.keys))[0]
    car = world.key_index("opposite")
    total = float(scores.sum())
    return {
        "dialogue_scores": tuple(float(s) for s in scores),
        "dialogue_car_cos_max": _number(score_pair("cosine", world.q, world.keys[car])),
        "dialogue_car_share_proportional": 100 * float(scores[car]) / total if total else math.nan,
    }


def _teaching(data: LessonData) -> dict[str, Value]:
    return _teaching_at(data, data.teaching.Q, data.teaching.K)


def live_teaching_figures(data: LessonData, Q: np.ndarray, K: np.ndarray,
                          keys: Collection[str] | None = None) -> dict[str, Figure]:
    """The teaching world's figures recomputed at the class's Q and K (the same computation
    as the lesson's), so a card can show what the live bars show beside what the lesson
    printed; only those of `keys` when given (a card quotes a few, at every drag step).
    Empty when Q, K no longer have the data's shape (a reshaped world has no such
    figures)."""
    world = data.teaching
    if np.shape(Q) != world.Q.shape or np.shape(K) != world.K.shape:
        return {}
    values = _teaching_at(data, np.asarray(Q, dtype=float), np.asarray(K, dtype=float), keys)
    published = {key: PUBLISHED[key] for key in values}
    return {key: Figure(key, values[key], *published[key]) for key in values}


class _TeachingAt:
    """The teaching world's rows and matrices at one Q, K, each worked out when a figure
    first reads it."""

    def __init__(self, data: LessonData, Q: np.ndarray, K: np.ndarray) -> None:
        world = self.world = data.teaching
        self.Q, self.K = Q, K
        self.names = world.tokens
        self.qi, self.obj = world.index("query"), world.index("object")
        self.giver, self.answer = world.index("giver"), world.index("answer")

    @cached_property
    def embed(self) -> np.ndarray:
        cosines = embedding_cosines(self.world.E)
        return np.ma.filled(cosines[self.qi].astype(float), np.nan)

    @cached_property
    def scaled(self) -> np.ndarray:
        return np.asarray(score_matrix("scaled_dot", self.Q, self.K))

    @cached_property
    def causal(self) -> np.ndarray:
        return attention_weights(self.Q, self.K, scale=True, causal=True)

    def head(self, index: int) -> np.ndarray:
        heads = self.world.n_heads
        q_heads, k_heads = split_heads(self.Q, heads), split_heads(self.K, heads)
        return attention_weights(q_heads[index], k_heads[index], scale=True, causal=True)


def _last3(at: _TeachingAt) -> tuple[str, ...]:
    others = [j for j in np.argsort(at.embed, kind="stable") if j != at.qi]
    return tuple(at.names[j] for j in sorted(others[:3]))


def _top3(at: _TeachingAt) -> tuple[str, ...]:
    dots = np.asarray(score_matrix("dot", at.Q, at.K))[at.qi]
    return tuple(at.names[j] for j in np.argsort(-dots, kind="stable")[:3])


_TEACHING_FIGURES: dict[str, Callable[[_TeachingAt], Value]] = {
    "embed_cos_self": lambda at: float(at.embed[at.qi]),
    "embed_rank_last3": _last3,
    "qk_rank_top3": _top3,
    "given_row_scaled": lambda at: tuple(float(s) for s in at.scaled[at.qi]),
    "names_k_cos": lambda at: _number(score_pair("cosine", at.K[at.giver], at.K[at.answer])),
    "unmasked_weight_on_answer": lambda at: 100 * float(
        attention_weights(at.Q, at.K, scale=True)[at.qi, at.answer]),
    "masked_weight_apple": lambda at: 100 * float(at.causal[at.qi, at.obj]),
    "masked_weight_xiaoming": lambda at: 100 * float(at.causal[at.qi, at.giver]),
    "head_a_weight_xiaoming": lambda at: 100 * float(at.head(0)[at.qi, at.giver]),
    "head_b_weight_apple": lambda at: 100 * float(at.head(-1)[at.qi, at.obj]),
    "apple_row_scaled": lambda at: tuple(float(s) for s in at.scaled[at.obj, : at.obj + 1]),
    "apple_row_weights": lambda at: tuple(100 * float(w)
                                          for w in at.causal[at.obj, : at.obj + 1]),
}
"""Each teaching-world figure from the arrays at one Q, K."""


def _teaching_at(data: LessonData, Q: np.ndarray, K: np.ndarray,
                 keys: Collection[str] | None = None) -> dict[str, Value]:
    at = _TeachingAt(data, Q, K)
    return {key: figure(at) for key, figure in _TEACHING_FIGURES.items()
            if keys is None or key in keys}


def _required(value: int | None) -> int:
    """A field the loader already required (the anchor is read with require_attention, the
    cited models' fields are checked by `_lesson_models`): never None here."""
    if value is None:
        raise ValueError("a model field the lesson requires is missing")
    return value


def _shapes(data: LessonData) -> dict[str, Value]:
    anchor, T = data.anchor, len(data.teaching.tokens)
    rnn_T, d_a = EXAMPLE["rnn_T"], EXAMPLE["additive_d_a"]
    prompt, generate = EXAMPLE["prompt"], EXAMPLE["generate"]
    return {
        "sentence_pairs": T * T,
        "anchor_pairs_per_head": _required(anchor.max_position_embeddings)**2,
        "anchor_head_dim": _required(anchor.head_dim),
        "anchor_rope_dims": _required(anchor.rotary_dims),
        "anchor_q_heads": _required(anchor.num_attention_heads),
        "anchor_kv_groups": _required(anchor.num_key_value_heads),
        "rnn_serial_steps": rnn_T,
        "rnn_hops_first_to_last": rnn_T - 1,
        "additive_intermediate_gib": additive_intermediate_bytes(rnn_T, d_a, anchor.dtype_bytes)
        / GIB,
        "dot_scores_mib": score_matrix_bytes(rnn_T, anchor.dtype_bytes) / MIB,
        "unscaled_dot_std": math.sqrt(_required(anchor.head_dim)),
        "exp_20": math.exp(EXAMPLE["exp_gap"]),
        "causal_prefix_forwards": causal_prefix_forwards(T),
        "causal_prefix_positions": causal_prefix_positions(T),
        "nocache_kv_computations": nocache_kv_computations(prompt, generate),
        "nocache_kv_repeated": nocache_kv_repeated(prompt, generate),
        "cache_kv_computations": cache_kv_computations(prompt, generate),
    }


def _memory(data: LessonData) -> dict[str, Value]:
    anchor, models = data.anchor, _lesson_models(data)
    native = _required(anchor.max_position_embeddings)
    out: dict[str, Value] = {}
    for scheme in ("MHA", "MQA", "GQA"):
        cache = kv_cache(anchor, scheme)
        out[f"anchor_{scheme.lower()}_kib_per_token"] = cache.bytes_per_token / KIB
        out[f"anchor_{scheme.lower()}_gib_native"] = cache.bytes_for(native) / GIB
    m67 = models["deepseek-llm-67b"]
    gqa67 = kv_cache(m67, "GQA")
    v2, v3, glm = (kv_cache(models[k], "MLA") for k in ("deepseek-v2", "deepseek-v3", "glm-5.3"))
    out.update({
        "dsllm67b_bytes_per_token": gqa67.bytes_per_token,
        "dsllm67b_mha_bytes_per_token": kv_cache(m67, "MHA").bytes_per_token,
        "dsllm67b_gib_1m": gqa67.bytes_for(EXAMPLE["long_context"]) / GIB,
        "mla_numbers_per_layer": v2.numbers_per_layer,
        "dsv2_bytes_per_token": v2.bytes_per_token,
        "dsv3_bytes_per_token": v3.bytes_per_token,
        "dsv2_vs_67b_reduction_pct": reduction_pct(v2.bytes_per_token, gqa67.bytes_per_token),
        "glm53_bytes_per_token": glm.bytes_per_token,
        "glm53_gib_native": glm.bytes_for(
            _required(models["glm-5.3"].max_position_embeddings)) / GIB,
        "anchor_linear_state_mib": linear_state_bytes(anchor) / MIB,
        "anchor_linear_layers": anchor.linear_attention_layers,
        "anchor_full_layers": anchor.full_attention_layers,
    })
    return out


def lesson_figures(data_dir: Path | None = None) -> dict[str, Figure]:
    """Every figure the lesson prints, computed now from the files in `data_dir` (default data/)."""
    return figures_of(load_lesson_data(data_dir))


def figures_of(data: LessonData) -> dict[str, Figure]:
    """Every figure the lesson prints, computed from data already loaded (no disk access)."""
    values = {**_dialogue(data), **_teaching(data), **_shapes(data), **_memory(data)}
    missing = set(PUBLISHED) ^ set(values)
    if missing:  # a programming error, not a data error: the two tables must list the same keys
        raise AssertionError(f"figures without a published value or computation: {missing}")
    return {
        key: Figure(key, values[key], published, unit, meaning, comparison)
        for key, (published, unit, meaning, comparison) in PUBLISHED.items()
    }
