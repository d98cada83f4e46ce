"""Owns reading a capture file's arrays (.npz and .safetensors) without trusting the file:
every claimed shape, dtype and size is checked against the capture's limits before a byte of
data is read or unpacked, and every parser's failure becomes one line naming the file.

An .npz is opened with `zipfile` here, and each member's .npy header is parsed with NumPy's
own `numpy.lib.format` header readers, so a 2 MB archive that unpacks to gigabytes, or a
header that claims petabytes, is refused from its header. A safetensors header is parsed
with the app's guarded JSON reader (deep nesting, huge integers) and its offsets and shapes
are checked against the file's size before the `safetensors` package reads a tensor.
"""

from __future__ import annotations

import lzma
import math
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib import format as npy

from app.model.capture.limits import (
    ARRAY_NAMES,
    MAX_CAPTURE_BYTES,
    MAX_D,
    MAX_HEADER_BYTES,
    MAX_T,
    MAX_TOKEN_CHARS,
    Fail,
    heads_tokens_width,
)
from app.model.errors import Problem
from app.model.jsonfile import ROOT, TooLong, describe, parse_json

FLOAT_DTYPES = {"F16": np.float16, "F32": np.float32, "F64": np.float64}
NPY_HEADER_BYTES = 10_000
"""NumPy's own cap on a .npy header (`max_header_size`): a real one is about 128 bytes."""
TOKEN_BYTES = 4 * MAX_TOKEN_CHARS
"""Bytes a token name of MAX_TOKEN_CHARS characters can take (UTF-8 or NumPy's UTF-32)."""
Arrays = tuple[dict[str, np.ndarray], Any]


def one_line(error: BaseException) -> str:
    """An exception from a parser as a short single line, for the end of our own message."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 160 else text[:159] + "…"


def claimed(name: str, shape: tuple[int, ...], dtype: np.dtype, fail: Fail) -> int:
    """Check an array's claimed shape and dtype against the limits; returns its byte count.

    Runs on headers, before any data is read: q and k follow the capture's shape rule, the
    learned weights are at most d_a × d, the token names at most MAX_T of MAX_TOKEN_CHARS.
    """
    if name == "tokens":
        if dtype.kind not in "US" or len(shape) != 1:
            raise fail("tokens", "must be a 1-D array of strings")
        if shape[0] > MAX_T or dtype.itemsize > TOKEN_BYTES:
            raise fail("tokens", f"claims {shape[0]} names of up to {dtype.itemsize} bytes; "
                       f"a capture has at most {MAX_T} names of {MAX_TOKEN_CHARS} characters")
    elif dtype.kind not in "fiu":
        raise fail(name, f"must hold real numbers, found dtype {dtype}")
    elif name in ("q", "k"):
        heads_tokens_width(shape, name, fail)
    elif len(shape) > 2 or any(size > MAX_D for size in shape):
        raise fail(name, f"has shape {tuple(shape)}; learned weights are at most "
                   f"{MAX_D} × {MAX_D}")
    return math.prod(shape) * dtype.itemsize


# ---- .npz -----------------------------------------------------------------------------------

def read_npz(path: Path, fail: Fail) -> Arrays:
    """The arrays a capture uses and its token names (or None) from an .npz archive."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = {info.filename[:-4]: info for info in archive.infolist()
                       if info.filename.endswith(".npy")
                       and info.filename[:-4] in (*ARRAY_NAMES, "tokens")}
            headers = {name: _npy_header(archive, info, name, fail)
                       for name, info in members.items()}
            unpacked = sum(info.file_size for info in members.values())
            if unpacked > MAX_CAPTURE_BYTES:
                raise fail(ROOT, Problem("import.problem.unpacks_large",
                                         "unpacks to {size} bytes, more than "
                                         "{mb} MB; save only the q and k of one attention "
                                         "layer", size=f"{unpacked:,}",
                                         mb=MAX_CAPTURE_BYTES // 2**20))
            arrays = {name: _npy_data(archive, members[name], *header)
                      for name, header in headers.items()}
    except zipfile.BadZipFile:
        raise fail(ROOT, Problem("import.problem.not_npz",
                                 "is not a valid .npz archive (damaged or another "
                                 "format)")) from None
    except (OSError, EOFError, ValueError, RuntimeError, NotImplementedError, OverflowError,
            RecursionError, MemoryError, struct.error, zlib.error, lzma.LZMAError,
            zipfile.LargeZipFile) as error:  # encrypted, unknown compression, damaged data
        raise fail(ROOT, Problem("import.problem.damaged_npz",
                                 "is a damaged .npz archive ({detail})",
                                 detail=one_line(error))) from None
    stored = arrays.pop("tokens", None)
    tokens = None
    if stored is not None:
        try:
            tokens = [t.decode("utf-8") if isinstance(t, bytes) else str(t)
                      for t in stored.tolist()]
        except UnicodeDecodeError:
            raise fail("tokens", "are bytes that are not UTF-8 text") from None
    return arrays, tokens


def _npy_header(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str,
                fail: Fail) -> tuple[tuple[int, ...], bool, np.dtype, int]:
    """(shape, Fortran order, dtype, header bytes) of one member, its sizes checked."""
    with archive.open(info) as stream:
        try:
            version = npy.read_magic(stream)
            readers = {(1, 0): npy.read_array_header_1_0, (2, 0): npy.read_array_header_2_0}
            if version not in readers:
                raise fail(name, f"is a .npy file of format version {version[0]}.{version[1]}; "
                           "save it with numpy.savez")
            shape, fortran, dtype = readers[version](stream, max_header_size=NPY_HEADER_BYTES)
        except ValueError as error:
            raise fail(name, f"has a damaged .npy header ({one_line(error)})") from None
        start = stream.tell()
    if dtype.hasobject:
        raise fail(name, "holds object (pickled) arrays, which are refused: save plain "
                   "number arrays and a string array of tokens")
    size = claimed(name, shape, dtype, fail)
    if size != info.file_size - start:
        raise fail(name, f"claims shape {tuple(shape)} of {dtype} ({size:,} bytes) but holds "
                   f"{info.file_size - start:,} bytes: a damaged or lying header")
    return shape, fortran, dtype, start


def _npy_data(archive: zipfile.ZipFile, info: zipfile.ZipInfo, shape: tuple[int, ...],
              fortran: bool, dtype: np.dtype, start: int) -> np.ndarray:
    """One member's data, its size already checked (reading to the end checks its CRC)."""
    with archive.open(info) as stream:
        stream.read(start)
        raw = stream.read(info.file_size - start)
    flat = np.frombuffer(raw, dtype=dtype) if raw else np.zeros(0, dtype)
    if fortran:
        transposed: np.ndarray = flat.reshape(shape[::-1]).transpose()
        return transposed
    return flat.reshape(shape)


# ---- .safetensors ---------------------------------------------------------------------------

def read_safetensors(path: Path, size: int, fail: Fail) -> Arrays:
    """Check the header by hand (length, JSON, offsets and shapes against the file's size),
    then let safetensors read the tensors: a lying header is named here, not deep inside
    the library."""
    with path.open("rb") as stream:
        head = stream.read(8)
        if len(head) < 8:
            raise fail(ROOT, Problem("import.problem.short_safetensors",
                                     "is truncated: {size} bytes, too "
                                     "short for a safetensors header", size=size))
        (length,) = struct.unpack("<Q", head)
        if length == 0 or length > MAX_HEADER_BYTES or 8 + length > size:
            raise fail(ROOT, Problem("import.problem.header_length",
                                     "says its header is {length} bytes but "
                                     "the file has {left} after the length: truncated or not "
                                     "safetensors", length=length, left=size - 8))
        text = stream.read(length)
    try:
        header = _json(text.decode("utf-8"), "(header)", "a safetensors header", fail)
    except UnicodeDecodeError:
        raise fail(ROOT, Problem("import.problem.header_text",
                                 "has a header that is not UTF-8 text: damaged "
                                 "or not a safetensors file")) from None
    if not isinstance(header, dict):
        raise fail(ROOT, Problem("import.problem.header_object",
                                 "has a header that is not a JSON object of "
                                 "tensors"))
    data_bytes = size - 8 - length
    for name, entry in header.items():
        if name != "__metadata__":
            _check_entry(name, entry, data_bytes, fail)
    tokens = _tokens(header.get("__metadata__"), fail)
    from safetensors import safe_open  # only an import needs it; start-up stays lean

    arrays: dict[str, np.ndarray] = {}
    try:
        with safe_open(str(path), framework="np") as reader:
            for name in reader.keys():  # noqa: SIM118 - safe_open is not a dict
                if name in ARRAY_NAMES:
                    arrays[name] = reader.get_tensor(name)
    except Exception as error:  # SafetensorError and friends: any refusal is "damaged"
        raise fail(ROOT, Problem("import.problem.not_safetensors",
                                 "cannot be read as safetensors ({detail})",
                                 detail=one_line(error))) from None
    return arrays, tokens


def _json(text: str, where: str, what: str, fail: Fail) -> Any:
    """JSON from a file's header, every parser failure (nested too deeply, an integer of
    thousands of digits, not JSON at all) as `fail(where, …)`."""

    def parse_fail(at: str, problem: str) -> Exception:
        return fail(where, problem if at == ROOT else f"{problem} at {at}")

    return parse_json(text, parse_fail, what)


def _shown(value: Any) -> str:
    """A header's value for a message: a short list of small integers as written, anything
    else described (never a thousand digits in one line)."""
    too_long = [v for v in value if isinstance(v, TooLong)] if isinstance(value, list) else []
    if too_long:
        return f"[… {describe(too_long[0])} …]"
    if (isinstance(value, list) and len(value) <= 4
            and all(type(v) is int and abs(v) < 10**18 for v in value)):
        return repr(value)
    return describe(value)


def _check_entry(name: str, entry: Any, data_bytes: int, fail: Fail) -> None:
    """One tensor's offsets lie inside the file; a tensor we read has a float dtype and a
    shape within the limits whose bytes fill exactly its offsets."""
    offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
    if (not isinstance(offsets, list) or len(offsets) != 2
            or not all(type(o) is int for o in offsets)
            or not 0 <= offsets[0] <= offsets[1] <= data_bytes):
        raise fail(name, f"data_offsets {_shown(offsets)} lie outside the file's "
                   f"{data_bytes} data bytes (truncated or lying header)")
    if name not in ARRAY_NAMES:
        return
    dtype = entry.get("dtype")
    if not isinstance(dtype, str) or dtype not in FLOAT_DTYPES:
        raise fail(name, f"has dtype {describe(dtype)}; save it as float32 (F32), float16 or "
                   "float64 (bfloat16 needs .float() first)")
    shape = entry.get("shape")
    if not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape):
        raise fail(name, f"shape {_shown(shape)} is not a list of whole numbers")
    span = offsets[1] - offsets[0]
    if claimed(name, tuple(shape), np.dtype(FLOAT_DTYPES[dtype]), fail) != span:
        raise fail(name, f"shape {shape!r} does not match its {span} bytes (lying header)")


def _tokens(meta: Any, fail: Fail) -> list[Any] | None:
    """The `tokens` metadata entry as a list (its items are checked with the capture)."""
    if meta is None:
        return None
    if not isinstance(meta, dict):
        raise fail("__metadata__", "must be an object of text entries")
    if "tokens" not in meta:
        return None
    text = meta["tokens"]
    tokens = _json(text, "tokens", "a list of token names", fail) if isinstance(text, str) else None
    if not isinstance(tokens, list) or len(tokens) > MAX_T:
        raise fail("tokens", f"metadata must be a JSON list of at most {MAX_T} strings")
    return tokens
