"""Owns wording why a capture file was refused, as one sentence in the language on screen."""

from __future__ import annotations

from app.i18n import tr
from app.model.capture import CaptureError
from app.model.errors import Problem
from app.model.jsonfile import ROOT


def capture_refusal(error: CaptureError) -> str:
    """The file is the sentence's subject when the whole file is the problem, else the part
    of it that is ("In bad.npz, k has width d = 5 …"). A problem the catalogue has no words
    for keeps the model's English words."""
    problem = error.problem
    words = (tr(problem.key, **problem.params) if isinstance(problem, Problem) and problem.key
             else str(problem))
    name = error.path.name
    if error.field == ROOT:
        return tr("import.refusal.file", file=name, problem=words)
    return tr("import.refusal.part", file=name, part=error.field, problem=words)
