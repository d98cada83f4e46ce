"""Owns the lesson's question log: timestamped questions appended to Markdown, read back.

The log is a plain Markdown file the student owns and may edit anywhere, so the app never
rewrites it: a question is appended (append mode, one write, fsync), which at worst leaves a
partial last entry after a power cut and never touches earlier ones; a write that fails is
cut back off. A log that is not UTF-8 text (say, saved as GBK by a Windows editor) is left
alone and new questions go to a UTF-8 sibling (`C3-L2.utf8.md`), which the caller is told
about. The log is never opened through a symbolic link and must be a regular file, so a link
cannot redirect the write and a FIFO cannot hang the app. Reading skips entries it cannot
understand (an impossible date typed by hand) with a note naming the file and line.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import re
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

__all__ = [
    "LOG_NAME",
    "MAX_LOG_BYTES",
    "MAX_QUESTION_CHARS",
    "Question",
    "QuestionList",
    "Recorded",
    "append_question",
    "log_target",
    "read_questions",
]

LOG_NAME = "C3-L2.md"
MAX_QUESTION_CHARS = 2000
"""Long enough for any real question, short enough that a stuck key cannot fill the disk."""
MAX_LOG_BYTES = 5 * 1024 * 1024
"""Thousands of questions; a bigger file is not read whole (it may not be a log at all)."""

HEADER = "# C3-L2 · 提问记录 / Questions\n"
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
_ENTRY = re.compile(r"^## (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$")
_CHUNK = 1 << 16
_DIVERT_LIMIT = 100

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)


@dataclass(frozen=True)
class Question:
    """One recorded question and when it was asked (local time, to the second)."""

    asked_at: datetime
    text: str


@dataclass(frozen=True)
class Recorded:
    """Where a question went: `path` is the file written; `diverted_from` is the log that was
    left untouched because it is not UTF-8 (None when the question went into the log itself)."""

    question: Question
    path: Path
    diverted_from: Path | None = None


class QuestionList(list[Question]):
    """The questions read from a log, oldest first, plus `notes` on the entries skipped
    (each "FILE: line N: problem"), so a hand-edited mistake is reported, not fatal."""

    def __init__(self, questions: list[Question] | None = None,
                 notes: list[str] | None = None) -> None:
        super().__init__(questions or [])
        self.notes: list[str] = list(notes or [])


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


def _refused(path: Path, problem: str) -> OSError:
    return OSError(errno.EINVAL, f"{path.name} {problem}; nothing was written or read", str(path))


def _open(path: Path, flags: int) -> int:
    """A descriptor for a regular file at `path`, never through a link, never blocking on a FIFO."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise _refused(path, "is a link, not the log itself")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise _refused(path, "is not a regular file")
    descriptor = os.open(path, flags | _NOFOLLOW | _NONBLOCK | _BINARY, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise _refused(path, "is not a regular file")
        if _NONBLOCK:
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _is_utf8(path: Path) -> bool:
    """True when `path` is missing or is UTF-8 text; read in chunks, so a big log costs no
    memory. Raises OSError for a link or a file that is not regular."""
    try:
        descriptor = _open(path, os.O_RDONLY)
    except FileNotFoundError:
        return True
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        while chunk := os.read(descriptor, _CHUNK):
            decoder.decode(chunk)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    finally:
        os.close(descriptor)
    return True


def log_target(path: Path) -> Path:
    """The file new questions go to: the log itself, or, when it is not UTF-8, the first of
    `C3-L2.utf8.md`, `C3-L2.utf8 (2).md`, … that is missing or UTF-8 (never the log).

    Raises OSError when the log is a link or not a regular file, or no sibling is usable.
    """
    path = Path(path)
    if _is_utf8(path):
        return path
    stem = f"{path.stem}.utf8"
    for number in range(1, _DIVERT_LIMIT + 1):
        name = f"{stem}{path.suffix}" if number == 1 else f"{stem} ({number}){path.suffix}"
        candidate = path.with_name(name)
        with contextlib.suppress(OSError):
            if _is_utf8(candidate):
                return candidate
    raise _refused(path, "is not UTF-8 text and no other file name is free")


def _append(path: Path, text: str) -> None:
    """Append `text` (after the header when the file is new) in one write, then fsync; on any
    failure cut the file back to its old length, so earlier entries are never touched."""
    existed = os.path.lexists(path)
    descriptor = _open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND)
    try:
        size = os.fstat(descriptor).st_size
        if size == 0:
            text = HEADER + text
        else:
            os.lseek(descriptor, size - 1, os.SEEK_SET)
            if os.read(descriptor, 1) != b"\n":
                text = "\n" + text
        data = memoryview(text.encode("utf-8"))
        try:
            while data:
                data = data[os.write(descriptor, data):]
            os.fsync(descriptor)
        except BaseException:
            with contextlib.suppress(OSError):
                os.ftruncate(descriptor, size)
            raise
    finally:
        os.close(descriptor)
        if not existed:  # a log this call created but could not fill is removed again
            with contextlib.suppress(OSError):
                if os.path.getsize(path) == 0:
                    os.unlink(path)


def append_question(path: Path, text: str, now: datetime | None = None) -> Recorded:
    """Record one question with its time, appended to the log (or to its UTF-8 sibling when the
    log is not UTF-8: then `Recorded.diverted_from` names the log, left untouched).

    Raises ValueError for empty or oversized text, OSError when the disk refuses or the log is
    a link or not a regular file; either way no file is changed.
    """
    question = Question(
        asked_at=(now or datetime.now()).replace(microsecond=0), text=_clean(text)
    )
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    target = log_target(path)
    _append(target, _entry(question))
    return Recorded(question, target, None if target == path else path)


def _read_text(path: Path) -> str | None:
    """The log's text, None when missing; OSError when it is not a readable, UTF-8, regular
    file of at most MAX_LOG_BYTES."""
    try:
        descriptor = _open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        parts: list[bytes] = []
        size = 0
        while size <= MAX_LOG_BYTES and (chunk := os.read(descriptor, _CHUNK)):
            parts.append(chunk)
            size += len(chunk)
    finally:
        os.close(descriptor)
    if size > MAX_LOG_BYTES:
        raise OSError(errno.EFBIG, f"{path.name} is larger than "
                      f"{MAX_LOG_BYTES // (1024 * 1024)} MB, too large to show", str(path))
    try:
        return b"".join(parts).decode("utf-8")
    except UnicodeDecodeError:
        raise OSError(errno.EILSEQ, f"{path.name} is not UTF-8 text", str(path)) from None


def read_questions(path: Path) -> QuestionList:
    """Every question in the log, oldest first; a teacher's notes between entries are skipped,
    and so is an entry whose date cannot be read (with a note naming file and line).

    Raises OSError when the log cannot be read (a link, not a regular file, not UTF-8, too big).
    """
    path = Path(path)
    result = QuestionList()
    text = _read_text(path)
    if text is None:
        return result
    asked_at: datetime | None = None
    lines: list[str] = []

    def close() -> None:
        if asked_at is not None and lines:
            result.append(Question(asked_at, "\n".join(lines).strip()))

    for number, line in enumerate(text.splitlines(), start=1):
        match = _ENTRY.match(line)
        if match:
            close()
            asked_at, lines = None, []
            try:
                asked_at = datetime.strptime(match.group(1), TIME_FORMAT)
            except ValueError:
                result.notes.append(f"{path.name}: line {number}: {match.group(1)} is not a "
                                    "real date and time; that entry is skipped")
        elif asked_at is not None and line.startswith(">"):
            lines.append(line[2:] if line.startswith("> ") else line[1:])
        elif line.startswith("#"):
            close()
            asked_at, lines = None, []
    close()
    return result
