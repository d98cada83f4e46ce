"""Owns the forward pass in NumPy, float32 throughout: every earlier layer in full (norms,
causal attention, MLP, residuals), then the asked layer's q and k per head exactly as its dot
product scores them. Weights are fetched per layer, so only the layers asked are converted."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import cast

import numpy as np

from app.model.checkpoint.config import ArchConfig
from app.model.checkpoint.refusal import CheckpointError
from app.model.checkpoint.rope import apply_rope
from app.model.checkpoint.weights import WeightStore

__all__ = ["ACTIVATIONS", "each_layer_queries_keys", "layer_queries_keys"]

_erf = np.frompyfunc(math.erf, 1, 1)


def _erf_array(x: np.ndarray) -> np.ndarray:
    """erf of each element (an object array): a ufunc from frompyfunc is typed to return a
    scalar or an array, and an array in gives an array out."""
    return cast(np.ndarray, _erf(x))


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    y: np.ndarray = 0.5 * x * (1.0 + np.tanh(np.float32(math.sqrt(2.0 / math.pi))
                                             * (x + np.float32(0.044715) * x ** 3)))
    return y


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "silu": lambda x: x / (1.0 + np.exp(-x)),
    "relu": lambda x: np.maximum(x, 0),
    "gelu": lambda x: (0.5 * x * (1.0 + _erf_array(x / math.sqrt(2.0)).astype(np.float32))),
    "gelu_new": _gelu_tanh,
    "gelu_pytorch_tanh": _gelu_tanh,
}


def _rms(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    y: np.ndarray = weight * (x / np.sqrt((x * x).mean(-1, keepdims=True) + np.float32(eps)))
    return y


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    y: np.ndarray = (x - mean) / np.sqrt(var + np.float32(eps)) * weight + bias
    return y


def _mask(t: int, window: int | None) -> np.ndarray:
    """Where a query may look: itself and earlier keys (within the sliding window, if any)."""
    i, j = np.indices((t, t))
    allowed = j <= i
    return allowed if window is None else allowed & (i - j < window)


def _attend(q: np.ndarray, k: np.ndarray, v: np.ndarray, group: int,
            window: int | None) -> np.ndarray:
    """Causal softmax(q·kᵀ/√d)·v per head; kv head h // group serves query head h."""
    k, v = np.repeat(k, group, axis=0), np.repeat(v, group, axis=0)
    scores = q @ k.transpose(0, 2, 1) * np.float32(q.shape[-1] ** -0.5)
    scores = np.where(_mask(q.shape[1], window), scores, -np.inf)
    scores = np.exp(scores - scores.max(-1, keepdims=True))
    weights = scores / scores.sum(-1, keepdims=True)
    mixed: np.ndarray = (weights @ v).transpose(1, 0, 2).reshape(q.shape[1], -1)
    return mixed


class _Llama:
    """Llama's layout (Mistral, Qwen2's q/k/v biases, Qwen3's q_norm/k_norm alike)."""

    def __init__(self, cfg: ArchConfig, store: WeightStore) -> None:
        self.cfg, self.store = cfg, store
        self.prefix = "model." if "model.embed_tokens.weight" in store.names else ""

    def _w(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        return self.store.get(self.prefix + name, shape)

    def _linear(self, x: np.ndarray, name: str, n_out: int, n_in: int) -> np.ndarray:
        y: np.ndarray = x @ self._w(f"{name}.weight", (n_out, n_in)).T
        if self.prefix + f"{name}.bias" in self.store.names:
            y = y + self._w(f"{name}.bias", (n_out,))
        return y

    def embed(self, ids: np.ndarray) -> np.ndarray:
        vocab = self.store.shape(self.prefix + "embed_tokens.weight")[0]
        if ids.max() >= vocab:
            raise CheckpointError(f"token id {int(ids.max())} is outside the model's "
                                  f"vocabulary of {vocab}.")
        return self.store.rows(self.prefix + "embed_tokens.weight", (vocab, self.cfg.hidden),
                               ids)

    def queries_keys(self, x: np.ndarray, layer: int, rope: bool
                     ) -> tuple[np.ndarray, np.ndarray]:
        c, at = self.cfg, f"layers.{layer}"
        h = _rms(x, self._w(f"{at}.input_layernorm.weight", (c.hidden,)), c.norm_eps)
        t = x.shape[0]
        q = self._linear(h, f"{at}.self_attn.q_proj", c.n_heads * c.head_dim, c.hidden)
        k = self._linear(h, f"{at}.self_attn.k_proj", c.n_kv_heads * c.head_dim, c.hidden)
        q = q.reshape(t, c.n_heads, c.head_dim).transpose(1, 0, 2)
        k = k.reshape(t, c.n_kv_heads, c.head_dim).transpose(1, 0, 2)
        if self.prefix + f"{at}.self_attn.q_norm.weight" in self.store.names:
            q = _rms(q, self._w(f"{at}.self_attn.q_norm.weight", (c.head_dim,)), c.norm_eps)
            k = _rms(k, self._w(f"{at}.self_attn.k_norm.weight", (c.head_dim,)), c.norm_eps)
        if rope:
            q, k = apply_rope(q, c), apply_rope(k, c)
        return q.astype(np.float32), k.astype(np.float32)

    def layer(self, x: np.ndarray, layer: int,
              qk: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """The residual stream after layer `layer`; `qk` is its rotated q and k when the
        caller already has them."""
        c, at = self.cfg, f"layers.{layer}"
        t = x.shape[0]
        q, k = qk or self.queries_keys(x, layer, rope=True)
        h = _rms(x, self._w(f"{at}.input_layernorm.weight", (c.hidden,)), c.norm_eps)
        v = self._linear(h, f"{at}.self_attn.v_proj", c.n_kv_heads * c.head_dim, c.hidden)
        v = v.reshape(t, c.n_kv_heads, c.head_dim).transpose(1, 0, 2)
        mixed = _attend(q, k, v, c.group, c.sliding_window[layer])
        x = x + self._linear(mixed, f"{at}.self_attn.o_proj", c.hidden,
                             c.n_heads * c.head_dim)
        h = _rms(x, self._w(f"{at}.post_attention_layernorm.weight", (c.hidden,)), c.norm_eps)
        inner = self.store.shape(self.prefix + f"{at}.mlp.gate_proj.weight")[0]
        gate = self._linear(h, f"{at}.mlp.gate_proj", inner, c.hidden)
        up = self._linear(h, f"{at}.mlp.up_proj", inner, c.hidden)
        act = ACTIVATIONS[c.activation](gate)
        out: np.ndarray = (x + self._linear(act * up, f"{at}.mlp.down_proj", c.hidden, inner)
                           ).astype(np.float32)
        return out


class _Gpt2:
    """GPT-2's layout: learned positions, LayerNorm, fused c_attn stored as Conv1D (in, out)."""

    def __init__(self, cfg: ArchConfig, store: WeightStore) -> None:
        self.cfg, self.store = cfg, store
        self.prefix = "transformer." if "transformer.wte.weight" in store.names else ""

    def _w(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        return self.store.get(self.prefix + name, shape)

    def _conv1d(self, x: np.ndarray, name: str, n_in: int, n_out: int) -> np.ndarray:
        y: np.ndarray = x @ self._w(f"{name}.weight", (n_in, n_out)) + self._w(f"{name}.bias",
                                                                            (n_out,))
        return y

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        n = self.cfg.hidden
        return _layer_norm(x, self._w(f"{name}.weight", (n,)), self._w(f"{name}.bias", (n,)),
                           self.cfg.norm_eps)

    def embed(self, ids: np.ndarray) -> np.ndarray:
        vocab = self.store.shape(self.prefix + "wte.weight")[0]
        positions = self.store.shape(self.prefix + "wpe.weight")[0]
        if ids.max() >= vocab:
            raise CheckpointError(f"token id {int(ids.max())} is outside the model's "
                                  f"vocabulary of {vocab}.")
        if len(ids) > positions:
            raise CheckpointError(f"the text makes {len(ids)} tokens; this model has "
                                  f"positions for {positions}.")
        tokens = self.store.rows(self.prefix + "wte.weight", (vocab, self.cfg.hidden), ids)
        places = self.store.rows(self.prefix + "wpe.weight", (positions, self.cfg.hidden),
                                 np.arange(len(ids)))
        embedded: np.ndarray = tokens + places
        return embedded

    def _qkv(self, x: np.ndarray, layer: int) -> np.ndarray:
        c = self.cfg
        h = self._norm(x, f"h.{layer}.ln_1")
        qkv = self._conv1d(h, f"h.{layer}.attn.c_attn", c.hidden, 3 * c.hidden)
        split: np.ndarray = qkv.reshape(x.shape[0], 3, c.n_heads, c.head_dim).transpose(
            1, 2, 0, 3)
        return split

    def queries_keys(self, x: np.ndarray, layer: int, rope: bool
                     ) -> tuple[np.ndarray, np.ndarray]:
        qkv = self._qkv(x, layer)
        return qkv[0].astype(np.float32), qkv[1].astype(np.float32)

    def layer(self, x: np.ndarray, layer: int,
              qk: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        c, at = self.cfg, f"h.{layer}"
        q, k, v = self._qkv(x, layer)
        mixed = _attend(q, k, v, 1, None)
        x = x + self._conv1d(mixed, f"{at}.attn.c_proj", c.hidden, c.hidden)
        h = self._norm(x, f"{at}.ln_2")
        inner = self.store.shape(self.prefix + f"{at}.mlp.c_fc.weight")[1]
        act = ACTIVATIONS[c.activation](self._conv1d(h, f"{at}.mlp.c_fc", c.hidden, inner))
        out: np.ndarray = (x + self._conv1d(act, f"{at}.mlp.c_proj", inner, c.hidden)
                           ).astype(np.float32)
        return out


def _model(cfg: ArchConfig, store: WeightStore) -> _Llama | _Gpt2:
    if cfg.activation not in ACTIVATIONS:
        raise CheckpointError(f"activation {cfg.activation!r} is not supported (supported: "
                              f"{', '.join(ACTIVATIONS)}).")
    return _Gpt2(cfg, store) if cfg.layout == "gpt2" else _Llama(cfg, store)


def layer_queries_keys(cfg: ArchConfig, store: WeightStore, ids: tuple[int, ...], layer: int,
                       rope: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Layer `layer`'s q (heads, T, d) and k (kv heads, T, d) for the tokens `ids`."""
    model = _model(cfg, store)
    x = model.embed(np.asarray(ids, dtype=np.int64))
    for earlier in range(layer):
        x = model.layer(x, earlier)
    return model.queries_keys(x, layer, rope)


def each_layer_queries_keys(cfg: ArchConfig, store: WeightStore, ids: tuple[int, ...],
                            rope: bool = True) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every layer's q and k in one pass, a layer at a time, so a caller can show progress
    per layer and stop between layers."""
    model = _model(cfg, store)
    x = model.embed(np.asarray(ids, dtype=np.int64))
    for layer in range(cfg.n_layers):
        rotated = model.queries_keys(x, layer, rope=True)
        yield rotated if rope else model.queries_keys(x, layer, rope=False)
        if layer + 1 < cfg.n_layers:
            x = model.layer(x, layer, rotated)
