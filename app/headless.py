"""Owns `--export-csv`: the current world's score matrix as CSV, with no Qt at all.

For scripts, and with `--import` or `--model` for checking a head against one's own NumPy.
Nothing here imports Qt (a test runs it with Qt's modules made unimportable), so it also runs
on a machine with no display and no window libraries.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from app.model.atomic import write_bytes_atomic
from app.model.capture import Capture, load_capture
from app.model.checkpoint import read_head
from app.model.errors import AttentionLabError
from app.model.lesson.data import DEFAULT_DATA_DIR, LessonData, load_lesson_data
from app.model.reshape import scorer_problem
from app.model.scenario import read_scenario
from app.model.scores_csv import scores_csv_bytes
from app.model.scoring import SCORERS
from app.model.state import LabState
from app.model.view import compute_view, initial_state

USAGE_ERROR = 2


def start_state(data: LessonData, scenario: Path | None, capture: Capture | None) -> LabState:
    """The lesson's start, or a scenario's state, then the import as the world on screen,
    scored as the window opens an import: q·k/√d, the score the model's softmax took."""
    state = initial_state(data)
    if scenario is not None:
        state = read_scenario(scenario, state)
    if capture is not None:
        state = replace(state, imported=capture, scorer="scaled_dot").with_world(
            "imported", (len(capture.queries) - 1, 0))
    return state


def _same_file(a: Path, b: Path) -> bool:
    """True when two names reach one file: the same path, a link, a hard link, another case
    on a case-blind disk (by inode where both exist, else by the resolved path)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


def input_problem(args: argparse.Namespace, data_dir: Path = DEFAULT_DATA_DIR) -> str | None:
    """Why --export-csv must not write where it was told: onto a file this run reads (the
    capture, the scenario, the lesson's data), which the CSV would replace."""
    model = getattr(args, "model", None)
    inputs = [("the --import file", args.import_file), ("the --scenario file", args.scenario),
              *(("a lesson data file", path) for path in sorted(data_dir.glob("*.json"))),
              *(("a file of the --model folder", path)
                for path in (sorted(model.glob("*")) if model is not None else ()))]
    for what, path in inputs:
        if path is not None and _same_file(args.export_csv, path):
            return (f"--export-csv {args.export_csv}: that is {what} of this run; the CSV "
                    "would replace it, so choose another file name")
    return None


def read_import(args: argparse.Namespace) -> Capture | None:
    """The capture `--import` or `--model` asks for (one head), or None; raises
    AttentionLabError with one line for any bad input."""
    if args.import_file is not None:
        return load_capture(args.import_file, args.head or 0)
    if getattr(args, "model", None) is not None:
        return read_head(args.model, args.text, args.layer, args.head or 0)[2]
    return None


def export_csv(args: argparse.Namespace) -> int:
    """Write the score matrix; exit 0, or 2 with one line on the terminal."""
    problem = input_problem(args)
    if problem is not None:
        sys.stderr.write(f"attention-lab: error: {problem}\n")
        return USAGE_ERROR
    try:
        data = load_lesson_data()
        capture = read_import(args)
        state = start_state(data, args.scenario, capture)
        scorer = args.scorer or state.scorer
        if scorer not in SCORERS:
            raise AttentionLabError(f"--scorer {scorer}: no such scoring function; choose "
                                    f"{', '.join(SCORERS)}")
        problem = scorer_problem(state, data.teaching.W_Q.shape[1], scorer)  # as the window
        if problem is not None:
            raise AttentionLabError(f"--scorer {scorer}: {problem}")
        state = replace(state, scorer=scorer)
        view = compute_view(state, data)
    except AttentionLabError as error:
        sys.stderr.write(f"attention-lab: error: {error}\n")
        return USAGE_ERROR
    try:
        write_bytes_atomic(args.export_csv, scores_csv_bytes(view))  # as File → Export
    except OSError as error:
        sys.stderr.write(f"attention-lab: error: cannot write {args.export_csv}: "
                         f"{error.strerror or error}\n")
        return USAGE_ERROR
    return 0
