"""Owns reading a checkpoint's `config.json` into the few numbers its forward pass needs, and
naming its family from the config and the weight names together: a from-scratch model that
calls itself anything but keeps Llama's keys and names is read as Llama."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.model.checkpoint.refusal import CheckpointError

__all__ = ["FAMILIES", "ROPE_TYPES", "ArchConfig", "read_config"]

FAMILIES = ("llama", "mistral", "qwen2", "qwen3", "gpt2")
"""The model types read by name; any other type is read when it keeps Llama's layout."""
ROPE_TYPES = ("default", "linear", "llama3")
LLAMA_KEYS = ("hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size",
              "vocab_size")
GPT2_KEYS = ("n_embd", "n_head", "n_layer", "vocab_size")


@dataclass(frozen=True)
class ArchConfig:
    """A checkpoint's shapes and choices, in the terms the NumPy forward pass uses."""

    model_type: str
    layout: str
    """"llama" (RMSNorm, rotary, gated MLP) or "gpt2" (LayerNorm, learned positions)."""
    n_layers: int
    hidden: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    norm_eps: float
    activation: str
    rope_theta: float = 10000.0
    rope_type: str = "default"
    rope_scaling: tuple[tuple[str, float], ...] = ()
    rotary_dim: int = 0
    sliding_window: tuple[int | None, ...] = ()
    """Per layer: how many keys back a query may look (None: all earlier keys)."""

    @property
    def group(self) -> int:
        """Query heads per key-value head: query head h reads kv head h // group."""
        return self.n_heads // self.n_kv_heads


def _refuse(path: Path, problem: str) -> CheckpointError:
    return CheckpointError(f"{path.name} in {path.parent.name}: {problem}.")


def _int(raw: dict[str, Any], key: str, path: Path, default: int | None = None) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _refuse(path, f"{key} must be a positive whole number, not {value!r}")
    return value


def _number(raw: dict[str, Any], key: str, path: Path, default: float) -> float:
    value = raw.get(key, default)
    if value is None:
        value = default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _refuse(path, f"{key} must be a finite number, not {value!r}")
    return float(value)


def _load(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise CheckpointError(f"{path.parent.name} has no {path.name}; a Hugging Face model "
                              f"folder holds config.json, tokenizer.json and its weights.")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise _refuse(path, f"cannot be read as JSON ({exc})") from None
    if not isinstance(raw, dict):
        raise _refuse(path, "must hold one JSON object")
    return raw


def _rope(raw: dict[str, Any], head_dim: int, path: Path) -> dict[str, Any]:
    """RoPE as the config says: newer configs nest it under `rope_parameters`, older ones
    keep `rope_theta` and `rope_scaling` beside the other keys."""
    params = dict(raw.get("rope_parameters") or {})
    scaling = raw.get("rope_scaling") or {}
    if not isinstance(params, dict) or not isinstance(scaling, dict):
        raise _refuse(path, "rope_parameters and rope_scaling must be JSON objects")
    params = {**scaling, **params}
    kind = params.get("rope_type", params.get("type", "default"))
    if kind not in ROPE_TYPES:
        raise _refuse(path, f"its RoPE scaling {kind!r} is not supported (supported: "
                            f"{', '.join(ROPE_TYPES)})")
    theta = _number(params, "rope_theta", path, _number(raw, "rope_theta", path, 10000.0))
    factor = _number(params, "partial_rotary_factor", path,
                     _number(raw, "partial_rotary_factor", path, 1.0))
    rotary = int(head_dim * factor)
    if not 0 < factor <= 1 or rotary < 2 or rotary % 2:
        raise _refuse(path, f"partial_rotary_factor {factor} leaves no even number of "
                            f"rotated dims in a head of {head_dim}")
    keys = {"linear": ("factor",),
            "llama3": ("factor", "low_freq_factor", "high_freq_factor",
                       "original_max_position_embeddings")}.get(kind, ())
    for key in keys:
        if key not in params:
            raise _refuse(path, f"its {kind} RoPE scaling has no {key}")
    scaling_values = tuple((key, _number(params, key, path, 0.0)) for key in keys)
    return {"rope_theta": theta, "rope_type": kind, "rope_scaling": scaling_values,
            "rotary_dim": rotary}


def _windows(raw: dict[str, Any], n_layers: int) -> tuple[int | None, ...]:
    """Sliding-window layers: `layer_types` names them where the config has it; an older
    Mistral config's `sliding_window` covers every layer."""
    window = raw.get("sliding_window")
    types = raw.get("layer_types")
    if not isinstance(window, int) or isinstance(window, bool) or window < 1:
        return (None,) * n_layers
    if isinstance(types, list) and len(types) == n_layers:
        return tuple(window if kind == "sliding_attention" else None for kind in types)
    if raw.get("model_type") == "mistral":
        return (window,) * n_layers
    return (None,) * n_layers


def read_config(folder: Path, weight_names: frozenset[str]) -> ArchConfig:
    """The config of `folder`, refused in one sentence when its layout is not one the
    forward pass knows (naming the type found and the supported ones)."""
    path = folder / "config.json"
    raw = _load(path)
    model_type = str(raw.get("model_type", "(none)"))
    llama_names = any(n.endswith("layers.0.self_attn.q_proj.weight") for n in weight_names)
    gpt2_names = any(n.endswith("h.0.attn.c_attn.weight") for n in weight_names)
    if model_type == "gpt2" or (gpt2_names and all(k in raw for k in GPT2_KEYS)):
        return _gpt2(raw, path, model_type)
    if all(k in raw for k in LLAMA_KEYS) and (model_type in FAMILIES or llama_names):
        return _llama(raw, path, model_type)
    raise _refuse(path, f"model_type {model_type!r} with this layout is not supported "
                        f"(supported: {', '.join(FAMILIES)}, or any model with Llama's "
                        f"config keys and weight names)")


def _heads(n_heads: int, n_kv: int, path: Path) -> None:
    if n_heads % n_kv:
        raise _refuse(path, f"{n_heads} query heads cannot share {n_kv} key-value heads "
                            f"evenly")


def _llama(raw: dict[str, Any], path: Path, model_type: str) -> ArchConfig:
    hidden = _int(raw, "hidden_size", path)
    n_heads = _int(raw, "num_attention_heads", path)
    n_kv = _int(raw, "num_key_value_heads", path, n_heads)
    _heads(n_heads, n_kv, path)
    head_dim = raw.get("head_dim") or hidden // n_heads
    head_dim = _int({"head_dim": head_dim}, "head_dim", path)
    n_layers = _int(raw, "num_hidden_layers", path)
    return ArchConfig(
        model_type=model_type, layout="llama", n_layers=n_layers, hidden=hidden,
        n_heads=n_heads, n_kv_heads=n_kv, head_dim=head_dim,
        norm_eps=_number(raw, "rms_norm_eps", path, 1e-6),
        activation=str(raw.get("hidden_act", "silu")),
        sliding_window=_windows(raw, n_layers), **_rope(raw, head_dim, path))


def _gpt2(raw: dict[str, Any], path: Path, model_type: str) -> ArchConfig:
    hidden = _int(raw, "n_embd", path)
    n_heads = _int(raw, "n_head", path)
    if hidden % n_heads:
        raise _refuse(path, f"n_embd {hidden} does not split into {n_heads} heads")
    n_layers = _int(raw, "n_layer", path)
    if raw.get("scale_attn_by_inverse_layer_idx") or raw.get("scale_attn_weights") is False:
        raise _refuse(path, "its attention scores are not scaled by 1/√d alone "
                            "(scale_attn_by_inverse_layer_idx or scale_attn_weights)")
    return ArchConfig(
        model_type=model_type, layout="gpt2", n_layers=n_layers, hidden=hidden,
        n_heads=n_heads, n_kv_heads=n_heads, head_dim=hidden // n_heads,
        norm_eps=_number(raw, "layer_norm_epsilon", path, 1e-5),
        activation=str(raw.get("activation_function", "gelu_new")),
        sliding_window=(None,) * n_layers)
