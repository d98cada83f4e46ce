"""Owns turning score matrices into attention weights: softmax, causal mask, heads, sink logit."""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "attention_weights",
    "causal_mask",
    "masked_scores",
    "sink_weight",
    "softmax",
    "split_heads",
]


def _float_array(x: object, name: str) -> np.ndarray:
    """Keep float32/float64 as given (no copy); anything else real becomes float64."""
    a = np.asarray(x)
    if a.dtype.kind == "f":
        return a
    if a.dtype.kind in "biu":
        return a.astype(np.float64)
    raise ValueError(f"{name} must be real numbers, got dtype {a.dtype}")


def _scores(S: object) -> np.ndarray:
    """Scores ready for softmax: masked (undefined) cells become -inf, +inf is refused."""
    if isinstance(S, np.ma.MaskedArray):
        A = _float_array(S.data, "S")
        if S.mask is not np.ma.nomask:
            A = np.where(np.ma.getmaskarray(S), np.array(-np.inf, dtype=A.dtype), A)
    else:
        A = _float_array(S, "S")
    if A.ndim == 0:
        raise ValueError("softmax needs at least one axis of scores")
    if np.isposinf(A).any():
        raise ValueError("scores contain +inf; use a finite score or -inf to mask a key")
    return A


def _stable_parts(
    S: np.ndarray, axis: int, sink_logit: float | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return exp(S - m), the row denominators and exp(sink - m), all with a shared row max m.

    Subtracting the row max (sink included) is what keeps 1e308-sized scores finite; a row
    that is all -inf gets m = 0 so its exponentials are exact zeros instead of NaN.
    """
    if np.isnan(S).any():
        raise ValueError("scores contain NaN; softmax weights would be meaningless")
    m = np.max(S, axis=axis, keepdims=True, initial=-np.inf)  # an empty row is all "masked"
    if sink_logit is not None:
        m = np.maximum(m, sink_logit)
    m = np.where(np.isfinite(m), m, 0.0).astype(S.dtype, copy=False)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(S - m)  # -1e308 - 1e308 overflows to -inf, whose exp is the right 0
    sink = np.zeros_like(m) if sink_logit is None else np.exp(sink_logit - m)
    return e, np.sum(e, axis=axis, keepdims=True) + sink, sink


def _check_sink(sink_logit: float | None) -> None:
    if sink_logit is not None and not (
        isinstance(sink_logit, (int, float, np.floating, np.integer)) and math.isfinite(sink_logit)
    ):
        raise ValueError(f"sink_logit must be a finite number or None, got {sink_logit!r}")


def softmax(S: np.ndarray, axis: int = -1, sink_logit: float | None = None) -> np.ndarray:
    """Stable softmax, because raw scores in the lesson reach e^20 and the UI lets users go further.

    -inf entries (masked keys) get exactly 0 weight; a row with nothing allowed gets all zeros
    rather than NaN, so a fully masked query shows as "attends to nothing". With `sink_logit`
    an extra logit joins every row's denominator: it takes weight but carries no value, so the
    returned weights sum to 1 - sink_weight(...) and a head can "abstain".
    A +inf score is rejected: it would need inf - inf, so it has no meaningful weight.
    Masked cells of a MaskedArray (undefined scores) count as -inf.
    """
    _check_sink(sink_logit)
    A = _scores(S)
    e, denom, _ = _stable_parts(A, axis, sink_logit)
    safe = np.where(denom > 0, denom, 1.0)
    return e / safe


def sink_weight(S: np.ndarray, sink_logit: float, axis: int = -1) -> np.ndarray:
    """The share each row gives to the sink, computed directly so tiny shares don't cancel."""
    if sink_logit is None:
        raise ValueError("sink_weight needs a sink_logit")
    _check_sink(sink_logit)
    A = _scores(S)
    _, denom, sink = _stable_parts(A, axis, sink_logit)
    share: np.ndarray = np.squeeze(sink / denom, axis=axis)
    return share


def causal_mask(Tq: int, Tk: int, offset: int | None = None) -> np.ndarray:
    """True where query i may look at key j: j <= i + offset.

    The default offset Tk - Tq aligns the last query with the last key, which is what decoding
    with a KV cache needs (Tq = 1 sees everything) and equals 0 for a square matrix.
    """
    for n, v in (("Tq", Tq), ("Tk", Tk)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 0:
            raise ValueError(f"{n} must be a non-negative int, got {v!r}")
    k = int(Tk) - int(Tq) if offset is None else int(offset)
    return np.tri(int(Tq), int(Tk), k=k, dtype=bool)


def masked_scores(S: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Put -inf where the mask forbids, so softmax gives those keys exactly zero weight.

    Cells masked in a MaskedArray (an undefined cosine) are treated as forbidden too: an
    undefined score must not receive attention.
    """
    M = np.asarray(mask)
    if M.dtype != np.bool_:
        raise ValueError(f"mask must be boolean (True = allowed), got dtype {M.dtype}")
    allowed = M
    if isinstance(S, np.ma.MaskedArray):
        allowed = M & ~np.ma.getmaskarray(S)
        S = S.data
    A = _float_array(S, "S")
    try:
        np.broadcast_shapes(A.shape, allowed.shape)
    except ValueError:
        raise ValueError(
            f"mask shape {allowed.shape} does not fit scores shape {A.shape}"
        ) from None
    return np.where(allowed, A, np.array(-np.inf, dtype=A.dtype))


def split_heads(X: np.ndarray, n_heads: int) -> np.ndarray:
    """View (T, d) as (h, T, d/h) by columns: heads share one projection, so no new parameters."""
    A = _float_array(X, "X")
    if A.ndim != 2:
        raise ValueError(f"split_heads expects a (T, d) matrix, got shape {A.shape}")
    if not isinstance(n_heads, (int, np.integer)) or isinstance(n_heads, bool) or n_heads < 1:
        raise ValueError(f"n_heads must be a positive int, got {n_heads!r}")
    T, d = A.shape
    if d % n_heads:
        raise ValueError(f"d = {d} is not divisible by n_heads = {n_heads}")
    heads: np.ndarray = A.reshape(T, int(n_heads), d // int(n_heads)).transpose(1, 0, 2)
    return heads


def attention_weights(
    Q: np.ndarray,
    K: np.ndarray,
    *,
    scale: bool = True,
    causal: bool = False,
    sink_logit: float | None = None,
) -> np.ndarray:
    """Weights softmax(QKᵀ/√d_head) for (T, d) inputs or per head for (h, T, d_head) inputs.

    Scaling by 1/√d_head keeps the dot product's spread near 1 so softmax doesn't saturate.
    """
    A = _float_array(Q, "Q")
    B = _float_array(K, "K")
    if A.ndim not in (2, 3) or B.ndim != A.ndim:
        raise ValueError(
            f"Q and K must both be (T, d) or both (h, T, d_head); got {A.shape} and {B.shape}"
        )
    if A.shape[-1] != B.shape[-1]:
        raise ValueError(f"Q has d = {A.shape[-1]} but K has d = {B.shape[-1]}")
    if A.ndim == 3 and A.shape[0] != B.shape[0]:
        raise ValueError(f"Q has {A.shape[0]} heads but K has {B.shape[0]}")
    if A.shape[-1] == 0:
        raise ValueError("d_head must be at least 1")
    S = A @ np.swapaxes(B, -1, -2)
    if scale:
        S *= 1.0 / math.sqrt(A.shape[-1])
    if causal:
        S = masked_scores(S, causal_mask(A.shape[-2], B.shape[-2]))
    return softmax(S, axis=-1, sink_logit=sink_logit)
