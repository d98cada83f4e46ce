"""Every bad checkpoint, text or layer is refused with one sentence naming what is wrong."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from app.model.checkpoint import CheckpointError, open_checkpoint

CHECKPOINTS = Path(__file__).resolve().parents[1] / "data" / "checkpoints"


def _edit_config(**changes: object) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        config = json.loads((folder / "config.json").read_text())
        config.update(changes)
        (folder / "config.json").write_text(json.dumps({k: v for k, v in config.items()
                                                        if v is not None}))
    return edit


def _truncate(folder: Path) -> None:
    path = folder / "model.safetensors"
    path.write_bytes(path.read_bytes()[:-100])


def _quantised(folder: Path) -> None:
    save_file({"model.embed_tokens.weight": np.zeros((280, 32), np.int8)},
              str(folder / "model.safetensors"))


BROKEN = {
    "no config": (lambda f: (f / "config.json").unlink(), "no config.json"),
    "no tokenizer": (lambda f: (f / "tokenizer.json").unlink(), "no tokenizer.json"),
    "no weights": (lambda f: (f / "model.safetensors").unlink(), "no model.safetensors"),
    "unknown architecture": (_edit_config(model_type="mamba", num_attention_heads=None),
                             "'mamba'"),
    "unsupported rope": (_edit_config(rope_parameters={"rope_type": "yarn", "factor": 2.0}),
                         "'yarn'"),
    "truncated": (_truncate, "truncated"),
    "quantised": (_quantised, "I8"),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_folder_is_refused_in_one_sentence(tmp_path: Path, case: str) -> None:
    folder = shutil.copytree(CHECKPOINTS / "llama-f32", tmp_path / "model")
    breaks, says = BROKEN[case]
    breaks(folder)
    with pytest.raises(CheckpointError) as caught:
        open_checkpoint(folder)
    message = str(caught.value)
    assert says in message and message.endswith(".") and "\n" not in message


def test_a_missing_shard_is_named(tmp_path: Path) -> None:
    folder = shutil.copytree(CHECKPOINTS / "llama-bf16-sharded", tmp_path / "model")
    (folder / "model-00002-of-00002.safetensors").unlink()
    with pytest.raises(CheckpointError, match=r"model-00002-of-00002\.safetensors"):
        open_checkpoint(folder)


def test_shapes_that_disagree_with_the_config_are_refused(tmp_path: Path) -> None:
    folder = shutil.copytree(CHECKPOINTS / "llama-f32", tmp_path / "model")
    _edit_config(hidden_size=64)(folder)
    with pytest.raises(CheckpointError, match=r"shape \[280, 32\] but the config implies"):
        open_checkpoint(folder).queries_keys("the cat", 0)


@pytest.mark.parametrize("layer", [-1, 2, 1.0, True])
def test_a_layer_that_is_not_there_is_refused(layer: object) -> None:
    ck = open_checkpoint(CHECKPOINTS / "llama-f32")
    with pytest.raises(CheckpointError, match="its layers are 0 to 1"):
        ck.queries_keys("the cat", layer)


@pytest.mark.parametrize(("text", "says"), [("  ", "empty"), ("cat " * 600, "at most 512")])
def test_an_empty_or_overlong_text_is_refused(text: str, says: str) -> None:
    with pytest.raises(CheckpointError, match=says):
        open_checkpoint(CHECKPOINTS / "qwen2-f32").queries_keys(text, 0)
