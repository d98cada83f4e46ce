"""Owns a checkpoint's weights: one `model.safetensors` or shards listed by
`model.safetensors.index.json`, each header checked against its file's size before a tensor is
read, and each tensor read through safetensors' memory-mapped NumPy API only when asked, so a
forward pass to layer 2 never touches layer 20."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import ml_dtypes
import numpy as np
from safetensors import safe_open

from app.model.checkpoint.refusal import CheckpointError

__all__ = ["DTYPES", "WeightStore", "open_weights"]

DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": ml_dtypes.bfloat16}
"""The dtypes read from disk; quantised and integer tensors are refused by name."""
MAX_HEADER = 100 * 1024 * 1024


Header = dict[str, tuple[str, tuple[int, ...], int]]


def _header(path: Path) -> Header:
    """Each tensor's (dtype, shape, offset of its first byte in the file), after checking
    that every byte it claims is in the file."""
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(8)
            length = struct.unpack("<Q", head)[0] if len(head) == 8 else -1
            if not 0 < length <= min(MAX_HEADER, size - 8):
                raise CheckpointError(f"{path.name} is truncated or not a safetensors file "
                                      f"(its header does not fit in its {size} bytes).")
            meta = json.loads(f.read(length))
    except OSError as exc:
        raise CheckpointError(f"{path.name} cannot be read ({exc.strerror}).") from None
    except ValueError:
        raise CheckpointError(f"{path.name} has a header that is not valid JSON.") from None
    data = size - 8 - length
    tensors = {}
    for name, info in meta.items():
        if name == "__metadata__":
            continue
        dtype, shape = info.get("dtype"), tuple(info.get("shape", ()))
        start, end = info.get("data_offsets", (0, -1))
        if dtype not in DTYPES:
            raise CheckpointError(f"{path.name}: tensor {name} is stored as {dtype}; only "
                                  f"{', '.join(DTYPES)} are read (not quantised weights).")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end):
            raise CheckpointError(f"{path.name}: tensor {name} has invalid data offsets.")
        if end > data:
            raise CheckpointError(f"{path.name} is truncated: tensor {name} ends at byte "
                                  f"{end} of data but the file holds {data}.")
        if end - start != int(np.prod(shape)) * np.dtype(DTYPES[dtype]).itemsize:
            raise CheckpointError(f"{path.name}: tensor {name}'s shape {list(shape)} does "
                                  f"not match its {end - start} bytes.")
        tensors[name] = (dtype, shape, 8 + length + start)
    return tensors


def _float32(a: np.ndarray) -> np.ndarray:
    """`a` widened to float32; bfloat16 is float32's top half, so its bits shift into place
    (several times faster than a cast through the bfloat16 type)."""
    if a.dtype == ml_dtypes.bfloat16:
        return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float32, copy=False)


class WeightStore:
    """Named tensors across a checkpoint's files, read on demand as float32."""

    def __init__(self, files: dict[str, Path], headers: Header) -> None:
        self._files = files
        self._headers = headers
        self._open: dict[Path, safe_open] = {}

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._headers)

    def dtypes(self) -> frozenset[str]:
        """The dtypes on disk, e.g. {"BF16"}."""
        return frozenset(dtype for dtype, _, _ in self._headers.values())

    def shape(self, name: str) -> tuple[int, ...]:
        return self._headers[name][1]

    def _check(self, name: str, shape: tuple[int, ...]) -> None:
        if name not in self._headers:
            raise CheckpointError(f"the checkpoint has no weight {name}.")
        if self.shape(name) != shape:
            raise CheckpointError(f"weight {name} has shape {list(self.shape(name))} but the "
                                  f"config implies {list(shape)}.")

    def rows(self, name: str, shape: tuple[int, ...], ids: np.ndarray) -> np.ndarray:
        """Rows `ids` of matrix `name` as float32, the rest left on disk: an embedding table
        of 150 000 tokens is not converted to look up 30 of them."""
        self._check(name, shape)
        dtype, _, offset = self._headers[name]
        table = np.memmap(self._files[name], dtype=DTYPES[dtype], mode="r", offset=offset,
                          shape=shape)
        return _float32(np.asarray(table[ids]))

    def get(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """Tensor `name` as float32, refused when its shape is not the one the config implies."""
        self._check(name, shape)
        path = self._files[name]
        if path not in self._open:
            self._open[path] = safe_open(str(path), framework="np")
        # safetensors' stub leaves get_tensor unannotated (it returns the NumPy array).
        tensor: np.ndarray = self._open[path].get_tensor(name)  # type: ignore[no-untyped-call]
        return _float32(tensor)


def open_weights(folder: Path) -> WeightStore:
    """The weights of `folder`, from its shard index when it has one."""
    index = folder / "model.safetensors.index.json"
    single = folder / "model.safetensors"
    if index.is_file():
        try:
            weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        except (OSError, ValueError, KeyError, TypeError):
            raise CheckpointError(f"{index.name} has no readable weight_map.") from None
        shards = sorted(set(weight_map.values()))
    elif single.is_file():
        weight_map, shards = None, [single.name]
    else:
        raise CheckpointError(f"{folder.name} has no model.safetensors (nor a "
                              f"model.safetensors.index.json listing its shards).")
    files: dict[str, Path] = {}
    headers: Header = {}
    for shard in shards:
        path = folder / shard
        if not path.is_file():
            raise CheckpointError(f"shard {shard} listed in the index is missing.")
        for name, info in _header(path).items():
            if weight_map is None or weight_map.get(name) == shard:
                files[name], headers[name] = path, info
    if weight_map is not None:
        missing = sorted(set(weight_map) - set(headers))
        if missing:
            raise CheckpointError(f"weight {missing[0]} is listed in the index but is not in "
                                  f"{weight_map[missing[0]]}.")
    return WeightStore(files, headers)
