"""The command line refuses in one line, exit code 2, and writes nothing: an
export onto a file the run reads, a hand-edited number in a --scenario, a
scorer the world cannot run, options an export does not use."""

from __future__ import annotations

import argparse
import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from app.headless import input_problem
from app.main import main
from app.model.capture import capture_from_arrays
from app.model.lesson.data import DEFAULT_DATA_DIR, load_lesson_data
from app.model.reshape import with_dimension
from app.model.scenario import dumps, write_scenario
from app.model.scores_csv import CSV_ENCODING
from app.model.view import initial_state

DATA = load_lesson_data()


def _refused(capsys, argv: list[str], words: str) -> str:
    """main(argv) exits 2 with one `attention-lab: error:` line holding `words`."""
    try:
        code = main(argv)
    except SystemExit as leaving:  # argparse's own refusals
        code = leaving.code
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("attention-lab: error: ") and words in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def capture(tmp_path: Path) -> Path:
    path = tmp_path / "layer0.npz"
    np.savez(path, q=np.ones((2, 3)), k=np.arange(6.0).reshape(2, 3))
    return path


# ---- 3. an export never replaces an input of its own run ----------------------------------

def test_an_export_onto_the_capture_it_reads_is_refused(tmp_path: Path, capture: Path,
                                                        capsys) -> None:
    before = capture.read_bytes()
    _refused(capsys, ["--import", str(capture), "--export-csv", str(capture)],
             "that is the --import file of this run")
    assert capture.read_bytes() == before


@pytest.mark.parametrize("how", ["relative", "symlink", "hardlink", "dotted"])
def test_every_other_name_of_the_capture_is_refused_too(tmp_path: Path, capture: Path, capsys,
                                                       monkeypatch, how: str) -> None:
    monkeypatch.chdir(tmp_path)
    other = {"relative": Path("layer0.npz"), "dotted": Path("sub/../layer0.npz"),
             "symlink": tmp_path / "link.csv", "hardlink": tmp_path / "hard.csv"}[how]
    if how == "symlink":
        other.symlink_to(capture)
    elif how == "hardlink":
        os.link(capture, other)
    elif how == "dotted":
        (tmp_path / "sub").mkdir()
    before = capture.read_bytes()
    _refused(capsys, ["--import", str(capture), "--export-csv", str(other)], "--import file")
    assert capture.read_bytes() == before


def test_an_export_onto_the_scenario_it_reads_is_refused(tmp_path: Path, capsys) -> None:
    path = tmp_path / "lesson.attnlab.json"
    write_scenario(initial_state(DATA), path)
    before = path.read_bytes()
    _refused(capsys, ["--scenario", str(path), "--export-csv", str(path)], "--scenario file")
    assert path.read_bytes() == before


def test_an_export_onto_a_lesson_data_file_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, folder)
    args = argparse.Namespace(export_csv=folder / "teaching-world.json", import_file=None,
                              scenario=None)
    assert "a lesson data file of this run" in input_problem(args, folder)
    args.export_csv = tmp_path / "scores.csv"  # the positive control
    assert input_problem(args, folder) is None


def test_an_export_beside_its_inputs_still_works(tmp_path: Path, capture: Path) -> None:
    out = tmp_path / "layer0.csv"
    assert main(["--import", str(capture), "--export-csv", str(out)]) == 0
    header = out.read_bytes().decode(CSV_ENCODING).splitlines()[0]
    assert header.endswith(',"#0","#1"')


# ---- 5 and 7. a hand-edited or hostile input is one line before anything runs ---------------

def _huge_number_scenario(tmp_path: Path) -> Path:
    capture = capture_from_arrays({"q": np.ones((2, 3)), "k": np.ones((2, 3))}, None, 0, "c.npz")
    state = replace(initial_state(DATA), imported=capture).with_world("imported", (1, 0))
    doc = json.loads(dumps(state))
    doc["imported"]["K"][1][2] = "HUGE"
    path = tmp_path / "edited.attnlab.json"
    path.write_text(json.dumps(doc).replace('"HUGE"', "1" + "0" * 400), encoding="utf-8")
    return path


@pytest.mark.parametrize("output", ["--export-csv", "--screenshot"])
def test_a_scenario_with_a_number_of_hundreds_of_digits_is_one_line(tmp_path: Path, capsys,
                                                                   output: str) -> None:
    scenario = _huge_number_scenario(tmp_path)
    out = tmp_path / ("out.csv" if output == "--export-csv" else "out.png")
    _refused(capsys, ["--scenario", str(scenario), output, str(out)],
             "edited.attnlab.json: imported.K[1][2]: number is too large to be finite")
    assert not out.exists()


def test_a_capture_with_a_huge_header_number_is_one_line_with_screenshot(tmp_path: Path,
                                                                        capsys) -> None:
    path = tmp_path / "big.safetensors"
    header = ('{"q": {"dtype": "F32", "shape": [' + "9" * 5000 + '], "data_offsets": [0, 4]}}'
              ).encode()
    path.write_bytes(len(header).to_bytes(8, "little") + header + bytes(4))
    out = tmp_path / "out.png"
    _refused(capsys, ["--import", str(path), "--screenshot", str(out)],
             "big.safetensors: q: shape [… a number of 5000 digits …]")
    assert not out.exists()


# ---- 8. one check of whether a scorer can run, for --import and --scenario alike -----------

def test_a_learned_scorer_on_a_reshaped_scenario_is_refused(tmp_path: Path, capsys) -> None:
    path = tmp_path / "wide.attnlab.json"
    write_scenario(with_dimension(initial_state(DATA), DATA, 6), path)
    out = tmp_path / "out.csv"
    _refused(capsys, ["--scenario", str(path), "--export-csv", str(out), "--scorer", "additive"],
             "--scorer additive: additive needs the learned weights of the lesson's d = 4; "
             "this world has d = 6")
    assert not out.exists()
    assert main(["--scenario", str(path), "--export-csv", str(out), "--scorer", "cosine"]) == 0


def test_qk_norm_on_a_scenario_import_without_weights_is_refused(tmp_path: Path,
                                                                 capsys) -> None:
    capture = capture_from_arrays({"q": np.ones((2, 3)), "k": np.ones((2, 3))}, None, 0,
                                  "bare.npz")
    path = tmp_path / "bare.attnlab.json"
    write_scenario(replace(initial_state(DATA), imported=capture).with_world("imported"), path)
    out = tmp_path / "out.csv"
    _refused(capsys, ["--scenario", str(path), "--export-csv", str(out), "--scorer", "qk_norm"],
             "--scorer qk_norm: bare.npz has no learned weights for qk_norm")
    assert not out.exists()


# ---- 9. options that do not apply to a headless export -----------------------------------

@pytest.mark.parametrize("extra", [["--scene", "99"], ["--scene", "1"], ["--present"],
                                   ["--lang", "en"], ["--size", "800x600"]])
def test_window_options_are_refused_with_an_export(tmp_path: Path, capsys,
                                                   extra: list[str]) -> None:
    out = tmp_path / "out.csv"
    _refused(capsys, ["--export-csv", str(out), *extra],
             f"{extra[0]} does not apply to --export-csv")
    assert not out.exists()
