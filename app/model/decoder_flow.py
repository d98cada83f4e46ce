"""Owns the stages of the anchor model's full-attention decoder layer: shapes and parameters.

Computed from the anchor config fields (hidden_size, head_dim, heads, …), so the "from what
you already have" flow shows real sizes and changes if the data file does. Shapes use the
symbol "T" for the sequence length; everything else is a number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.model.modelconfig import ModelConfig

__all__ = [
    "REQUIRED",
    "SEQUENCE",
    "STAGE_KEYS",
    "Dim",
    "LayerStep",
    "Shape",
    "Tensor",
    "decoder_stages",
]

SEQUENCE = "T"
"""The symbol of the sequence length in every shape (its value is chosen by the viewer)."""

Dim = int | str
Shape = tuple[Dim, ...]
Tensor = tuple[str, Shape]


@dataclass(frozen=True)
class LayerStep:
    """One step of the layer: the named tensors in and out, and the learned tensors it owns.

    Tensor names are the math symbols the lesson uses (x, Q, K, V, S, A, O), not prose.
    """

    key: str
    inputs: tuple[Tensor, ...]
    outputs: tuple[Tensor, ...]
    weights: tuple[Tensor, ...] = ()

    @property
    def params(self) -> int:
        """Learned numbers in this stage: the sum of its weight tensors' sizes."""
        return sum(math.prod(int(d) for d in shape) for _, shape in self.weights)


STAGE_KEYS: tuple[str, ...] = (
    "embedding", "norm", "qkv", "qk_norm", "rope", "scores", "softmax", "weighted_v",
    "output_gate", "o_proj",
)
"""Display order of the stages, from token ids to the layer's output."""


REQUIRED = ("vocab_size", "hidden_size", "num_attention_heads", "num_key_value_heads",
            "head_dim")
"""Config fields the flow cannot do without; a missing attn_output_gate means no gate."""


def _need(config: ModelConfig, name: str) -> int:
    value = getattr(config, name, None)
    if value is None:
        raise ValueError(f"{config.display_name}: config has no {name}; the layer flow needs it")
    return int(value)


def decoder_stages(config: ModelConfig) -> tuple[LayerStep, ...]:
    """Every stage of one full-attention layer, in STAGE_KEYS order (without biases).

    The output gate's projection is shown as its own stage although the checkpoint stores it
    fused with q_proj: that is how it acts on the data. A config without the gate (or without
q_norm/k_norm) keeps the stage, with no weights, so the flow always has the same steps.
    """
    T = SEQUENCE
    vocab, hidden, heads, kv_heads, d_h = (_need(config, name) for name in REQUIRED)
    q_width, kv_width = heads * d_h, kv_heads * d_h
    x: Tensor = ("x", (T, hidden))
    q: Tensor = ("Q", (T, heads, d_h))
    k: Tensor = ("K", (T, kv_heads, d_h))
    v: Tensor = ("V", (T, kv_heads, d_h))
    s: Tensor = ("S", (heads, T, T))
    a: Tensor = ("A", (heads, T, T))
    o: Tensor = ("O", (T, heads, d_h))
    gate = (("gate_proj", (hidden, q_width)),) if config.attn_output_gate else ()
    qk_norms = (("q_norm", (d_h,)), ("k_norm", (d_h,))) if config.use_qk_norm else ()
    return (
        LayerStep("embedding", (("ids", (T,)),), (x,),
              (("embed_tokens", (vocab, hidden)),)),
        LayerStep("norm", (x,), (x,), (("input_layernorm", (hidden,)),)),
        LayerStep("qkv", (x,), (q, k, v),
              (("q_proj", (hidden, q_width)), ("k_proj", (hidden, kv_width)),
               ("v_proj", (hidden, kv_width)))),
        LayerStep("qk_norm", (q, k), (q, k), qk_norms),
        LayerStep("rope", (q, k), (q, k)),
        LayerStep("scores", (q, k), (s,)),
        LayerStep("softmax", (s,), (a,)),
        LayerStep("weighted_v", (a, v), (o,)),
        LayerStep("output_gate", (o, x), (("O", (T, q_width)),), gate),
        LayerStep("o_proj", (("O", (T, q_width)),), (("y", (T, hidden)),),
              (("o_proj", (q_width, hidden)),)),
    )
