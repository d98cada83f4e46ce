"""Owns a scene's poll as the class reads it: the prompt and choices in the teacher's language,
placeholders filled from computed values, number ranges written out, and the right choice."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.i18n import language, tr
from app.model.answers.poll import BYTE_UNITS, MAX_CHOICES, MIN_CHOICES, Ranges
from app.model.answers.tally import MAX_SCENE_CHARS, MAX_TEXT
from app.model.lesson.figures import Figure
from app.model.lesson.scenes import Scene
from app.ui.format import format_number

__all__ = ["MAX_TEXT", "Question", "edge_text", "range_labels", "scene_question"]

@dataclass(frozen=True)
class Question:
    """What the phones show and the stage counts: one scene's question, filled in."""

    scene: str
    prompt: str
    choices: tuple[str, ...]
    right: int
    lang: str

    def __post_init__(self) -> None:
        if not 0 < len(self.scene) <= MAX_SCENE_CHARS:
            raise ValueError("a question needs a short scene id")
        if not MIN_CHOICES <= len(self.choices) <= MAX_CHOICES:
            raise ValueError(f"a question has {MIN_CHOICES} to {MAX_CHOICES} choices")
        if not 0 <= self.right < len(self.choices):
            raise ValueError("the right choice must be one of the choices")
        if any(len(text) > MAX_TEXT for text in (self.prompt, *self.choices)):
            raise ValueError(f"question texts are at most {MAX_TEXT} characters")


def edge_text(value: float, unit: str) -> str:
    """One edge of a range as the class reads it: sizes in the largest unit that keeps the
    number at least 1 (16,384 MiB is "16 GiB"), a percentage with its sign."""
    name = unit
    if unit in BYTE_UNITS:
        count = value * BYTE_UNITS[unit]
        name = max((u for u, size in BYTE_UNITS.items() if count >= size),
                   key=BYTE_UNITS.__getitem__, default="B")
        value = count / BYTE_UNITS[name]
    text = format_number(value, 0 if float(value).is_integer() else 2)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if name == "pct":
        return f"{text} %"
    return f"{text} {name}" if name in BYTE_UNITS else text


def range_labels(ranges: Ranges) -> tuple[str, ...]:
    """Each range as a choice: below the first edge, between two, the last edge or more."""
    labels = []
    for i in range(ranges.count):
        low, high = ranges.bounds(i)
        if low is None:
            labels.append(tr("poll.range.below", high=edge_text(high or 0, ranges.unit)))
        elif high is None:
            labels.append(tr("poll.range.above", low=edge_text(low, ranges.unit)))
        else:
            labels.append(tr("poll.range.between", low=edge_text(low, ranges.unit),
                             high=edge_text(high, ranges.unit)))
    return tuple(labels)


def scene_question(scene: Scene, values: Mapping[str, str],
                   figures: Mapping[str, Figure]) -> Question | None:
    """The scene's poll in the current language (None for a scene that asks nothing);
    `values` are the lesson's plain placeholder values, `figures` the computed figures."""
    poll, prompt = scene.poll, scene.prompt
    if poll is None or prompt is None:
        return None
    if poll.ranges is not None:
        choices = range_labels(poll.ranges)
    else:
        choices = tuple(tr(text.key, **values) for text in poll.choices)
    return Question(scene=scene.id, prompt=tr(prompt.key, **values),
                    choices=choices, right=poll.right_choice(figures), lang=language())
