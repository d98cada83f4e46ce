"""Owns `ModelConfig` (a model's attention shapes, Hugging Face field names) and `Claim`.

Configs and claims are kept apart on purpose: a config is something the app computes from
(bytes per token), a claim is a number a paper or model card reports, shown with its source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.model.jsonfile import JsonFile, join

__all__ = [
    "CLAIM_LIMIT",
    "CLAIM_PROVENANCES",
    "FULL_ATTENTION",
    "LINEAR_ATTENTION",
    "MAX_CONTEXT",
    "MODEL_PROVENANCES",
    "Claim",
    "ModelConfig",
    "read_claims",
    "read_model",
]

FULL_ATTENTION = "full_attention"
LINEAR_ATTENTION = "linear_attention"
MAX_CONTEXT = 2**31 - 1
"""Largest context length (max_position_embeddings): the shapes panel's T box is a Qt spin
box, which holds a signed 32-bit integer."""
MODEL_PROVENANCES = ("config", "lesson")
"""Where a model's numbers come from: a public config.json (named in `source`), or the lesson's
text alone (no public config to check them against)."""
CLAIM_PROVENANCES = ("reported", "lesson")
"""A claim is either reported in a public paper or model card, or stated by the lesson alone."""
MAX_KV_BITS = 32
CLAIM_LIMIT = 1e15
"""Largest reported value: the lesson prints a claim in full at its reported precision, and a
float below 10¹⁵ always has a plain (not exponent) shortest form that fits that printer."""

_INT_FIELDS = (
    "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim",
    "max_position_embeddings", "full_attention_interval", "linear_num_key_heads",
    "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
    "linear_conv_kernel_dim", "vocab_size", "kv_lora_rank", "q_lora_rank", "qk_rope_head_dim",
    "qk_nope_head_dim", "v_head_dim", "recurrent_state_dtype_bytes",
)
_LINEAR_NEEDS = (
    "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
    "recurrent_state_dtype_bytes",
)


@dataclass(frozen=True)
class Claim:
    """A reported figure (not computed here): value, unit and where it was reported."""

    id: str
    subject: str
    what: str
    value: float
    unit: str
    source: str
    provenance: str = "reported"  # one of CLAIM_PROVENANCES
    kv_bits: float | None = None  # the KV precision the reported figure assumes, when stated


@dataclass(frozen=True)
class ModelConfig:
    """Attention-relevant fields of one model's config.json, validated; None = not in the file.

    `layer_types` is always filled in (from the file, from `full_attention_interval`, or all
    full attention) so memory code never has to guess which layers keep a KV cache.
    `head_dim` is derived as hidden_size // num_attention_heads when absent, as Hugging Face
    does, except for MLA models where a per-head width is not what the cache stores.
    """

    key: str
    display_name: str
    source: str
    dtype_bytes: int
    num_hidden_layers: int
    layer_types: tuple[str, ...]
    hidden_size: int | None = None
    num_attention_heads: int | None = None
    num_key_value_heads: int | None = None
    head_dim: int | None = None
    partial_rotary_factor: float | None = None
    rope_theta: float | None = None
    max_position_embeddings: int | None = None
    attn_output_gate: bool | None = None
    use_qk_norm: bool | None = None
    rms_norm_eps: float | None = None
    full_attention_interval: int | None = None
    linear_num_key_heads: int | None = None
    linear_num_value_heads: int | None = None
    linear_key_head_dim: int | None = None
    linear_value_head_dim: int | None = None
    linear_conv_kernel_dim: int | None = None
    vocab_size: int | None = None
    kv_lora_rank: int | None = None
    q_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    qk_nope_head_dim: int | None = None
    v_head_dim: int | None = None
    recurrent_state_dtype_bytes: int | None = None
    claims: tuple[Claim, ...] = ()
    provenance: str = "config"  # one of MODEL_PROVENANCES
    config_of: str | None = None  # the public model whose config gives the numbers, if another

    @property
    def full_attention_layers(self) -> int:
        """Layers that keep a KV cache (all of them unless the model is hybrid)."""
        return self.layer_types.count(FULL_ATTENTION)

    @property
    def linear_attention_layers(self) -> int:
        """Layers that keep a fixed-size state instead of a KV cache."""
        return self.layer_types.count(LINEAR_ATTENTION)

    @property
    def rotary_dims(self) -> int | None:
        """How many of head_dim's dimensions RoPE rotates (partial rotary)."""
        if self.head_dim is None:
            return None
        return round(self.head_dim * (self.partial_rotary_factor or 1.0))


def _layer_types(f: JsonFile, node: dict[str, Any], base: str, layers: int,
                 interval: int | None) -> tuple[str, ...]:
    where = join(base, "layer_types")
    if interval is not None and interval > layers:
        raise f.fail(join(base, "full_attention_interval"),
                     f"must not exceed num_hidden_layers ({layers}), found {interval}")
    expected = None
    if interval is not None:
        expected = tuple(FULL_ATTENTION if (i + 1) % interval == 0 else LINEAR_ATTENTION
                         for i in range(layers))
    raw = f.get(node, base, "layer_types", required=False)
    if raw is None:
        return expected or (FULL_ATTENTION,) * layers
    if not isinstance(raw, list) or len(raw) != layers:
        raise f.fail(where, f"must list one type per layer ({layers})")
    for i, kind in enumerate(raw):
        if kind not in (FULL_ATTENTION, LINEAR_ATTENTION):
            raise f.fail(join(where, i),
                         f"must be \"{FULL_ATTENTION}\" or \"{LINEAR_ATTENTION}\", found {kind!r}")
        if expected is not None and kind != expected[i]:
            raise f.fail(join(where, i),
                         f"is {kind!r} but full_attention_interval {interval} says {expected[i]!r}")
    return tuple(raw)


def read_model(f: JsonFile, node: Any, base: str, key: str,
               require_attention: bool = False) -> ModelConfig:
    """Validate one model object (the anchor file's root, or one entry of `models`)."""
    if not isinstance(node, dict):
        raise f.fail(base or "(file)", "must be an object of config fields")
    values: dict[str, Any] = {name: f.integer(node, base, name, required=False)
                              for name in _INT_FIELDS}
    layers = f.integer(node, base, "num_hidden_layers")
    factor = f.number(node, base, "partial_rotary_factor", required=False, positive=True)
    if factor is not None and factor > 1:
        raise f.fail(join(base, "partial_rotary_factor"), f"must be at most 1, found {factor}")
    layer_types = _layer_types(f, node, base, layers, values["full_attention_interval"])
    if LINEAR_ATTENTION in layer_types:
        for name in _LINEAR_NEEDS:
            if values[name] is None:
                raise f.fail(join(base, name), "is required: the model has linear_attention layers")
    heads, kv_heads = values["num_attention_heads"], values["num_key_value_heads"]
    if heads is not None and kv_heads is not None and heads % kv_heads:
        raise f.fail(join(base, "num_key_value_heads"),
                     f"must divide num_attention_heads ({heads}), found {kv_heads}")
    mla = values["kv_lora_rank"] is not None
    if mla and values["qk_rope_head_dim"] is None:
        raise f.fail(join(base, "qk_rope_head_dim"), "is required with kv_lora_rank (MLA)")
    if values["head_dim"] is None and not mla and heads and values["hidden_size"]:
        if values["hidden_size"] % heads:
            raise f.fail(join(base, "head_dim"), "is missing and hidden_size is not a multiple "
                         f"of num_attention_heads ({heads})")
        values["head_dim"] = values["hidden_size"] // heads
    needed: tuple[str, ...] = ("num_attention_heads", "num_key_value_heads", "head_dim")
    if require_attention:
        needed += ("max_position_embeddings",)
    if require_attention or not mla:
        for name in needed:
            if values[name] is None:
                problem = "is required" if require_attention else (
                    "is required unless the model uses MLA (kv_lora_rank + qk_rope_head_dim)")
                raise f.fail(join(base, name), problem)
    if factor is not None and values["head_dim"] is not None:
        rotary = values["head_dim"] * factor
        if abs(rotary - round(rotary)) > 1e-9:
            raise f.fail(join(base, "partial_rotary_factor"),
                         f"head_dim × factor = {rotary:g} is not a whole number of dimensions")
    return ModelConfig(
        key=key,
        display_name=f.text(node, base, "display_name"),
        source=f.text(node, base, "source"),
        provenance=_choice(f, node, base, "provenance", MODEL_PROVENANCES),
        config_of=f.text(node, base, "config_of", required=False),
        dtype_bytes=f.integer(node, base, "dtype_bytes"),
        num_hidden_layers=layers,
        layer_types=layer_types,
        partial_rotary_factor=factor,
        rope_theta=f.number(node, base, "rope_theta", required=False, positive=True),
        attn_output_gate=f.boolean(node, base, "attn_output_gate"),
        use_qk_norm=f.boolean(node, base, "use_qk_norm"),
        rms_norm_eps=f.number(node, base, "rms_norm_eps", required=False, positive=True),
        **values,
    )


def _choice(f: JsonFile, node: dict[str, Any], base: str, key: str,
            choices: tuple[str, ...]) -> str:
    """A required text field that must be one of `choices` (where a number came from)."""
    value = f.get(node, base, key)
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(f'"{c}"' for c in choices)
        raise f.fail(join(base, key), f"must be one of {listed}, found {value!r}")
    return value


def _kv_bits(f: JsonFile, node: dict[str, Any], where: str) -> float | None:
    bits = f.number(node, where, "kv_bits", required=False, positive=True)
    if bits is not None and bits > MAX_KV_BITS:
        raise f.fail(join(where, "kv_bits"), f"must be at most {MAX_KV_BITS}, found {bits:g}")
    return bits


def _claim_value(f: JsonFile, node: dict[str, Any], where: str) -> float:
    value = f.number(node, where, "value")
    if not abs(value) < CLAIM_LIMIT:
        raise f.fail(join(where, "value"), f"must be smaller than 10¹⁵ in size, found {value:g}")
    return value


def read_claims(f: JsonFile, root: dict[str, Any], required: bool) -> tuple[Claim, ...]:
    """The file's "claims" list; ids must be unique so figures can cite one by id."""
    if not required and f.get(root, "", "claims", required=False) is None:
        return ()
    raw = f.items(root, "", "claims") if required else f.get(root, "", "claims")
    if not isinstance(raw, list):
        raise f.fail("claims", "must be a list")
    claims: list[Claim] = []
    for i, node in enumerate(raw):
        where = join("claims", i)
        if not isinstance(node, dict):
            raise f.fail(where, "must be an object with id, subject, what, value, unit, source")
        claim = Claim(
            id=f.text(node, where, "id"),
            subject=f.text(node, where, "subject"),
            what=f.text(node, where, "what"),
            value=_claim_value(f, node, where),
            unit=f.text(node, where, "unit"),
            source=f.text(node, where, "source"),
            provenance=_choice(f, node, where, "provenance", CLAIM_PROVENANCES),
            kv_bits=_kv_bits(f, node, where),
        )
        if any(c.id == claim.id for c in claims):
            raise f.fail(join(where, "id"), f"{claim.id!r} is used by an earlier claim")
        claims.append(claim)
    return tuple(claims)
