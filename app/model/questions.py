"""Owns the lesson's question log: atomic appends of timestamped questions to Markdown, read back.

The log is a plain Markdown file a teacher can open anywhere. Every append rewrites the whole
file through a temporary sibling and `os.replace`, so a crash mid-write leaves either the old
file or the new one, never a truncated mix: earlier questions are never lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.model.atomic import write_text_atomic

__all__ = [
    "LOG_NAME",
    "MAX_QUESTION_CHARS",
    "Question",
    "append_question",
    "read_questions",
]

LOG_NAME = "C3-L2.md"
MAX_QUESTION_CHARS = 2000
"""Long enough for any real question, short enough that a stuck key cannot fill the disk."""

HEADER = "# C3-L2 · 提问记录 / Questions\n"
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
_ENTRY = re.compile(r"^## (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$")


@dataclass(frozen=True)
class Question:
    """One recorded question and when it was asked (local time, to the second)."""

    asked_at: datetime
    text: str


def _clean(text: str) -> str:
    """The question as it will be stored; refuses empty or oversized input with a clear reason."""
    if not isinstance(text, str):
        raise ValueError("a question must be text")
    lines = [line.rstrip() for line in text.strip().splitlines()]
    cleaned = "\n".join(lines).strip()
    if not cleaned:
        raise ValueError("the question is empty")
    if len(cleaned) > MAX_QUESTION_CHARS:
        raise ValueError(f"the question is longer than {MAX_QUESTION_CHARS} characters")
    return cleaned


def _entry(question: Question) -> str:
    """A heading with the time, then the text as a block quote, so no text can fake a heading."""
    quoted = "\n".join(f"> {line}" if line else ">" for line in question.text.splitlines())
    return f"\n## {question.asked_at.strftime(TIME_FORMAT)}\n\n{quoted}\n"


def append_question(path: Path, text: str, now: datetime | None = None) -> Question:
    """Record one question with its time.

    Raises ValueError for empty or oversized text, OSError when the disk refuses; either way
    the log is left exactly as it was.
    """
    question = Question(
        asked_at=(now or datetime.now()).replace(microsecond=0), text=_clean(text)
    )
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.read_text(encoding="utf-8", errors="replace") if path.exists() else HEADER
    if old and not old.endswith("\n"):
        old += "\n"
    write_text_atomic(path, old + _entry(question))
    return question


def read_questions(path: Path) -> list[Question]:
    """Every question in the log, oldest first; a teacher's notes between entries are skipped."""
    path = Path(path)
    if not path.exists():
        return []
    questions: list[Question] = []
    asked_at: datetime | None = None
    lines: list[str] = []

    def close() -> None:
        if asked_at is not None and lines:
            questions.append(Question(asked_at, "\n".join(lines).strip()))

    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = _ENTRY.match(line)
        if match:
            close()
            asked_at, lines = datetime.strptime(match.group(1), TIME_FORMAT), []
        elif asked_at is not None and line.startswith(">"):
            lines.append(line[2:] if line.startswith("> ") else line[1:])
        elif line.startswith("#"):
            close()
            asked_at, lines = None, []
    close()
    return questions
