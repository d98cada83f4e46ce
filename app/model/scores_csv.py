"""Owns the score matrix as CSV, the one writer behind File → Export and `--export-csv`, so a
script and a student get the same bytes: a byte-order mark (spreadsheets on Chinese Windows
read the token names right), a corner cell naming the scorer, one name per column and row
(a repeated token is told apart), every number in its shortest exact form."""

from __future__ import annotations

import csv
import io

import numpy as np

from app.model.csv_cells import text_cell
from app.model.view import View

CSV_ENCODING = "utf-8-sig"
"""With a byte-order mark, so spreadsheet programs on Chinese Windows read token names right."""


def unique_names(names: tuple[str, ...] | list[str]) -> list[str]:
    """Each name once: a repeat becomes "小 (2)", "小 (3)"…, skipping any taken already, so a
    spreadsheet or pandas can tell the columns of a capture's repeated token apart."""
    taken = set(names)
    first: set[str] = set()
    counts: dict[str, int] = {}
    out = []
    for name in names:
        if name not in first:
            first.add(name)
            out.append(name)
            continue
        count, label = counts.get(name, 1), name
        while label in taken:
            count += 1
            label = f"{name} ({count})"
        counts[name] = count
        taken.add(label)
        out.append(label)
    return out


def scores_csv(view: View) -> str:
    """The active scorer's matrix: rows are queries, columns keys, an undefined score (cosine
    of a zero vector, a masked pair) empty. Every text cell is quoted and neutralised by
    `text_cell`, numbers are not, so a spreadsheet keeps −1.5 a number."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([text_cell(f"{view.scorer}: query \\ key"),
                     *(text_cell(name) for name in unique_names(view.key_names))])
    matrix = np.ma.getdata(view.active).astype(np.float64).tolist()
    masked = np.ma.getmaskarray(view.active).tolist()
    for name, values, holes in zip(unique_names(view.query_names), matrix, masked, strict=True):
        cells = ("" if hole else value for value, hole in zip(values, holes, strict=True))
        writer.writerow([text_cell(name), *cells])
    return out.getvalue()


def scores_csv_bytes(view: View) -> bytes:
    """`scores_csv` encoded as written to disk."""
    return scores_csv(view).encode(CSV_ENCODING)
