"""An imported world inside a scenario file: written only when small enough to keep, and read
back through the import's own checks and limits (`capture.limits`, shared with the writer), so
a saved capture is never trusted more than a file and whatever is written reads back."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from app.model.capture import Capture, capture_from_arrays
from app.model.capture.limits import MAX_HEADS, MAX_SAVED_NUMBERS, MAX_SOURCE_CHARS, WEIGHT_NAMES
from app.model.jsonfile import join

IMPORTED_FIELDS = ("source", "head", "heads", "dtype", "tokens", "Q", "K", "weights")


def capture_to_dict(capture: Capture) -> dict[str, Any]:
    """The imported world as a scenario stores it (only when `savable`)."""
    return {
        "source": capture.source,
        "head": capture.head,
        "heads": capture.heads,
        "dtype": str(capture.queries.dtype),
        "tokens": list(capture.key_names),
        "Q": capture.queries.tolist(),
        "K": capture.keys.tolist(),
        "weights": {name: value.tolist() for name, value in capture.weights.items()},
    }


def capture_from_dict(value: Mapping[str, Any], fail: Any) -> Capture:
    """Read a scenario's imported world with the import's own checks; `fail(field, problem)`
    makes the caller's error (field names are relative to the imported object)."""
    for name in IMPORTED_FIELDS:
        if name not in value:
            raise fail(name, "is required but missing")
    source, head, heads, dtype = (value[n] for n in ("source", "head", "heads", "dtype"))
    if not isinstance(source, str) or len(source) > MAX_SOURCE_CHARS:
        raise fail("source", f"must be a file name of at most {MAX_SOURCE_CHARS} characters")
    for name, number in (("head", head), ("heads", heads)):
        if type(number) is not int or not 0 <= number <= MAX_HEADS:
            raise fail(name, f"must be a whole number from 0 to {MAX_HEADS}")
    if head >= max(heads, 1):
        raise fail("head", f"must be below heads ({heads})")
    if dtype not in ("float32", "float64"):
        raise fail("dtype", "must be \"float32\" or \"float64\"")
    weights = value["weights"]
    if not isinstance(weights, dict) or any(n not in WEIGHT_NAMES for n in weights):
        raise fail("weights", f"must be an object with fields among {', '.join(WEIGHT_NAMES)}")
    lists = {"q": value["Q"], "k": value["K"], **weights}
    count = 0
    arrays: dict[str, np.ndarray] = {}
    for name, rows in lists.items():
        where = {"q": "Q", "k": "K"}.get(name, f"weights.{name}")
        array = _number_array(rows, where, fail)
        count += array.size
        if count > MAX_SAVED_NUMBERS:
            raise fail(where, f"the import holds more than {MAX_SAVED_NUMBERS:,} numbers, more "
                       "than a scenario keeps")
        arrays[name] = array.astype(dtype) if name in ("q", "k") else array  # weights: float64

    def relabel(where: str, problem: str) -> Any:
        return fail({"q": "Q", "k": "K"}.get(where, where), problem)

    tokens = value["tokens"]
    if not isinstance(tokens, list):
        raise fail("tokens", "must be a list of token names")
    capture = capture_from_arrays(arrays, tokens, 0, source, fail=relabel)
    return Capture(capture.queries, capture.keys, capture.query_names, capture.key_names,
                   source, head, heads, capture.weights)


def _number_array(rows: Any, where: str, fail: Any) -> np.ndarray:
    if not isinstance(rows, list):
        raise fail(where, "must be a list of numbers or of rows of numbers")
    try:
        array = np.array(rows, dtype=np.float64)
    except OverflowError:  # a hand-edited integer of hundreds of digits: name where it is
        raise _too_large(rows, where, fail) from None
    except (TypeError, ValueError):
        raise fail(where, "must hold only numbers, in rows of equal length") from None
    if array.ndim not in (1, 2):
        raise fail(where, "must be a list of numbers or of rows of numbers")
    return array


def _too_large(rows: list[Any], where: str, fail: Callable[[str, str], Exception]
               ) -> Exception:
    """`fail` at the first number of `rows` (a list or a list of rows) too large for a float,
    as the rest of a scenario names it; NumPy only says that there was one."""
    for i, row in enumerate(rows):
        for j, value in enumerate(row) if isinstance(row, list) else [(None, row)]:
            at = join(where, i) if j is None else join(join(where, i), j)
            if type(value) is int and abs(value) > sys.float_info.max:
                return fail(at, "number is too large to be finite")
    return fail(where, "holds a number too large to be finite")
