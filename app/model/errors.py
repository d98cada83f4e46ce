"""Owns the app's exception types, so callers can catch "bad data" without catching bugs."""

from __future__ import annotations

from pathlib import Path

__all__ = ["AttentionLabError", "DataError", "FieldError", "Problem", "ScenarioError"]


class Problem(str):
    """A problem's English words (what a log or the command line prints) that also carry a
    catalogue key and its values, so the interface can say it in the language on screen."""

    key: str
    params: dict[str, object]

    def __new__(cls, key: str, text: str, **params: object) -> Problem:
        problem = super().__new__(cls, text.format(**params))
        problem.key = key
        problem.params = params
        return problem


class AttentionLabError(Exception):
    """Base of every error the app raises on purpose (as opposed to a bug)."""


class FieldError(ValueError):
    """A record read from JSON that cannot be taken; `field` is the JSON path of the first
    problem, so the message can point at it ("FIELD: PROBLEM")."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class DataError(AttentionLabError):
    """A data file is missing or invalid.

    The message is "FILE: FIELD: PROBLEM" so a teacher who edited a JSON file by hand can go
    straight to the offending value; `field` is a JSON path such as `E[2][1]` or
    `models.deepseek-v2.kv_lora_rank` ("(file)" when the file as a whole is the problem).
    """

    def __init__(self, path: Path | str, field: str, problem: str) -> None:
        self.path = Path(path)
        self.field = field
        self.problem = problem
        super().__init__(f"{self.path.name or '(no file name)'}: {field}: {problem}")

    def __reduce__(self) -> tuple[type, tuple[Path, str, str]]:
        # Exceptions pickle via their args; ours has three, so say so (e.g. multiprocessing).
        return (type(self), (self.path, self.field, self.problem))


class ScenarioError(DataError):
    """A scenario file (a saved or shipped lab state) is missing or invalid."""
