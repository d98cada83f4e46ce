"""Owns the model-only timings: recompute against bare NumPy, and additive against dot product.

No Qt here: bare NumPy is the reference the model layer is judged against. Bare `Q @ K.T` is the
least any dot-product picture can cost, so `score_matrix("dot")` over it is the model
layer's own overhead; additive scoring is measured in time and in peak memory (tracemalloc
sees NumPy's buffers), because its cost is the lesson's point.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

from app.model.lesson.data import load_lesson_data
from app.model.scale import ScaleRequest, compute_scale, random_params, random_qk
from app.model.scoring import score_matrix
from app.model.scoring.additive import (
    DEFAULT_MAX_CHUNK_BYTES,
    additive_matrix,
    naive_intermediate_bytes,
)
from app.model.view import compute_view, initial_state
from bench import Result, time_interleaved

MIB = 1024 * 1024
ADDITIVE_SLACK_BYTES = MIB
"""Allowance above chunk + output + projections for NumPy's small temporaries."""


def teaching_recompute(repeat: int) -> list[Result]:
    """`compute_view` for both worlds: everything the panels show, from one state."""
    data = load_lesson_data()
    teaching = initial_state(data)
    dialogue = teaching.with_world("dialogue")
    calls = {
        "teaching": lambda: compute_view(teaching, data),
        "dialogue": lambda: compute_view(dialogue, data),
    }
    samples = time_interleaved(calls, repeat, warmup=5)
    T, d = teaching.teaching_q.shape
    return [
        Result("model", "compute_view (teaching world)", f"T={T}, d={d}", samples["teaching"]),
        Result("model", "compute_view (2-D world + landscape)",
               f"T={len(dialogue.dialogue_keys)}, d=2", samples["dialogue"]),
    ]


def scale_recompute(T: int, d: int, repeat: int) -> list[Result]:
    """score_matrix("dot") and the scale-mode picture beside bare `Q @ K.T` at one size."""
    Q, K = random_qk(T, d, seed=0)
    request = ScaleRequest(T=T, d=d)
    calls: dict[str, Callable[[], object]] = {
        "bare": lambda: Q @ K.T,
        "dot": lambda: score_matrix("dot", Q, K),
        "scale": lambda: compute_scale(request),
    }
    samples = time_interleaved(calls, repeat, warmup=2)
    size = f"T={T}, d={d}"
    bare = Result("model", "bare NumPy Q @ K.T (reference)", size, samples["bare"])
    dot = Result("model", 'score_matrix("dot")', size, samples["dot"])
    picture = Result("model", "scale-mode compute (Q, K + scores + downsample)", size,
                     samples["scale"])
    for result in (dot, picture):
        result.extra["ratio_to_bare"] = result.median_ms / bare.median_ms
    return [bare, dot, picture]


def _peak_bytes(call: Callable[[], object]) -> int:
    """Peak bytes allocated during `call` above what was live before it."""
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - baseline
    finally:
        tracemalloc.stop()


def additive_bound_bytes(T: int, d_a: int, itemsize: int,
                         chunk_bytes: int = DEFAULT_MAX_CHUNK_BYTES) -> int:
    """What chunked additive may hold: one chunk, the T×T output, the two projections, slack."""
    return chunk_bytes + T * T * itemsize + 2 * T * d_a * itemsize + ADDITIVE_SLACK_BYTES


def additive_vs_dot(T: int, d_a: int, repeat: int) -> list[Result]:
    """Additive (chunked) against dot product at one size: time, peak memory and their ratios.

    Vectors have d = d_a, as in scale mode, in float32 (the scale mode's precision).
    """
    Q, K = random_qk(T, d_a, seed=0)
    weights = random_params(d_a, seed=0).additive
    assert weights is not None
    calls: dict[str, Callable[[], object]] = {
        "additive": lambda: additive_matrix(Q, K, weights),
        "dot": lambda: score_matrix("dot", Q, K),
    }
    samples = time_interleaved(calls, repeat, warmup=1)
    peaks = {name: _peak_bytes(call) for name, call in calls.items()}
    itemsize = Q.dtype.itemsize
    size = f"T={T}, d_a={d_a}"
    additive = Result("additive", "additive_matrix (chunked)", size, samples["additive"], {
        "peak_bytes": peaks["additive"],
        "chunk_bytes": DEFAULT_MAX_CHUNK_BYTES,
        "bound_bytes": additive_bound_bytes(T, d_a, itemsize),
        "naive_bytes": naive_intermediate_bytes(T, T, d_a, itemsize),
    })
    dot = Result("additive", 'score_matrix("dot")', size, samples["dot"],
                 {"peak_bytes": peaks["dot"]})
    additive.extra["time_ratio_to_dot"] = additive.median_ms / dot.median_ms
    additive.extra["memory_ratio_to_dot"] = peaks["additive"] / max(peaks["dot"], 1)
    return [additive, dot]

