"""How the weights are read: float32 straight from the file's memory map (no copy),
bfloat16 widened in one pass to exactly the float32 values its bits mean, and no bfloat16
type library imported to do it (the reader's import stays cheap for a float32 model)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np

from app.model.checkpoint import open_checkpoint
from app.model.checkpoint.weights import _float32

CHECKPOINTS = Path(__file__).resolve().parents[1] / "data" / "checkpoints"
ROOT = Path(__file__).resolve().parents[2]


def test_bfloat16_widens_to_the_value_its_bits_mean() -> None:
    every = np.arange(2**16, dtype=np.uint16)  # every bfloat16, NaNs, ±inf, ±0, subnormals
    widened = _float32(every, "BF16")
    assert widened.dtype == np.float32 and widened.shape == every.shape
    reference = every.view(ml_dtypes.bfloat16).astype(np.float32)
    np.testing.assert_array_equal(widened.view(np.uint32), reference.view(np.uint32))


def test_float32_weights_are_read_in_place_not_copied() -> None:
    store = open_checkpoint(CHECKPOINTS / "gpt2-f32").weights
    name = "transformer.h.0.attn.c_attn.weight"
    if name not in store.names:
        name = name.removeprefix("transformer.")
    shape = store.shape(name)
    first, again = store.get(name, shape), store.get(name, shape)
    assert first.dtype == np.float32 and first.shape == shape
    assert np.shares_memory(first, again), "each get copied the tensor"
    assert not first.flags.writeable


def test_bfloat16_weights_match_their_stored_bits() -> None:
    folder = CHECKPOINTS / "qwen3-bf16"
    store = open_checkpoint(folder).weights
    raw = (folder / "model.safetensors").read_bytes()
    length = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + length])
    for name in sorted(store.names)[:6]:
        start, end = header[name]["data_offsets"]
        bits = np.frombuffer(raw[8 + length + start:8 + length + end], dtype="<u2")
        expected = bits.view(ml_dtypes.bfloat16).astype(np.float32).reshape(store.shape(name))
        np.testing.assert_array_equal(store.get(name, store.shape(name)), expected)


def test_reading_a_checkpoint_imports_no_bfloat16_library() -> None:
    code = ("import sys; from app.model.checkpoint import open_checkpoint; "
            f"open_checkpoint({str(CHECKPOINTS / 'qwen3-bf16')!r}).queries_keys('The cat', 1); "
            "print('ml_dtypes' in sys.modules)")
    child = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "False"
