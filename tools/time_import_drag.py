"""Time one drag step on a large imported capture: the model's recompute from scratch against
the recompute that scores only the edited query's row or key's column again.

    python tools/time_import_drag.py [T] [d]

Prints milliseconds per step; the figures depend on the machine, so no test asserts them.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace

import numpy as np

from app.model.capture import Capture
from app.model.lesson.data import load_lesson_data
from app.model.view import compute_view, initial_state

STEPS = 5


def main(tokens: int = 4096, width: int = 64) -> None:
    rng = np.random.default_rng(0)
    names = tuple(f"w{i}" for i in range(tokens))
    capture = Capture(rng.standard_normal((tokens, width)).astype(np.float32),
                      rng.standard_normal((tokens, width)).astype(np.float32),
                      names, names, "timing.npz")
    data = load_lesson_data()
    start = replace(initial_state(data), imported=capture, scorer="scaled_dot")
    for label, options in (("scores", {}), ("weights, causal", {"heatmap_mode": "weights",
                                                                 "causal": True})):
        state = start.with_world("imported", (tokens - 1, 0))
        state = replace(state, options=replace(state.options, **options))
        view = compute_view(state, data)
        for role, index in (("q", tokens - 1), ("k", 0)):
            matrix = state.imported.queries if role == "q" else state.imported.keys
            times = {}
            for how in ("full", "one row or column"):
                began = time.perf_counter()
                for step in range(STEPS):
                    values = np.array(matrix[index], np.float64)
                    values[0] += 0.01 * (step + 1)
                    after = state.with_vector(role, index, values)
                    since = None if how == "full" else (state, view)
                    compute_view(after, data, since)
                times[how] = (time.perf_counter() - began) / STEPS * 1000
            print(f"T = {tokens}, d = {width}, {label}, editing {role}: full recompute "
                  f"{times['full']:.0f} ms, one row or column {times['one row or column']:.0f} ms")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
