"""Owns the limits of an imported capture that every reader and writer shares: the loaders of
.npz and .safetensors files check claimed sizes against them, and the scenario writer and
reader keep an import by the same numbers, so whatever the app writes it reads back."""

from __future__ import annotations

import re
from collections.abc import Callable

from app.model.errors import Problem

__all__ = [
    "ARRAY_NAMES",
    "MAX_CAPTURE_BYTES",
    "MAX_D",
    "MAX_HEADER_BYTES",
    "MAX_HEADS",
    "MAX_SAVED_BYTES",
    "MAX_SAVED_NUMBERS",
    "MAX_SOURCE_CHARS",
    "MAX_T",
    "MAX_TOKEN_CHARS",
    "VALUE_LIMIT",
    "WEIGHT_NAMES",
    "file_label",
    "heads_tokens_width",
]

MAX_T = 4096
MAX_D = 1024
MAX_HEADS = 256
MAX_TOKEN_CHARS = 200
MAX_SOURCE_CHARS = 255
"""Characters of the file name an import keeps: no file system allows a longer name (255
bytes on Linux, 255 UTF-16 units on Windows and macOS), so a real name is never cut."""
VALUE_LIMIT = 1e4
"""Largest |entry| accepted: real q, k sit well inside it, and every scorer stays finite."""
MAX_CAPTURE_BYTES = 512 * 1024 * 1024
"""A file larger than this is not one layer's q and k (T ≤ 4096, d ≤ 1024, a few heads); an
.npz may not unpack to more than this either."""
MAX_HEADER_BYTES = 16 * 1024 * 1024
MAX_SAVED_NUMBERS = 32_768
"""Scenarios and the autosave keep an import of at most this many numbers (q, k and weights
together: T = 128 at d = 128), about 0.7 MB of JSON. The autosave writes the whole state on
the UI thread a second after each change, and the scenario reader walks every value: four
times this took over a second each way on the 2-core machine."""
MAX_SAVED_BYTES = (MAX_T * (6 * MAX_TOKEN_CHARS + 4) + 40 * MAX_SAVED_NUMBERS
                   + 6 * MAX_SOURCE_CHARS + 4096)
"""The most JSON a kept import adds to a scenario: every name at its longest in characters
JSON writes as 6-byte \\u escapes, every number at its longest (24 characters) with its
separator and indentation. The scenario reader's size limit includes it, so an import the
writer keeps is never a file too large to read back (about 6 MB; a real one is far less)."""
WEIGHT_NAMES = ("additive.W1", "additive.W2", "additive.v", "q_norm.weight", "k_norm.weight")
ARRAY_NAMES = ("q", "k", *WEIGHT_NAMES)
"""The arrays a capture is read for; a file's other arrays are never read."""

_SURROGATE = re.compile("[\ud800-\udfff]")
Fail = Callable[[str, str], Exception]


def file_label(name: str) -> str:
    """A file's name as an import shows and saves it: always UTF-8 text, at most
    MAX_SOURCE_CHARS characters.

    A name in another encoding (a GBK name from a zip made on Chinese Windows, unpacked on
    Linux) reaches Python with its bytes as lone surrogates, which no UTF-8 file can hold:
    each becomes U+FFFD, so one odd name can never stop the autosave. A longer name (not a
    real file's) keeps its start and its end.
    """
    text = _SURROGATE.sub("\ufffd", name)
    if len(text) <= MAX_SOURCE_CHARS:
        return text
    half = (MAX_SOURCE_CHARS - 1) // 2
    return f"{text[:half]}…{text[len(text) - (MAX_SOURCE_CHARS - 1 - half):]}"


def heads_tokens_width(shape: tuple[int, ...], name: str, fail: Fail) -> tuple[int, int, int]:
    """(T, d), (heads, T, d) or (1, heads, T, d) as (heads, T, d), each within its limit:
    the one shape rule for arrays read from a file, for headers claimed before any data is
    read, and for an import kept in a scenario."""
    if len(shape) == 2:
        heads, tokens, width = 1, *shape
    elif len(shape) == 3:
        heads, tokens, width = shape
    elif len(shape) == 4 and shape[0] == 1:
        heads, tokens, width = shape[1:]
    else:
        raise fail(name, Problem("import.problem.shape",
                                 "has shape {shape}; expected (T, d), (heads, T, d) "
                                 "or (1, heads, T, d)", shape=tuple(shape)))
    for what, key, count, limit in (
            ("heads", "import.problem.range_heads", heads, MAX_HEADS),
            ("d", "import.problem.range_d", width, MAX_D),
            (f"T of {name}", "import.problem.range_T", tokens, MAX_T)):
        if not 1 <= count <= limit:
            raise fail(name, Problem(key, "{what} is {count}; it must be from 1 to {limit}",
                                     what=what, count=count, limit=limit))
    return heads, tokens, width
