"""The model command line: --model DIR --text TEXT [--layer L] [--head H] opens one head of a
real checkpoint as the imported world; --export-csv writes its scores, checked against NumPy
on the checkpoint's own q and k; bad input is one line and exit code 2."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage

from app.main import main
from app.model.checkpoint import open_checkpoint
from app.model.scores_csv import CSV_ENCODING

CHECKPOINTS = Path(__file__).resolve().parents[1] / "data" / "checkpoints"
SENTENCE = "The cat sat on the mat."


def _read(path: Path) -> tuple[list[str], list[str], np.ndarray]:
    with path.open(encoding=CSV_ENCODING, newline="") as stream:
        rows = list(csv.reader(stream))
    values = np.array([[float(x) for x in row[1:]] for row in rows[1:]])
    return rows[0], [row[0] for row in rows[1:]], values


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("attention-lab: error: ")
    return lines[0]


@pytest.mark.parametrize(("folder", "layer", "head"), [
    ("llama-f32", None, 3),  # the last layer; head 3 reads key head 1
    ("qwen3-bf16", "0", 1),
    ("gpt2-f32", "1", 0),
])
def test_export_csv_holds_the_heads_scaled_scores(tmp_path, capsys, folder, layer,
                                                  head) -> None:
    out = tmp_path / "scores.csv"
    args = ["--model", str(CHECKPOINTS / folder), "--text", SENTENCE, "--head", str(head),
            "--export-csv", str(out)]
    if layer is not None:
        args += ["--layer", layer]
    assert main(args) == 0, capsys.readouterr().err
    checkpoint = open_checkpoint(CHECKPOINTS / folder)
    chosen = checkpoint.config.n_layers - 1 if layer is None else int(layer)
    answer = checkpoint.queries_keys(SENTENCE, chosen)
    q, k = answer.q[head].astype(np.float64), answer.k[head].astype(np.float64)
    header, names, values = _read(out)
    assert header[0] == "scaled_dot: query \\ key"  # as the window opens an import
    assert len(header) - 1 == len(names) == len(answer.tokens) > 3
    assert header[1:] == names  # every token is a query and a key
    np.testing.assert_allclose(values, q @ k.T / np.sqrt(q.shape[1]), rtol=1e-5, atol=1e-5)


def test_another_head_gives_other_scores(tmp_path) -> None:
    first, second = tmp_path / "h0.csv", tmp_path / "h1.csv"
    for head, out in ((0, first), (1, second)):
        assert main(["--model", str(CHECKPOINTS / "llama-f32"), "--text", SENTENCE,
                     "--head", str(head), "--export-csv", str(out)]) == 0
    assert not np.allclose(_read(first)[2], _read(second)[2])


def _without(name: str):
    return lambda folder: (folder / name).unlink()


def _family(folder: Path) -> None:
    config = json.loads((folder / "config.json").read_text())
    config["model_type"] = "mamba"
    del config["num_attention_heads"]
    (folder / "config.json").write_text(json.dumps(config))


@pytest.mark.parametrize(("breaks", "text", "extra", "words"), [
    (_without("config.json"), SENTENCE, [], "has no config.json"),
    (_without("tokenizer.json"), SENTENCE, [], "has no tokenizer.json"),
    (_family, SENTENCE, [], "'mamba'"),
    (None, "   ", [], "the text is empty"),
    (None, "cat " * 600, [], "at most 512 are scored"),
    (None, SENTENCE, ["--layer", "2"], "layer 2 is not in this model; its layers are 0 to 1"),
    (None, SENTENCE, ["--head", "4"], "head 4 is not in this model; its heads are 0 to 3"),
])
def test_bad_model_input_exits_2_with_one_line(tmp_path, capsys, breaks, text, extra,
                                               words) -> None:
    folder = shutil.copytree(CHECKPOINTS / "llama-f32", tmp_path / "model")
    if breaks is not None:
        breaks(folder)
    out = tmp_path / "never.csv"
    assert main(["--model", str(folder), "--text", text, *extra, "--export-csv", str(out)]) == 2
    assert words in _one_error_line(capsys)
    assert not out.exists()


def test_a_bad_model_stops_a_window_run_before_any_window(tmp_path, capsys) -> None:
    out = tmp_path / "never.png"
    assert main(["--model", str(tmp_path), "--text", SENTENCE, "--screenshot", str(out)]) == 2
    assert "has no config.json" in _one_error_line(capsys)
    assert not out.exists()


@pytest.mark.parametrize(("argv", "words"), [
    (["--model", "m"], "--model needs --text"),
    (["--text", "a cat"], "--text only works with --model"),
    (["--layer", "1"], "--layer only works with --model"),
    (["--model", "m", "--text", "a", "--layer", "-1"], "layers are numbered from 0"),
    (["--model", "m", "--text", "a", "--import", "x.npz"], "choose one"),
])
def test_flags_that_need_another_exit_2(capsys, argv, words) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert words in _one_error_line(capsys)


def test_export_csv_refuses_to_write_over_a_file_of_the_model(tmp_path, capsys) -> None:
    folder = shutil.copytree(CHECKPOINTS / "llama-f32", tmp_path / "model")
    config = folder / "config.json"
    before = config.read_bytes()
    assert main(["--model", str(folder), "--text", SENTENCE,
                 "--export-csv", str(config)]) == 2
    assert "a file of the --model folder" in _one_error_line(capsys)
    assert config.read_bytes() == before


def test_screenshot_of_a_model_head(tmp_path, capsys) -> None:
    out = tmp_path / "model.png"
    assert main(["--model", str(CHECKPOINTS / "mistral-f16"), "--text", SENTENCE,
                 "--head", "1", "--screenshot", str(out), "--size", "1024x768"]) == 0, \
        capsys.readouterr().err
    assert QImage(str(out)).width() == 1024
