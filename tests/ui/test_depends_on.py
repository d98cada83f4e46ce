"""Each panel's `depends_on` is exact where it matters: a change of a state field the panel
does not declare skips its refresh, so what it then shows must be what a forced refresh
shows. Every panel, alone on screen, in each world; one field changed at a time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.model.capture import capture_from_arrays
from app.model.lesson.data import load_lesson_data
from app.model.state import STATE_FIELDS, LabState, frozen_array
from app.state.document import Document
from app.ui.panels.registry import panel_specs

SIZE = (900, 700)
STEP = np.array([0.5, -1.0])
"""A move of the 2-D query."""


def _capture(seed: int):
    rng = np.random.default_rng(seed)
    return capture_from_arrays({"q": rng.normal(size=(1, 5, 4)), "k": rng.normal(size=(1, 5, 4))},
                               [f"t{seed}{i}" for i in range(5)], source=f"seed{seed}.npz")


def _next(index: int, count: int) -> int:
    return (index + 1) % count


MUTATIONS: dict[str, Callable[[LabState], LabState]] = {
    "scorer": lambda s: replace(s, scorer="cosine" if s.scorer != "cosine" else "dot"),
    "dialogue_q": lambda s: replace(s, dialogue_q=frozen_array(s.dialogue_q + STEP)),
    "dialogue_keys": lambda s: replace(s, dialogue_keys=frozen_array(s.dialogue_keys[::-1]
                                                                     + 0.5)),
    "teaching_q": lambda s: replace(s, teaching_q=frozen_array(s.teaching_q + 0.75)),
    "teaching_k": lambda s: replace(s, teaching_k=frozen_array(-s.teaching_k)),
    "query": lambda s: replace(s, query=_next(s.query, len(s.vectors[0]))),
    "key": lambda s: replace(s, key=_next(s.key, len(s.vectors[1]))),
    "positions": lambda s: replace(s, positions=frozen_array(s.positions[::-1] + 1)),
    "options": lambda s: replace(s, options=replace(s.options, causal=not s.options.causal)),
    "imported": lambda s: replace(s, imported=_capture(7)),
    "teaching_tokens": lambda s: replace(s, teaching_tokens=tuple(
        f"w{i}" for i in range(len(s.teaching_q)))),
    "teaching_colours": lambda s: replace(s, teaching_colours=tuple(
        reversed(range(len(s.teaching_q))))),
}
"""One valid change of each field; `world` is not among them: every panel reads it."""
UNDECLARED = [(spec.name, name) for spec in panel_specs()
              for name in STATE_FIELDS
              if name != "world" and name not in {
                  field.split(".")[0] for field in spec.factory.depends_on}]


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _pixels(image: QImage) -> bytes:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    return bytes(image.constBits())


def test_every_field_has_a_change_to_try() -> None:
    assert set(MUTATIONS) == set(STATE_FIELDS) - {"world"}, "add a change for the new field"


@pytest.mark.matrix(keep=20)
@pytest.mark.parametrize("world", ["dialogue", "teaching", "imported"])
@pytest.mark.parametrize(("panel_name", "field"), UNDECLARED)
def test_a_skipped_refresh_shows_what_a_forced_one_would(open_panel, world, panel_name,
                                                         field) -> None:
    spec = next(spec for spec in panel_specs() if spec.name == panel_name)
    document = Document(load_lesson_data())
    state = document.state
    if world == "imported":
        state = replace(state, imported=_capture(3), scorer="scaled_dot")
    document.restore(state.with_world(world))
    document.flush()
    panel = open_panel(spec.factory, SIZE, document=document)
    _settle()
    changed = MUTATIONS[field](document.state)
    if changed == document.state:
        pytest.skip(f"the {world} world has one choice of {field}")
    told: list[frozenset[str]] = []
    document.changed.connect(told.append)
    document.restore(changed)
    document.flush()
    assert told == [frozenset({field})], "the change must change that field alone"
    _settle()
    skipped = _pixels(panel.grab().toImage())
    panel.refresh()
    _settle()
    forced = _pixels(panel.grab().toImage())
    assert skipped == forced, f"{panel_name} shows {field} but does not declare it"
