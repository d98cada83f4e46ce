"""The real-sized checkpoint rows: what the benchmark writes is a folder the app reads, the
targets are filled from the rows, and the quick run never writes a checkpoint."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from app.model.checkpoint import attention_maps, open_checkpoint
from bench import Result
from bench.__main__ import build_parser, main
from bench.checkpoint_speed import (
    EXPORT_ROW,
    GPT2_SMALL,
    OVERVIEW_ROW,
    QWEN3_0_6B,
    Shape,
    text_of,
    write_checkpoint,
)
from bench.run import FULL, QUICK, _sections, evaluate, row_note

TINY = {"layers": 2, "hidden": 32, "heads": 4, "head_dim": 8, "inner": 48, "vocab": 300}


@pytest.mark.parametrize(("shape", "kv_heads"), [(GPT2_SMALL, 4), (QWEN3_0_6B, 2)])
def test_the_written_checkpoint_is_read_by_the_app(tmp_path: Path, shape: Shape,
                                                   kv_heads: int) -> None:
    tiny = replace(shape, **TINY, kv_heads=kv_heads)
    folder = tmp_path / "model"
    size = write_checkpoint(folder, tiny)
    assert size == sum(f.stat().st_size for f in folder.iterdir())
    checkpoint = open_checkpoint(folder)
    assert checkpoint.config.layout == ("gpt2" if tiny.layout == "gpt2" else "llama")
    assert checkpoint.weights.dtypes() == {"F32" if tiny.layout == "gpt2" else "BF16"}
    text = text_of(folder, 32)
    maps = [attention_maps(answer) for answer in checkpoint.every_layer(text)]
    assert len(maps) == 2 and maps[0].shape == (4, 32, 32)
    assert all(np.isfinite(m).all() for m in maps)


def test_the_sizes_are_the_issues() -> None:
    assert (GPT2_SMALL.layers, GPT2_SMALL.hidden, GPT2_SMALL.heads) == (12, 768, 12)
    assert (QWEN3_0_6B.layers, QWEN3_0_6B.hidden, QWEN3_0_6B.heads, QWEN3_0_6B.kv_heads,
            QWEN3_0_6B.head_dim, QWEN3_0_6B.inner) == (28, 1024, 16, 8, 128, 3072)


def test_only_the_full_run_writes_checkpoints() -> None:
    assert "checkpoint" not in [title for title, _ in _sections(QUICK)]
    assert "checkpoint" in [title for title, _ in _sections(FULL)]
    assert QUICK.repeated(2).checkpoint_runs == 0 and FULL.repeated(2).checkpoint_runs == 2
    assert build_parser().parse_args(["--only", "checkpoint"]).only == "checkpoint"
    with pytest.raises(SystemExit):
        main(["--quick", "--only", "checkpoint"])


def test_the_checkpoint_targets_are_filled_from_their_rows() -> None:
    export = Result("checkpoint", EXPORT_ROW, "GPT-2", [3000.0],
                    {"ratio_to_reference": 0.4, "reference_ms": 7500.0})
    overview = Result("checkpoint", OVERVIEW_ROW, "Qwen3", [4000.0, 6000.0, 5000.0], {
        "peak_rss_above_imports_bytes": 1200, "disk_bytes": 1000,
        "memory_ratio_to_disk": 1.2})
    targets = {t.key: t for t in evaluate([export, overview])}
    assert targets["checkpoint_export_vs_transformers"].value == 0.4
    assert targets["checkpoint_export_vs_transformers"].met is True
    assert targets["checkpoint_export_vs_transformers"].reference_ms == 7500.0
    assert targets["checkpoint_overview_seconds"].value == 5.0
    assert targets["checkpoint_overview_seconds"].met is True
    assert targets["checkpoint_overview_memory"].met is True
    assert "1.20× the" in row_note(overview)


def test_without_transformers_the_row_says_reference_not_measured() -> None:
    export = Result("checkpoint", EXPORT_ROW, "GPT-2", [3000.0],
                    {"reference_missing": "torch and transformers not importable"})
    assert "reference not measured" in row_note(export)
    target = {t.key: t for t in evaluate([export])}["checkpoint_export_vs_transformers"]
    assert target.met is None
