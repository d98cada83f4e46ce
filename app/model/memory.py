"""Owns memory and work counts: KV-cache bytes (MHA/MQA/GQA/MLA), linear-attention state,
the additive intermediate tensor, and the K/V computations of decoding with and without cache.

All sizes are exact integers in bytes; converting to KiB/MiB/GiB (powers of 1024) is left to
the caller, so a figure can be compared at the precision the lesson prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.model.modelconfig import ModelConfig
from app.model.scoring.additive import naive_intermediate_bytes

__all__ = [
    "GIB",
    "KIB",
    "MIB",
    "KVCache",
    "Scheme",
    "additive_intermediate_bytes",
    "cache_kv_computations",
    "causal_prefix_forwards",
    "causal_prefix_positions",
    "kv_cache",
    "linear_state_bytes",
    "nocache_kv_computations",
    "nocache_kv_repeated",
    "reduction_pct",
    "score_matrix_bytes",
]

KIB = 1024
MIB = 1024**2
GIB = 1024**3

Scheme = Literal["MHA", "MQA", "GQA", "MLA"]


@dataclass(frozen=True)
class KVCache:
    """What one token adds to the cache: `numbers_per_layer` values in each of `layers` layers."""

    scheme: Scheme
    layers: int
    kv_heads: int | None  # None for MLA, which stores a latent instead of per-head K and V
    numbers_per_layer: int
    dtype_bytes: int

    @property
    def bytes_per_token(self) -> int:
        return self.layers * self.numbers_per_layer * self.dtype_bytes

    def bytes_for(self, tokens: int) -> int:
        """Cache for one sequence of `tokens` tokens: grows linearly, which is the whole problem."""
        _count("tokens", tokens)
        return self.bytes_per_token * tokens

    def bytes_per_token_at(self, bits: float) -> float:
        """Per-token bytes if every cached number were stored in `bits` bits instead of the
        config's dtype: how a reported size that "includes KV quantization" is reproduced
        (DeepSeek-V2's −93.3 % assumes about 6 bits)."""
        if not (isinstance(bits, (int, float)) and not isinstance(bits, bool) and 0 < bits <= 64):
            raise ValueError(f"bits must be a number in (0, 64], got {bits!r}")
        return self.layers * self.numbers_per_layer * bits / 8


def _count(name: str, value: int, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"{name} must be an int ≥ {minimum}, got {value!r}")
    return value


def _need(cfg: ModelConfig, name: str) -> int:
    value = getattr(cfg, name)
    if value is None:
        raise ValueError(f"{cfg.display_name}: config has no {name}")
    return int(value)


def kv_cache(cfg: ModelConfig, scheme: Scheme, groups: int | None = None) -> KVCache:
    """Per-token KV cache of `cfg`'s full-attention layers under `scheme`.

    MHA keeps one K and one V per query head; MQA one shared pair; GQA one pair per group
    (default: the config's num_key_value_heads); MLA a latent of kv_lora_rank numbers plus the
    qk_rope_head_dim decoupled RoPE key per layer. Linear-attention layers of a hybrid model
    keep no KV cache and are not counted (see `linear_state_bytes`).
    """
    layers = cfg.full_attention_layers
    if scheme == "MLA":
        latent = _need(cfg, "kv_lora_rank") + _need(cfg, "qk_rope_head_dim")
        return KVCache("MLA", layers, None, latent, cfg.dtype_bytes)
    heads = _need(cfg, "num_attention_heads")
    head_dim = _need(cfg, "head_dim")
    if scheme == "MHA":
        kv_heads = heads
    elif scheme == "MQA":
        kv_heads = 1
    elif scheme == "GQA":
        kv_heads = _need(cfg, "num_key_value_heads") if groups is None else groups
        _count("groups", kv_heads, minimum=1)
        if heads % kv_heads:
            raise ValueError(f"{heads} query heads cannot be split into {kv_heads} equal groups")
    else:
        raise ValueError(f"unknown KV scheme {scheme!r}; expected MHA, MQA, GQA or MLA")
    return KVCache(scheme, layers, kv_heads, 2 * kv_heads * head_dim, cfg.dtype_bytes)


def reduction_pct(smaller: float, larger: float) -> float:
    """How much smaller, in percent of the larger (82.2 means "82.2 % less"): one sign
    convention for every saving the timeline prints, computed or reported."""
    if larger <= 0:
        raise ValueError(f"the larger size must be positive, got {larger!r}")
    return 100 * (1 - smaller / larger)


def linear_state_bytes(cfg: ModelConfig) -> int:
    """Fixed recurrent state of the linear-attention layers for one sequence, any length.

    Each layer keeps, per value head, a key_dim × value_dim matrix (in float32 for the anchor):
    it replaces "store every K and V" and is why those layers do not grow with context.
    """
    if cfg.linear_attention_layers == 0:
        return 0
    return (
        cfg.linear_attention_layers
        * _need(cfg, "linear_num_value_heads")
        * _need(cfg, "linear_key_head_dim")
        * _need(cfg, "linear_value_head_dim")
        * _need(cfg, "recurrent_state_dtype_bytes")
    )


def additive_intermediate_bytes(T: int, d_a: int, dtype_bytes: int) -> int:
    """T×T×d_a tensor that naive additive attention materialises before tanh (one head)."""
    _count("dtype_bytes", dtype_bytes)
    return naive_intermediate_bytes(_count("T", T), T, _count("d_a", d_a), dtype_bytes)


def score_matrix_bytes(T: int, dtype_bytes: int) -> int:
    """The T×T scores a dot product leaves behind: d_a times smaller than the additive tensor."""
    return _count("T", T) ** 2 * _count("dtype_bytes", dtype_bytes)


def nocache_kv_computations(prompt: int, generate: int) -> int:
    """K/V pairs computed when every decoding step re-feeds the whole sequence.

    Step i (0-based) feeds prompt + i tokens to produce the next one; the last generated token
    is never fed. Prompt 2, generate 3: 2 + 3 + 4 = 9.
    """
    _count("prompt", prompt)
    return sum(prompt + i for i in range(_count("generate", generate)))


def cache_kv_computations(prompt: int, generate: int) -> int:
    """K/V pairs computed with a KV cache: each fed token exactly once (prompt + generate − 1)."""
    _count("prompt", prompt)
    if _count("generate", generate) == 0:
        return 0
    return prompt + generate - 1


def nocache_kv_repeated(prompt: int, generate: int) -> int:
    """Of the no-cache computations, how many redo a K/V an earlier step already had."""
    return nocache_kv_computations(prompt, generate) - cache_kv_computations(prompt, generate)


def causal_prefix_forwards(T: int) -> int:
    """Forward passes to train on every prefix of a T-token sentence one prefix at a time."""
    return _count("T", T)


def causal_prefix_positions(T: int) -> int:
    """Positions processed by those passes, 1 + 2 + … + T; a causal mask does it in one pass."""
    return _count("T", T) * (T + 1) // 2
