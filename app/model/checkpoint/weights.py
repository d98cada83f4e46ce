"""Owns a checkpoint's weights: one `model.safetensors` or shards listed by
`model.safetensors.index.json`, each header checked against its file's size before a tensor is
read, and each tensor read from one read-only memory map of its file only when asked, so a
forward pass to layer 2 never touches layer 20. A float32 tensor is used where it lies in the
map (no copy); float16 and bfloat16 are widened to float32 in one pass from the map."""

from __future__ import annotations

import json
import mmap
import struct
from pathlib import Path

import numpy as np

from app.model.checkpoint.refusal import CheckpointError

__all__ = ["DTYPES", "WeightStore", "open_weights"]

DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16}
"""The dtypes read from disk, each as NumPy holds its bytes (bfloat16 as its raw 16 bits,
which `_float32` widens); quantised and integer tensors are refused by name."""
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


def _float32(a: np.ndarray, dtype: str) -> np.ndarray:
    """`a` (as stored, see DTYPES) as float32: bfloat16 is float32's top half, so its bits
    shift into place in one pass (widening and shifting in the same loop, no uint32
    temporary); float32 is returned as it is, without a copy."""
    if dtype == "BF16":
        wide: np.ndarray = np.left_shift(a, 16, dtype=np.uint32)
        return wide.view(np.float32)
    return a.astype(np.float32, copy=False)


class WeightStore:
    """Named tensors across a checkpoint's files, read on demand as float32."""

    def __init__(self, files: dict[str, Path], headers: Header) -> None:
        self._files = files
        self._headers = headers
        self._maps: dict[Path, mmap.mmap] = {}

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

    def _stored(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """Tensor `name` as it lies in its file's memory map (read-only, nothing read yet)."""
        self._check(name, shape)
        dtype, _, offset = self._headers[name]
        path = self._files[name]
        if path not in self._maps:
            try:
                with path.open("rb") as f:
                    self._maps[path] = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError) as exc:
                raise CheckpointError(f"{path.name} cannot be read ({exc}).") from None
        stored = np.dtype(DTYPES[dtype])
        count = int(np.prod(shape))
        tensor = np.frombuffer(self._maps[path], dtype=stored, count=count, offset=offset)
        if offset % stored.itemsize:  # a header whose length leaves the data unaligned
            tensor = tensor.copy()
        return tensor.reshape(shape)

    def rows(self, name: str, shape: tuple[int, ...], ids: np.ndarray) -> np.ndarray:
        """Rows `ids` of matrix `name` as float32, the rest left on disk: an embedding table
        of 150 000 tokens is not converted to look up 30 of them."""
        return _float32(self._stored(name, shape)[ids], self._headers[name][0])

    def get(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """Tensor `name` as float32 (read-only), refused when its shape is not the one the
        config implies."""
        return _float32(self._stored(name, shape), self._headers[name][0])


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
