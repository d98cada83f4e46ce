"""Owns captured q and k: a trained model's own queries and keys, read from .npz or .safetensors.

A student's checkpoint is the third world beside the lesson's two. Files are data only (the
readers in `capture.read` check every claimed size before reading data, and refuse pickles);
every problem is one CaptureError naming the file.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from app.model.capture.limits import (
    MAX_CAPTURE_BYTES,
    MAX_D,
    MAX_HEADS,
    MAX_SAVED_NUMBERS,
    MAX_T,
    MAX_TOKEN_CHARS,
    VALUE_LIMIT,
    WEIGHT_NAMES,
    file_label,
    heads_tokens_width,
)
from app.model.capture.read import read_npz, read_safetensors
from app.model.errors import DataError, Problem
from app.model.jsonfile import describe
from app.model.scoring import SCORERS, ScorerParams
from app.model.scoring.additive import AdditiveWeights
from app.model.scoring.qknorm import QKNormWeights

__all__ = [
    "MAX_CAPTURE_BYTES",
    "MAX_D",
    "MAX_HEADS",
    "MAX_SAVED_NUMBERS",
    "MAX_T",
    "MAX_TOKEN_CHARS",
    "VALUE_LIMIT",
    "WEIGHT_NAMES",
    "Capture",
    "CaptureError",
    "capture_from_arrays",
    "load_capture",
]

QK_NORM_EPS = 1e-6
SUFFIXES = (".npz", ".safetensors")


class CaptureError(DataError):
    """A capture file that cannot be imported; the message is "FILE: FIELD: PROBLEM"."""


def _frozen(array: np.ndarray, dtype: type = np.float64) -> np.ndarray:
    """A read-only array of `dtype` that no one else can write to: an array already so (an
    edited capture's unchanged half, or the matrix its edit built) is taken as it is, since
    copying a T = 4096 capture's keys costs a tenth of a drag step."""
    if (isinstance(array, np.ndarray) and array.dtype == dtype and not array.flags.writeable
            and array.flags.owndata):
        return array
    out: np.ndarray = np.array(array, dtype=dtype)
    out.flags.writeable = False
    return out


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal arrays; the same (read-only) array is equal without reading its cells, which
    is what an edit's unchanged half is."""
    return a is b or np.array_equal(a, b)


@dataclass(frozen=True, eq=False)
class Capture:
    """One head's queries (Tq, d) and keys (Tk, d), their token names and learned weights.

    A float32 (or float16) capture stays float32: half the memory, and at T = 4096 the
    matmul and softmax of a drag step take a fraction of float64's time; float64 stays float64.
    """

    queries: np.ndarray
    keys: np.ndarray
    query_names: tuple[str, ...]
    key_names: tuple[str, ...]
    source: str = ""
    head: int = 0
    heads: int = 1
    weights: Mapping[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        wide = np.float64 in (np.asarray(self.queries).dtype, np.asarray(self.keys).dtype)
        dtype = np.float64 if wide else np.float32
        object.__setattr__(self, "source", file_label(self.source))  # always savable text
        object.__setattr__(self, "queries", _frozen(self.queries, dtype))
        object.__setattr__(self, "keys", _frozen(self.keys, dtype))
        object.__setattr__(self, "weights",
                           {name: _frozen(value) for name, value in self.weights.items()})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Capture):
            return NotImplemented
        if self is other:
            return True
        for edited, origin in ((self, other), (other, self)):
            row = edited.edited_from(origin)
            if row is not None:  # all else is the origin's own: only that vector can differ
                role, index = row
                return bool(np.array_equal(edited.vectors(role)[index],
                                           origin.vectors(role)[index]))
        return (
            (self.query_names, self.key_names, self.source, self.head, self.heads)
            == (other.query_names, other.key_names, other.source, other.head, other.heads)
            and self.queries.shape == other.queries.shape
            and self.keys.shape == other.keys.shape
            and _same(self.queries, other.queries)
            and _same(self.keys, other.keys)
            and self.weights.keys() == other.weights.keys()
            and all(np.array_equal(v, other.weights[n]) for n, v in self.weights.items())
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def d(self) -> int:
        return int(self.queries.shape[1])

    @property
    def numbers(self) -> int:
        """How many numbers a scenario would have to hold for this import."""
        return int(self.queries.size + self.keys.size
                   + sum(w.size for w in self.weights.values()))

    @property
    def savable(self) -> bool:
        """Small enough for scenarios and the autosave (MAX_SAVED_NUMBERS)."""
        return self.numbers <= MAX_SAVED_NUMBERS

    def with_vectors(self, queries: np.ndarray, keys: np.ndarray) -> Capture:
        return Capture(queries, keys, self.query_names, self.key_names, self.source,
                       self.head, self.heads, self.weights)

    def with_vector(self, role: str, index: int, values: np.ndarray) -> Capture:
        """This capture with query ("q") or key ("k") `index` replaced by `values`, which
        remembers being so: comparing it with this one, or finding what a drag step edited,
        then reads one vector instead of the T×d matrices (every panel compares at every
        step). The other matrix and the weights are this capture's own, not copies."""
        matrix = np.array(self.vectors(role))  # keeps its dtype
        matrix[index] = values
        matrix.flags.writeable = False
        queries, keys = (matrix, self.keys) if role == "q" else (self.queries, matrix)
        edited = self.with_vectors(queries, keys)
        object.__setattr__(edited, "_origin", (weakref.ref(self), role, index))
        return edited

    def edited_from(self, origin: Capture) -> tuple[str, int] | None:
        """(role, index) when this capture is `origin.with_vector(role, index, …)`, else
        None (also when it may be but was not made so)."""
        made = self.__dict__.get("_origin")
        if made is None or made[0]() is not origin:
            return None
        return made[1], made[2]

    def vectors(self, role: str) -> np.ndarray:
        """The queries ("q") or the keys ("k")."""
        return self.queries if role == "q" else self.keys

    @cached_property
    def params(self) -> ScorerParams:
        """The learned weights as the scorers take them (None where the file has none)."""
        w = self.weights
        additive = None
        if "additive.W1" in w:
            additive = AdditiveWeights(w["additive.W1"], w["additive.W2"], w["additive.v"])
        qk_norm = None
        gq, gk = w.get("q_norm.weight"), w.get("k_norm.weight")
        gq = gk if gq is None else gq
        gk = gq if gk is None else gk
        if gq is not None and gk is not None:
            # One gain g with g² = g_q·g_k gives exactly Σ n_q n_k g_q g_k (checked ≥ 0).
            qk_norm = QKNormWeights(np.sqrt(gq * gk), QK_NORM_EPS)
        return ScorerParams(additive=additive, qk_norm=qk_norm)

    def available(self, scorer: str) -> bool:
        """False for a scorer that needs learned weights this capture does not carry."""
        needs = SCORERS[scorer].needs
        return needs is None or getattr(self.params, needs) is not None


# ---- reading --------------------------------------------------------------------------------

def load_capture(path: Path | str, head: int = 0) -> Capture:
    """Read one head of a capture file. Raises CaptureError (one line) for every bad input."""
    path = Path(path)

    def fail(where: str, problem: str) -> CaptureError:
        return CaptureError(path, where, problem)

    if not isinstance(head, int) or isinstance(head, bool) or head < 0:
        raise fail("head", f"must be a whole number ≥ 0, found {head!r}")
    try:
        if path.is_dir():
            raise fail("(file)", Problem("import.problem.folder",
                                         "is a folder, not a capture file (.npz or "
                                         ".safetensors)"))
        if not path.exists():
            raise fail("(file)", Problem("import.problem.missing", "does not exist"))
        size = path.stat().st_size
    except OSError as error:
        raise fail("(file)", Problem("import.problem.unreadable", "cannot be read ({reason})",
                                     reason=error.strerror or error)) from None
    if size == 0:
        raise fail("(file)", Problem("import.problem.empty", "is empty"))
    if size > MAX_CAPTURE_BYTES:
        raise fail("(file)", Problem("import.problem.too_large",
                                     "is larger than {mb} MB; save only the q and "
                                     "k of one attention layer", mb=MAX_CAPTURE_BYTES // 2**20))
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise fail("(file)", Problem("import.problem.suffix",
                                     "must be a .npz or .safetensors file"))
    try:
        if suffix == ".npz":
            arrays, tokens = read_npz(path, fail)
        else:
            arrays, tokens = read_safetensors(path, size, fail)
    except OSError as error:
        raise fail("(file)", Problem("import.problem.unreadable", "cannot be read ({reason})",
                                     reason=error.strerror or error)) from None
    return capture_from_arrays(arrays, tokens, head, path)


def _one_head(array: np.ndarray, name: str, fail: Any) -> np.ndarray:
    """(T, d), (heads, T, d) or (1, heads, T, d) → (heads, T, d), within the limits."""
    if array.dtype.kind not in "fiu":
        raise fail(name, Problem("import.problem.not_numbers",
                                 "must hold real numbers, found dtype {dtype}",
                                 dtype=array.dtype))
    return array.reshape(heads_tokens_width(array.shape, name, fail))


def capture_from_arrays(arrays: Mapping[str, np.ndarray], tokens: Any, head: int = 0,
                        source: Path | str = "<capture>", fail: Any = None) -> Capture:
    """Check and slice arrays already read (q, k, weights) into one head's Capture."""
    path = Path(source)

    def file_error(where: str, problem: str) -> CaptureError:
        return CaptureError(path, where, problem)

    fail = fail or file_error

    for name in ("q", "k"):
        if name not in arrays:
            found = ", ".join(sorted(arrays))
            raise fail(name, Problem("import.problem.no_array",
                                     "is missing: a capture needs arrays 'q' and 'k' "
                                     "(found {found})", found=found) if found else
                       Problem("import.problem.no_arrays",
                               "is missing: a capture needs arrays 'q' and 'k' "
                               "(found no arrays it uses)"))
    q = _one_head(np.asarray(arrays["q"]), "q", fail)
    k = _one_head(np.asarray(arrays["k"]), "k", fail)
    (hq, tq, dq), (hk, tk, dk) = q.shape, k.shape
    if dq != dk:
        raise fail("k", Problem("import.problem.widths",
                                "has width d = {dk} but q has d = {dq}; they must "
                                "match", dk=dk, dq=dq))
    if hq % hk:
        raise fail("k", Problem("import.problem.heads_divide",
                                "has {hk} heads, which does not divide q's {hq} "
                                "(grouped heads)", hk=hk, hq=hq))
    if tq > tk:
        raise fail("q", Problem("import.problem.fewer_keys",
                                "has {tq} queries but k only {tk} keys; keys must "
                                "cover every query", tq=tq, tk=tk))
    if head >= hq:
        raise fail("head", Problem("import.problem.head_range",
                                   "{head} is out of range: the file has {heads} "
                                   "head{s} (0–{last})", head=head, heads=hq,
                                   s="s" if hq > 1 else "", last=hq - 1))
    wide = np.float64 in (q.dtype, k.dtype) or q.dtype.kind != "f" or k.dtype.kind != "f"
    dtype = np.float64 if wide else np.float32
    queries = q[head].astype(dtype)
    keys = k[head // (hq // hk)].astype(dtype)
    for name, values in (("q", queries), ("k", keys)):
        _check_values(values, name, fail)
    key_names = _token_names(tokens, tk, fail)
    weights = _weights(arrays, dq, fail)
    return Capture(queries, keys, key_names[tk - tq:], key_names, path.name, head, hq,
                   weights)


def _check_values(values: np.ndarray, name: str, fail: Any) -> None:
    bad = ~np.isfinite(values)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise fail(name, Problem("import.problem.not_finite",
                                 "has non-finite values (NaN or ±inf), first at "
                                 "token {row}, dimension {col}", row=int(row), col=int(col)))
    if values.size and float(np.max(np.abs(values))) > VALUE_LIMIT:
        raise fail(name, Problem("import.problem.too_big",
                                 "has values beyond ±{limit}; not the q or k of a "
                                 "layer", limit=f"{VALUE_LIMIT:g}"))


def _token_names(tokens: Any, count: int, fail: Any) -> tuple[str, ...]:
    if tokens is None:
        return tuple(f"#{i}" for i in range(count))
    if len(tokens) != count:
        raise fail("tokens", Problem("import.problem.token_count",
                                     "has {names} names but there are {keys} "
                                     "keys; name every key (queries take the last names)",
                                     names=len(tokens), keys=count))
    for i, token in enumerate(tokens):
        if not isinstance(token, str):
            raise fail(f"tokens[{i}]", Problem("import.problem.token_text",
                                               "must be a string, found {found}",
                                               found=describe(token)))
        if len(token) > MAX_TOKEN_CHARS:
            raise fail(f"tokens[{i}]", Problem("import.problem.token_long",
                                               "is longer than {chars} characters",
                                               chars=MAX_TOKEN_CHARS))
        try:
            token.encode("utf-8")
        except UnicodeEncodeError:
            raise fail(f"tokens[{i}]", Problem("import.problem.token_surrogate",
                                               "holds a lone surrogate, "
                                               "not text")) from None
    return tuple(tokens)


def _weights(arrays: Mapping[str, np.ndarray], d: int, fail: Any) -> dict[str, np.ndarray]:
    weights: dict[str, np.ndarray] = {}
    additive = [n for n in WEIGHT_NAMES[:3] if n in arrays]
    if additive and len(additive) < 3:
        missing = ", ".join(n for n in WEIGHT_NAMES[:3] if n not in arrays)
        raise fail("additive", f"needs W1, W2 and v together; missing {missing}")
    if additive:
        w1 = np.asarray(arrays["additive.W1"])
        d_a = w1.shape[0] if w1.ndim == 2 else 0
        for name, shape in (("additive.W1", (d_a, d)), ("additive.W2", (d_a, d)),
                            ("additive.v", (d_a,))):
            weights[name] = _weight(arrays[name], name, shape, fail)
        if not 1 <= d_a <= MAX_D:
            raise fail("additive.W1", f"has {d_a} rows; d_a must be from 1 to {MAX_D}")
    for name in WEIGHT_NAMES[3:]:
        if name in arrays:
            weights[name] = _weight(arrays[name], name, (d,), fail)
    gq, gk = weights.get("q_norm.weight"), weights.get("k_norm.weight")
    if gq is not None and gk is not None and np.any(gq * gk < 0):
        i = int(np.flatnonzero(gq * gk < 0)[0])
        raise fail("k_norm.weight", f"differs in sign from q_norm.weight at dimension {i}; "
                   "the app folds both gains into one and cannot show that")
    return weights


def _weight(value: np.ndarray, name: str, shape: tuple[int, ...], fail: Any) -> np.ndarray:
    array = np.asarray(value)
    if array.dtype.kind not in "fiu":
        raise fail(name, f"must hold real numbers, found dtype {array.dtype}")
    if array.shape != shape:
        raise fail(name, f"has shape {array.shape}; expected {shape}")
    array = array.astype(np.float64)
    if not np.isfinite(array).all() or (array.size and np.max(np.abs(array)) > VALUE_LIMIT):
        raise fail(name, f"has non-finite values or values beyond ±{VALUE_LIMIT:g}")
    return array
