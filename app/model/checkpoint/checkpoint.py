"""Owns one opened checkpoint folder and the answer it gives: a layer's q and k per head over
a sentence's tokens, with the key heads already mapped to the query heads that read them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.model.checkpoint.config import ArchConfig, read_config
from app.model.checkpoint.forward import each_layer_queries_keys, layer_queries_keys
from app.model.checkpoint.refusal import CheckpointError
from app.model.checkpoint.tokens import Tokens, _Reader, read_tokenizer, tokenise
from app.model.checkpoint.weights import WeightStore, open_weights

__all__ = ["Checkpoint", "LayerQK", "open_checkpoint"]


@dataclass(frozen=True)
class LayerQK:
    """One layer's q and k as its dot product scores them: score = q[h]·k[h]ᵀ · scale."""

    model: str
    family: str
    layer: int
    tokens: tuple[str, ...]
    token_ids: tuple[int, ...]
    split: tuple[bool, ...]
    q: np.ndarray
    """(heads, T, head_dim)."""
    k: np.ndarray
    """(heads, T, head_dim): query head h's keys, i.e. kv head `kv_head[h]`'s."""
    kv_head: tuple[int, ...]
    rotated: bool
    """True when q and k are after RoPE (what the model scores); False shows them before."""
    scale: float


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint folder, read far enough to answer for any layer and sentence."""

    folder: Path
    config: ArchConfig
    weights: WeightStore
    tokenizer: _Reader

    @property
    def name(self) -> str:
        return self.folder.name

    def queries_keys(self, text: str, layer: int, *, rope: bool = True) -> LayerQK:
        """Layer `layer`'s q and k over `text`'s tokens, refused when the layer is not there."""
        n = self.config.n_layers
        if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer < n:
            raise CheckpointError(f"layer {layer!r} is not in this model; its layers are "
                                  f"0 to {n - 1}.")
        tokens = tokenise(self.tokenizer, text)
        q, k = layer_queries_keys(self.config, self.weights, tokens.ids, layer, rope)
        return self._answer(tokens, layer, q, k, rope)

    def every_layer(self, text: str, *, rope: bool = True) -> Iterator[LayerQK]:
        """Each layer's q and k in turn from one forward pass (the overview of all heads);
        stop iterating to stop the pass."""
        tokens = tokenise(self.tokenizer, text)
        passes = each_layer_queries_keys(self.config, self.weights, tokens.ids, rope)
        for layer, (q, k) in enumerate(passes):
            yield self._answer(tokens, layer, q, k, rope)

    def _answer(self, tokens: Tokens, layer: int, q: np.ndarray, k: np.ndarray, rope: bool
                ) -> LayerQK:
        kv_head = tuple(h // self.config.group for h in range(self.config.n_heads))
        q.setflags(write=False)
        k = k[list(kv_head)]
        k.setflags(write=False)
        return LayerQK(
            model=self.name, family=self.config.model_type, layer=layer,
            tokens=tokens.names, token_ids=tokens.ids, split=tokens.split, q=q, k=k,
            kv_head=kv_head, rotated=rope and self.config.layout == "llama",
            scale=self.config.head_dim ** -0.5)


def open_checkpoint(folder: Path | str) -> Checkpoint:
    """Read `folder`'s config, weight headers and tokenizer (no weight data yet)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CheckpointError(f"{folder} is not a folder; open the folder that holds "
                              f"config.json.")
    if not (folder / "config.json").is_file():
        raise CheckpointError(f"{folder.name} has no config.json; a Hugging Face model folder "
                              f"holds config.json, tokenizer.json and its weights.")
    tokenizer = read_tokenizer(folder)
    weights = open_weights(folder)
    config = read_config(folder, weights.names)
    return Checkpoint(folder=folder, config=config, weights=weights, tokenizer=tokenizer)
