"""The score matrix as CSV is the same file from File → Export and from `--export-csv`: a
byte-order mark, a corner cell naming the scorer, one name per column and row when a token
repeats, every number read back exactly."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from app.main import main
from app.model.capture import load_capture
from app.model.scores_csv import CSV_ENCODING, unique_names

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

BOM = "\ufeff".encode()
REPEATED = ["小", "猫", "小", "狗", "小"]
"""A capture's tokenizer pieces: the same character may come more than once."""


def _rows(path: Path) -> list[list[str]]:
    raw = path.read_bytes()
    assert raw.startswith(BOM), "spreadsheets on Chinese Windows need the byte-order mark"
    return list(csv.reader(io.StringIO(raw.decode(CSV_ENCODING), newline="")))


def _exact(rows: list[list[str]], matrix: np.ndarray) -> None:
    """Each number parses back to the very float the model computed."""
    values = np.array([[float(cell) for cell in row[1:]] for row in rows[1:]])
    assert values.shape == matrix.shape
    assert np.array_equal(values, matrix.astype(np.float64)), "no digit lost"


@pytest.fixture
def repeated_capture(tmp_path: Path) -> Path:
    rng = np.random.default_rng(5)
    d, d_a = 6, 4
    arrays = {"q": rng.standard_normal((1, 3, d)).astype(np.float32),
              "k": rng.standard_normal((1, len(REPEATED), d)).astype(np.float32),
              "additive.W1": rng.standard_normal((d_a, d)).astype(np.float32),
              "additive.W2": rng.standard_normal((d_a, d)).astype(np.float32),
              "additive.v": rng.standard_normal(d_a).astype(np.float32),
              "q_norm.weight": rng.uniform(0.5, 2, d).astype(np.float32)}
    path = tmp_path / "repeated.safetensors"
    save_file(arrays, str(path), metadata={"tokens": json.dumps(REPEATED)})
    return path


def test_window_and_command_line_write_the_same_bytes(window, tmp_path) -> None:
    by_menu, by_script = tmp_path / "menu.csv", tmp_path / "script.csv"
    assert window.exports.export_scores(by_menu)
    assert main(["--export-csv", str(by_script)]) == 0
    assert by_menu.read_bytes() == by_script.read_bytes()
    rows = _rows(by_script)
    view = window.document.view
    assert rows[0][0] == f"{view.scorer}: query \\ key"
    _exact(rows, np.ma.getdata(view.active))


def test_a_repeated_token_gets_columns_of_its_own_on_both_roads(window, repeated_capture,
                                                                tmp_path) -> None:
    window.document.import_capture(load_capture(repeated_capture))
    window.document.finish_import()
    window.document.flush()
    view = window.document.view
    by_menu, by_script = tmp_path / "menu.csv", tmp_path / "script.csv"
    assert window.exports.export_scores(by_menu)
    assert main(["--import", str(repeated_capture), "--export-csv", str(by_script),
                 "--scorer", view.scorer]) == 0
    assert by_menu.read_bytes() == by_script.read_bytes()
    rows = _rows(by_script)
    header, names = rows[0][1:], [row[0] for row in rows[1:]]
    assert list(view.key_names) == REPEATED
    assert len(set(header)) == len(header) == len(REPEATED)
    assert header == ["小", "猫", "小 (2)", "狗", "小 (3)"]
    assert len(set(names)) == len(names)
    _exact(rows, np.ma.getdata(view.active))


def test_a_made_up_name_never_takes_a_real_one() -> None:
    names = unique_names(["a", "a", "a (2)"])
    assert len(set(names)) == 3 and names[0] == "a" and names[2] == "a (2)"
