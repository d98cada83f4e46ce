"""Owns captured q and k: a trained model's own queries and keys, read from .npz or .safetensors.

A student's checkpoint is the third world beside the lesson's two. Files are data only: npz is
read with pickles refused, safetensors' header is checked against the file's size here before
the `safetensors` package sees it, and every problem is one CaptureError naming the file.
"""

from __future__ import annotations

import json
import math
import struct
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from app.model.additive import AdditiveWeights
from app.model.errors import DataError
from app.model.qknorm import QKNormWeights
from app.model.scoring import SCORERS, ScorerParams

__all__ = [
    "MAX_CAPTURE_BYTES",
    "MAX_D",
    "MAX_SAVED_NUMBERS",
    "MAX_T",
    "VALUE_LIMIT",
    "WEIGHT_NAMES",
    "Capture",
    "CaptureError",
    "capture_from_arrays",
    "load_capture",
]

MAX_T = 4096
MAX_D = 1024
MAX_HEADS = 256
MAX_TOKEN_CHARS = 200
VALUE_LIMIT = 1e4
"""Largest |entry| accepted: real q, k sit well inside it, and every scorer stays finite."""
MAX_CAPTURE_BYTES = 512 * 1024 * 1024
"""A file larger than this is not one layer's q and k (T ≤ 4096, d ≤ 1024, a few heads)."""
MAX_HEADER_BYTES = 16 * 1024 * 1024
MAX_SAVED_NUMBERS = 32_768
"""Scenarios and the autosave keep an import of at most this many numbers (q, k and weights
together: T = 128 at d = 128), about 0.7 MB of JSON. The autosave writes the whole state on
the UI thread a second after each change, and the scenario reader walks every value: four
times this took over a second each way on the 2-core machine."""
WEIGHT_NAMES = ("additive.W1", "additive.W2", "additive.v", "q_norm.weight", "k_norm.weight")
QK_NORM_EPS = 1e-6
FLOAT_DTYPES = {"F16": np.float16, "F32": np.float32, "F64": np.float64}
SUFFIXES = (".npz", ".safetensors")


class CaptureError(DataError):
    """A capture file that cannot be imported; the message is "FILE: FIELD: PROBLEM"."""


def _frozen(array: np.ndarray, dtype: type = np.float64) -> np.ndarray:
    out = np.array(array, dtype=dtype)
    out.flags.writeable = False
    return out


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
        object.__setattr__(self, "queries", _frozen(self.queries, dtype))
        object.__setattr__(self, "keys", _frozen(self.keys, dtype))
        object.__setattr__(self, "weights",
                           {name: _frozen(value) for name, value in self.weights.items()})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Capture):
            return NotImplemented
        return (
            (self.query_names, self.key_names, self.source, self.head, self.heads)
            == (other.query_names, other.key_names, other.source, other.head, other.heads)
            and self.queries.shape == other.queries.shape
            and self.keys.shape == other.keys.shape
            and np.array_equal(self.queries, other.queries)
            and np.array_equal(self.keys, other.keys)
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

    @cached_property
    def params(self) -> ScorerParams:
        """The learned weights as the scorers take them (None where the file has none)."""
        w = self.weights
        additive = None
        if "additive.W1" in w:
            additive = AdditiveWeights(w["additive.W1"], w["additive.W2"], w["additive.v"])
        qk_norm = None
        gq, gk = w.get("q_norm.weight"), w.get("k_norm.weight")
        if gq is not None or gk is not None:
            gq = gk if gq is None else gq
            gk = gq if gk is None else gk
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
            raise fail("(file)", "is a folder, not a capture file (.npz or .safetensors)")
        if not path.exists():
            raise fail("(file)", "does not exist")
        size = path.stat().st_size
    except OSError as error:
        raise fail("(file)", f"cannot be read ({error.strerror or error})") from None
    if size == 0:
        raise fail("(file)", "is empty")
    if size > MAX_CAPTURE_BYTES:
        raise fail("(file)", f"is larger than {MAX_CAPTURE_BYTES // 2**20} MB; save only the "
                   "q and k of one attention layer")
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise fail("(file)", "must be a .npz or .safetensors file")
    try:
        if suffix == ".npz":
            arrays, tokens = _read_npz(path, fail)
        else:
            arrays, tokens = _read_safetensors(path, size, fail)
    except OSError as error:
        raise fail("(file)", f"cannot be read ({error.strerror or error})") from None
    return capture_from_arrays(arrays, tokens, head, path)


def _read_npz(path: Path, fail: Any) -> tuple[dict[str, np.ndarray], Any]:
    try:
        with np.load(path, allow_pickle=False) as npz:
            names = list(npz.files)
            arrays = {name: npz[name] for name in names if name in ("q", "k", *WEIGHT_NAMES)}
            tokens = npz["tokens"] if "tokens" in names else None
    except zipfile.BadZipFile:
        raise fail("(file)", "is not a valid .npz archive (damaged or another format)") from None
    except ValueError as error:
        if "pickle" in str(error).lower():
            raise fail("(file)", "holds object (pickled) arrays, which are refused: save plain "
                       "number arrays and a string array of tokens") from None
        raise fail("(file)", f"cannot be read as .npz ({error})") from None
    except (EOFError, KeyError, zipfile.LargeZipFile) as error:
        raise fail("(file)", f"is a damaged .npz archive ({error})") from None
    if tokens is not None:
        if tokens.dtype.kind not in "US" or tokens.ndim != 1:
            raise fail("tokens", "must be a 1-D array of strings")
        try:
            tokens = [t.decode("utf-8") if isinstance(t, bytes) else str(t)
                      for t in tokens.tolist()]
        except UnicodeDecodeError:
            raise fail("tokens", "are bytes that are not UTF-8 text") from None
    return arrays, tokens


def _read_safetensors(path: Path, size: int, fail: Any) -> tuple[dict[str, np.ndarray], Any]:
    """Check the header by hand (length, JSON, offsets inside the file), then let safetensors
    read the tensors: a lying header is named here, not deep inside the library."""
    with path.open("rb") as stream:
        head = stream.read(8)
        if len(head) < 8:
            raise fail("(header)", f"is truncated: {size} bytes, too short for a safetensors "
                       "header")
        (length,) = struct.unpack("<Q", head)
        if length == 0 or length > MAX_HEADER_BYTES or 8 + length > size:
            raise fail("(header)", f"says its header is {length} bytes but the file has "
                       f"{size - 8} after the length: truncated or not safetensors")
        text = stream.read(length)
    try:
        header = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise fail("(header)", "is not valid JSON: damaged or not a safetensors file") from None
    if not isinstance(header, dict):
        raise fail("(header)", "must be a JSON object of tensors")
    data_bytes = size - 8 - length
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
        if (not isinstance(offsets, list) or len(offsets) != 2
                or not all(type(o) is int for o in offsets)
                or not 0 <= offsets[0] <= offsets[1] <= data_bytes):
            raise fail(name, f"data_offsets {offsets!r} lie outside the file's "
                       f"{data_bytes} data bytes (truncated or lying header)")
        if name in ("q", "k", *WEIGHT_NAMES):
            dtype = entry.get("dtype")
            if dtype not in FLOAT_DTYPES:
                raise fail(name, f"has dtype {dtype}; save it as float32 (F32), float16 or "
                           "float64 (bfloat16 needs .float() first)")
            shape = entry.get("shape")
            if (not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape)
                    or math.prod(shape) * np.dtype(FLOAT_DTYPES[dtype]).itemsize
                    != offsets[1] - offsets[0]):
                raise fail(name, f"shape {shape!r} does not match its {offsets[1] - offsets[0]} "
                           "bytes (lying header)")
    meta = header.get("__metadata__")
    tokens = None
    if meta is not None:
        if not isinstance(meta, dict):
            raise fail("__metadata__", "must be an object of text entries")
        if "tokens" in meta:
            try:
                tokens = json.loads(meta["tokens"]) if isinstance(meta["tokens"], str) else 0
            except json.JSONDecodeError:
                raise fail("tokens", "metadata must be a JSON list of strings") from None
            if not isinstance(tokens, list):
                raise fail("tokens", "metadata must be a JSON list of strings")
    from safetensors import safe_open  # only an import needs it; start-up stays lean

    arrays: dict[str, np.ndarray] = {}
    try:
        with safe_open(str(path), framework="np") as reader:
            for name in reader.keys():  # noqa: SIM118 - safe_open is not a dict
                if name in ("q", "k", *WEIGHT_NAMES):
                    arrays[name] = reader.get_tensor(name)
    except Exception as error:  # SafetensorError and friends: any refusal is "damaged"
        raise fail("(file)", f"cannot be read as safetensors ({error})") from None
    return arrays, tokens


def _one_head(array: np.ndarray, name: str, fail: Any) -> np.ndarray:
    """(T, d), (heads, T, d) or (1, heads, T, d) → (heads, T, d)."""
    if array.dtype.kind not in "fiu" or array.dtype.kind == "b":
        raise fail(name, f"must hold real numbers, found dtype {array.dtype}")
    shape = array.shape
    if array.ndim == 2:
        return array[np.newaxis]
    if array.ndim == 3:
        return array
    if array.ndim == 4 and shape[0] == 1:
        return array[0]
    raise fail(name, f"has shape {shape}; expected (T, d), (heads, T, d) or (1, heads, T, d)")


def capture_from_arrays(arrays: Mapping[str, np.ndarray], tokens: Any, head: int = 0,
                        source: Path | str = "<capture>", fail: Any = None) -> Capture:
    """Check and slice arrays already read (q, k, weights) into one head's Capture."""
    path = Path(source)

    def file_error(where: str, problem: str) -> CaptureError:
        return CaptureError(path, where, problem)

    fail = fail or file_error

    for name in ("q", "k"):
        if name not in arrays:
            other = ", ".join(sorted(arrays)) or "no arrays we use"
            raise fail(name, f"is missing: a capture needs arrays 'q' and 'k' (found {other})")
    q = _one_head(np.asarray(arrays["q"]), "q", fail)
    k = _one_head(np.asarray(arrays["k"]), "k", fail)
    (hq, tq, dq), (hk, tk, dk) = q.shape, k.shape
    if dq != dk:
        raise fail("k", f"has width d = {dk} but q has d = {dq}; they must match")
    for name, count, limit in (("heads", max(hq, hk), MAX_HEADS), ("d", dq, MAX_D),
                               ("T of q", tq, MAX_T), ("T of k", tk, MAX_T)):
        if not 1 <= count <= limit:
            raise fail("q" if name != "T of k" else "k",
                       f"{name} is {count}; it must be from 1 to {limit}")
    if hq % hk:
        raise fail("k", f"has {hk} heads, which does not divide q's {hq} (grouped heads)")
    if tq > tk:
        raise fail("q", f"has {tq} queries but k only {tk} keys; keys must cover every query")
    if head >= hq:
        raise fail("head", f"{head} is out of range: the file has {hq} head"
                   f"{'s' if hq > 1 else ''} (0–{hq - 1})")
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
        raise fail(name, f"has non-finite values (NaN or ±inf), first at token {row}, "
                   f"dimension {col}")
    if values.size and float(np.max(np.abs(values))) > VALUE_LIMIT:
        raise fail(name, f"has values beyond ±{VALUE_LIMIT:g}; not the q or k of a layer")


def _token_names(tokens: Any, count: int, fail: Any) -> tuple[str, ...]:
    if tokens is None:
        return tuple(f"#{i}" for i in range(count))
    if len(tokens) != count:
        raise fail("tokens", f"has {len(tokens)} names but there are {count} keys; name every "
                   "key (queries take the last names)")
    for i, token in enumerate(tokens):
        if not isinstance(token, str):
            raise fail(f"tokens[{i}]", f"must be a string, found {type(token).__name__}")
        if len(token) > MAX_TOKEN_CHARS:
            raise fail(f"tokens[{i}]", f"is longer than {MAX_TOKEN_CHARS} characters")
        try:
            token.encode("utf-8")
        except UnicodeEncodeError:
            raise fail(f"tokens[{i}]", "holds a lone surrogate, not text") from None
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
