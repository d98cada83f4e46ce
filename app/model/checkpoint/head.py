"""Owns turning one head of a model's layer into the imported world's data (a `Capture`), so
the lab shows a real head's q and k with the scores the model itself took."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from app.model.capture import Capture
from app.model.checkpoint.checkpoint import Checkpoint, LayerQK, open_checkpoint
from app.model.checkpoint.refusal import CheckpointError
from app.model.threads import one_blas_thread

__all__ = ["attention_maps", "head_capture", "index_in", "read_head"]


def index_in(value: object, what: str, count: int) -> int:
    """`value` when it numbers one of the model's `count` layers or heads, else refused."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
        raise CheckpointError(f"{what} {value!r} is not in this model; its {what}s are "
                              f"0 to {count - 1}.")
    return value


def head_capture(layer: LayerQK, head: int) -> Capture:
    """Query head `head` of `layer` as a capture: queries q[h], keys k[h] (its key head's),
    every token named. The lab scores an import by q·k/√d, so a model that scales otherwise
    is refused rather than shown with scores it never took."""
    heads, _tokens, d = layer.q.shape
    head = index_in(head, "head", heads)
    if not math.isclose(layer.scale, d ** -0.5, rel_tol=1e-6):
        raise CheckpointError(f"{layer.model} scales its scores by {layer.scale:g}, not "
                              f"1/√{d}; the lab can only show q·k/√d.")
    q, k = layer.q[head], layer.k[head]
    if not (np.isfinite(q).all() and np.isfinite(k).all()):
        raise CheckpointError(f"layer {layer.layer}, head {head} of {layer.model} has "
                              f"non-finite q or k (NaN or ±inf); its weights may be damaged.")
    return Capture(q, k, layer.tokens, layer.tokens, source=layer.model, head=head,
                   heads=heads)


def read_head(folder: Path | str, text: str, layer: int | None = None, head: int = 0
              ) -> tuple[Checkpoint, LayerQK, Capture]:
    """Open `folder`, run `text` up to `layer` (None: the last) and take head `head`: the
    command line's one call. Raises CheckpointError with one sentence for any bad input."""
    one_blas_thread()
    checkpoint = open_checkpoint(folder)
    n = checkpoint.config.n_layers
    chosen = index_in(n - 1 if layer is None else layer, "layer", n)
    index_in(head, "head", checkpoint.config.n_heads)  # before the pass, not after it
    answer = checkpoint.queries_keys(text, chosen)
    return checkpoint, answer, head_capture(answer, head)


def attention_maps(layer: LayerQK) -> np.ndarray:
    """Every head's attention weights over the sentence, (heads, T, T): the causal softmax of
    q·kᵀ·scale, each row a query's weights over itself and the tokens before it."""
    scores = layer.q.astype(np.float64) @ layer.k.astype(np.float64).transpose(0, 2, 1)
    scores *= layer.scale
    t = scores.shape[-1]
    scores[:, ~np.tri(t, dtype=bool)] = -np.inf
    weights: np.ndarray = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    return weights
