"""The capture command line: --import [--head], --export-csv [--scorer] checked against
NumPy in real processes, with Qt made unimportable for the export; bad input is one line and
exit code 2."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage
from safetensors.numpy import save_file

from app.main import main
from app.model.lesson.data import load_lesson_data
from app.model.scores_csv import CSV_ENCODING

ROOT = Path(__file__).resolve().parents[2]
RNG = np.random.default_rng(11)
D, D_A = 6, 4
NO_QT = ("import sys; sys.modules['PySide6'] = None; sys.modules['pyqtgraph'] = None; "
         "from app.main import main; sys.exit(main(sys.argv[1:]))")
"""Runs main() where importing Qt fails: the export must never need it."""


@pytest.fixture(scope="module")
def capture(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, np.ndarray]]:
    arrays = {"q": RNG.standard_normal((2, 3, D)).astype(np.float32),
              "k": RNG.standard_normal((2, 5, D)).astype(np.float32),
              "additive.W1": RNG.standard_normal((D_A, D)).astype(np.float32),
              "additive.W2": RNG.standard_normal((D_A, D)).astype(np.float32),
              "additive.v": RNG.standard_normal(D_A).astype(np.float32),
              "q_norm.weight": RNG.uniform(0.5, 2, D).astype(np.float32)}
    path = tmp_path_factory.mktemp("capture") / "layer0.safetensors"
    tokens = ["我", "爱", "a,b", "\"q\"", "你"]
    save_file(arrays, str(path), metadata={"tokens": json.dumps(tokens)})
    return path, arrays


def _run(args: list[str], home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, ATTENTION_LAB_HOME=str(home))
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.run([sys.executable, "-c", NO_QT, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def _read(path: Path) -> tuple[list[str], list[str], np.ndarray]:
    with path.open(encoding=CSV_ENCODING, newline="") as stream:
        rows = list(csv.reader(stream))
    header, body = rows[0], rows[1:]
    values = np.array([[float(x) for x in row[1:]] for row in body])
    return header, [row[0] for row in body], values


def _reference(name: str, arrays: dict[str, np.ndarray], head: int) -> np.ndarray:
    q, k = arrays["q"][head].astype(np.float64), arrays["k"][head].astype(np.float64)
    w = {n: v.astype(np.float64) for n, v in arrays.items() if "." in n}

    def rms(x: np.ndarray, g: np.ndarray) -> np.ndarray:
        return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g

    return {
        "dot": lambda: q @ k.T,
        "scaled_dot": lambda: q @ k.T / np.sqrt(D),
        "cosine": lambda: (q / np.linalg.norm(q, axis=1, keepdims=True))
        @ (k / np.linalg.norm(k, axis=1, keepdims=True)).T,
        "neg_euclidean": lambda: -np.linalg.norm(q[:, None] - k[None], axis=-1),
        "additive": lambda: np.tanh((q @ w["additive.W1"].T)[:, None]
                                    + (k @ w["additive.W2"].T)[None]) @ w["additive.v"],
        "qk_norm": lambda: rms(q, w["q_norm.weight"]) @ rms(k, w["q_norm.weight"]).T,
    }[name]()


@pytest.mark.slow
@pytest.mark.parametrize("scorer", ["dot", "scaled_dot", "cosine", "neg_euclidean", "additive",
                                    "qk_norm"])
def test_export_csv_of_an_import_matches_numpy_without_qt(capture, tmp_path,
                                                          scorer: str) -> None:
    path, arrays = capture
    out = tmp_path / "scores.csv"
    done = _run(["--import", str(path), "--head", "1", "--export-csv", str(out),
                 "--scorer", scorer], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout == ""
    header, names, values = _read(out)
    assert header == [f"{scorer}: query \\ key", "我", "爱", "a,b", "\"q\"", "你"]
    assert names == ["a,b", "\"q\"", "你"]  # the queries are the last tokens
    np.testing.assert_allclose(values, _reference(scorer, arrays, 1), rtol=1e-5, atol=1e-5)
    assert not (tmp_path / "autosave.attnlab.json").exists()


def test_export_csv_of_the_lesson_world_in_process(tmp_path, capsys) -> None:
    out = tmp_path / "teaching.csv"
    assert main(["--export-csv", str(out)]) == 0
    header, names, values = _read(out)
    teaching = load_lesson_data().teaching
    assert header[1:] == list(teaching.tokens) and names == list(teaching.tokens)
    np.testing.assert_allclose(values, teaching.Q @ teaching.K.T, rtol=1e-12)
    assert capsys.readouterr().err == ""


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("attention-lab: error: ")
    return lines[0]


@pytest.mark.parametrize(("extra", "words"), [
    (["--scorer", "manhattan"], "--scorer manhattan: no such scoring function"),
    (["--head", "7"], "head: 7 is out of range: the file has 2 heads"),
])
def test_bad_export_arguments_exit_2_with_one_line(capture, tmp_path, capsys, extra,
                                                   words) -> None:
    path, _ = capture
    out = tmp_path / "never.csv"
    args = ["--import", str(path), "--export-csv", str(out), *extra]
    assert main(args) == 2
    assert words in one_error_line(capsys)
    assert not out.exists()


def test_a_scorer_the_file_has_no_weights_for_exits_2(tmp_path, capsys) -> None:
    bare = tmp_path / "bare.npz"
    np.savez(bare, q=np.ones((2, 3)), k=np.ones((2, 3)))
    assert main(["--import", str(bare), "--export-csv", str(tmp_path / "x.csv"),
                 "--scorer", "additive"]) == 2
    assert "bare.npz has no learned weights" in one_error_line(capsys)


@pytest.mark.parametrize("make", ["folder", "empty", "missing", "mismatch"])
def test_a_bad_capture_exits_2_naming_the_file(tmp_path, capsys, make: str) -> None:
    path = tmp_path / "bad.npz"
    if make == "folder":
        path.mkdir()
    elif make == "empty":
        path.touch()
    elif make == "mismatch":
        np.savez(path, q=np.ones((2, 3)), k=np.ones((2, 4)))
    assert main(["--import", str(path), "--export-csv", str(tmp_path / "x.csv")]) == 2
    assert one_error_line(capsys).startswith("attention-lab: error: bad.npz: ")


@pytest.mark.parametrize(("argv", "words"), [
    (["--head", "1"], "--head only works with --import"),
    (["--import", "x.npz", "--head", "-1"], "heads are numbered from 0"),
    (["--scorer", "dot"], "--scorer only works with --export-csv"),
    (["--export-csv", "x.csv", "--screenshot", "x.png"], "runs without a window"),
])
def test_flags_that_need_another_exit_2(capsys, argv, words) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert words in one_error_line(capsys)


@pytest.mark.slow
def test_import_then_screenshot_in_a_real_process(capture, tmp_path) -> None:
    path, _ = capture
    out = tmp_path / "import.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ATTENTION_LAB_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--import", str(path), "--head", "1",
         "--screenshot", str(out), "--size", "1024x768", "--lang", "zh"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert QImage(str(out)).width() == 1024


def test_a_screenshot_waits_for_the_desk_to_settle(capture, tmp_path, monkeypatch, qtbot) -> None:
    """The imported world's docks fill their columns in the picture, as in the window: taken
    after one event-loop round, the matrix sat in the lower half of an empty column."""
    import app.startup as startup

    seen: dict[str, tuple[int, int]] = {}

    def record(target, path: Path) -> None:
        window = target.window()
        for name in ("editor", "heatmap"):
            box = window.docks[name].geometry()
            seen[name] = (box.top(), box.height())
        path.write_bytes(b"")

    monkeypatch.setattr(startup, "render", record)
    monkeypatch.setenv("ATTENTION_LAB_HOME", str(tmp_path))
    path, _ = capture
    assert main(["--import", str(path), "--screenshot", str(tmp_path / "shot.png"),
                 "--size", "1366x706", "--lang", "zh"]) == 0
    assert seen["heatmap"] == seen["editor"], seen  # side by side, each its column's height
