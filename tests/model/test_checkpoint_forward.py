"""The NumPy forward pass against the real library: tiny checkpoints of each family, written
by transformers (tools/make_checkpoint_fixtures.py), with the attention weights transformers
computed on them. The causal softmax of the app's q·kᵀ·scale must match them to float32
rounding, in every layer, for every head (so for a head in each key-value group)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from safetensors import safe_open

from app.model.checkpoint import open_checkpoint

CHECKPOINTS = Path(__file__).resolve().parents[1] / "data" / "checkpoints"
SENTENCE = "The cat sat on the mat. 注意力打分，看猫坐在垫子上。"
"""The sentence the fixtures' expected values were computed on."""
TOLERANCE = 5e-6
DISK_DTYPES = {"f32": "F32", "f16": "F16", "bf16": "BF16"}
FOLDERS = sorted(p.name for p in CHECKPOINTS.iterdir())


def _softmax_causal(q: np.ndarray, k: np.ndarray, scale: float, window: int | None
                    ) -> np.ndarray:
    t = q.shape[1]
    i, j = np.indices((t, t))
    allowed = (j <= i) & (i - j < (window or t))
    s = np.where(allowed, q.astype(np.float64) @ k.transpose(0, 2, 1) * scale, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    return w / w.sum(-1, keepdims=True)


def _attention_gap(folder: Path) -> float:
    ck = open_checkpoint(folder)
    expected = np.load(folder / "expected.npz")
    worst = 0.0
    for layer in range(ck.config.n_layers):
        got = ck.queries_keys(SENTENCE, layer)
        assert got.token_ids == tuple(int(i) for i in expected["ids"])
        weights = _softmax_causal(got.q, got.k, got.scale, ck.config.sliding_window[layer])
        worst = max(worst, float(np.abs(weights - expected["attentions"][layer]).max()))
    return worst


def test_every_family_is_committed() -> None:
    families = {json.loads((CHECKPOINTS / f / "config.json").read_text())["model_type"]
                for f in FOLDERS}
    assert families == {"llama", "mistral", "qwen2", "qwen3", "gpt2"}


@pytest.mark.parametrize("name", FOLDERS)
def test_scores_match_transformers(name: str) -> None:
    folder = CHECKPOINTS / name
    assert open_checkpoint(folder).weights.dtypes() == {DISK_DTYPES[name.split("-")[1]]}
    assert _attention_gap(folder) < TOLERANCE


def test_a_llama_layout_under_any_model_type_is_read_as_llama(tmp_path: Path) -> None:
    folder = shutil.copytree(CHECKPOINTS / "llama-f32", tmp_path / "minimind")
    config = json.loads((folder / "config.json").read_text())
    config.update(model_type="minimind", architectures=["MiniMindForCausalLM"])
    (folder / "config.json").write_text(json.dumps(config))
    assert _attention_gap(folder) < TOLERANCE
    assert open_checkpoint(folder).queries_keys(SENTENCE, 1).family == "minimind"


def test_query_heads_share_their_groups_keys() -> None:
    got = open_checkpoint(CHECKPOINTS / "qwen3-bf16").queries_keys(SENTENCE, 1)
    assert got.q.shape == got.k.shape == (4, len(got.tokens), 16)
    assert got.kv_head == (0, 0, 1, 1)
    np.testing.assert_array_equal(got.k[0], got.k[1])
    np.testing.assert_array_equal(got.k[2], got.k[3])
    assert not np.allclose(got.k[0], got.k[2])


def _rotate_half_reference(x: np.ndarray, rotated: int, theta: float) -> np.ndarray:
    """RoPE written out pair by pair: dim i turns with dim i + rotated/2 by t·θ^(−2i/rotated)."""
    out = x.astype(np.float64).copy()
    half = rotated // 2
    for t in range(x.shape[1]):
        for i in range(half):
            angle = t * theta ** (-2 * i / rotated)
            a, b = x[:, t, i], x[:, t, i + half]
            out[:, t, i] = a * np.cos(angle) - b * np.sin(angle)
            out[:, t, i + half] = a * np.sin(angle) + b * np.cos(angle)
    return out


@pytest.mark.parametrize("factor", [1.0, 0.5])
def test_rope_switch_shows_q_and_k_before_and_after_rotation(tmp_path: Path, factor: float
                                                            ) -> None:
    folder = shutil.copytree(CHECKPOINTS / "llama-f32", tmp_path / "partial")
    config = json.loads((folder / "config.json").read_text())
    config["rope_parameters"]["partial_rotary_factor"] = factor
    (folder / "config.json").write_text(json.dumps(config))
    ck = open_checkpoint(folder)
    after = ck.queries_keys(SENTENCE, 1)
    before = ck.queries_keys(SENTENCE, 1, rope=False)
    assert after.rotated and not before.rotated
    rotated = int(8 * factor)
    theta = config["rope_parameters"]["rope_theta"]
    for a, b in ((after.q, before.q), (after.k, before.k)):
        np.testing.assert_allclose(a, _rotate_half_reference(b, rotated, theta), atol=2e-5)
        np.testing.assert_array_equal(a[:, :, rotated:], b[:, :, rotated:])
    assert not np.allclose(after.q, before.q)


def test_answer_is_read_only() -> None:
    got = open_checkpoint(CHECKPOINTS / "gpt2-f32").queries_keys(SENTENCE, 0)
    with pytest.raises(ValueError):
        got.q[0, 0, 0] = 1.0
    assert got.model == "gpt2-f32" and got.layer == 0 and not got.rotated


def _write_safetensors(path: Path, tensors: dict[str, tuple[str, np.ndarray]]) -> None:
    """A safetensors file written byte by byte (header length, JSON header, raw data)."""
    header, offset, blobs = {}, 0, []
    for name, (dtype, array) in tensors.items():
        blob = array.tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text + b"".join(blobs))


def test_bfloat16_written_by_hand_reads_as_its_float32_values(tmp_path: Path) -> None:
    source = CHECKPOINTS / "llama-f32"
    with safe_open(str(source / "model.safetensors"), framework="np") as f:
        weights = {name: f.get_tensor(name) for name in f.keys()}  # noqa: SIM118
    bits = {name: (w.view(np.uint32) >> 16).astype("<u2") for name, w in weights.items()}
    for name, dtype in (("bf16", "BF16"), ("f32", "F32")):
        folder = shutil.copytree(source, tmp_path / name)
        _write_safetensors(folder / "model.safetensors", {
            n: (dtype, b) if dtype == "BF16" else
            (dtype, (b.astype(np.uint32) << 16).view(np.float32)) for n, b in bits.items()})
    by_hand = open_checkpoint(tmp_path / "bf16")
    assert by_hand.weights.dtypes() == {"BF16"}
    got = by_hand.queries_keys(SENTENCE, 1)
    same = open_checkpoint(tmp_path / "f32").queries_keys(SENTENCE, 1)
    np.testing.assert_array_equal(got.q, same.q)
    np.testing.assert_array_equal(got.k, same.k)


@pytest.mark.parametrize("name", ["qwen3-bf16", "gpt2-f32"])
def test_one_pass_over_every_layer_gives_each_layers_answer(name: str) -> None:
    ck = open_checkpoint(CHECKPOINTS / name)
    passes = list(ck.every_layer(SENTENCE))
    assert [p.layer for p in passes] == list(range(ck.config.n_layers))
    for got in passes:
        alone = ck.queries_keys(SENTENCE, got.layer)
        np.testing.assert_array_equal(got.q, alone.q)
        np.testing.assert_array_equal(got.k, alone.k)
