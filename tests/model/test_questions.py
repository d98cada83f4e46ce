"""The question log: append, read back, atomic against a crash mid-write, bad input refused."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

from app.model import atomic
from app.model.questions import LOG_NAME, MAX_QUESTION_CHARS, append_question, read_questions


def test_append_then_read_back_in_order(tmp_path: Path) -> None:
    log = tmp_path / "sub" / LOG_NAME
    first = append_question(log, "为什么用点积?", now=datetime(2025, 3, 1, 9, 30, 5, 123))
    second = append_question(log, "  Two lines\n\nof text  ", now=datetime(2025, 3, 1, 9, 31))
    assert first.asked_at == datetime(2025, 3, 1, 9, 30, 5)
    assert second.text == "Two lines\n\nof text"
    assert read_questions(log) == [first, second]
    assert log.read_text(encoding="utf-8").startswith("# ")


def test_text_cannot_fake_an_entry(tmp_path: Path) -> None:
    log = tmp_path / LOG_NAME
    append_question(log, "## 2020-01-01 00:00:00\n# heading", now=datetime(2025, 1, 1))
    [only] = read_questions(log)
    assert only.text == "## 2020-01-01 00:00:00\n# heading"


def test_missing_log_reads_empty(tmp_path: Path) -> None:
    assert read_questions(tmp_path / LOG_NAME) == []


def test_teacher_notes_outside_entries_are_kept_and_skipped(tmp_path: Path) -> None:
    log = tmp_path / LOG_NAME
    log.write_text("# Notes\nsome words without newline", encoding="utf-8")
    append_question(log, "q?", now=datetime(2025, 1, 1))
    assert "some words without newline\n" in log.read_text(encoding="utf-8")
    assert [q.text for q in read_questions(log)] == ["q?"]


@pytest.mark.parametrize("text", ["", "   \n  ", "x" * (MAX_QUESTION_CHARS + 1)])
def test_bad_questions_are_refused_and_change_nothing(tmp_path: Path, text: str) -> None:
    log = tmp_path / LOG_NAME
    append_question(log, "kept", now=datetime(2025, 1, 1))
    before = log.read_bytes()
    with pytest.raises(ValueError):
        append_question(log, text)
    assert log.read_bytes() == before


def test_crash_mid_write_keeps_earlier_questions(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / LOG_NAME
    append_question(log, "first", now=datetime(2025, 1, 1))
    append_question(log, "second", now=datetime(2025, 1, 2))
    before = log.read_bytes()

    def crash(_fd: int) -> None:
        raise OSError("disk pulled out")

    monkeypatch.setattr(atomic.os, "fsync", crash)
    with pytest.raises(OSError, match="disk pulled out"):
        append_question(log, "third")
    assert log.read_bytes() == before
    assert [q.text for q in read_questions(log)] == ["first", "second"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [LOG_NAME]


def test_crash_at_rename_leaves_no_temp_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / LOG_NAME
    append_question(log, "first", now=datetime(2025, 1, 1))

    def crash(_src: object, _dst: object) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(atomic.os, "replace", crash)
    with pytest.raises(OSError):
        append_question(log, "second")
    assert [q.text for q in read_questions(log)] == ["first"]
    assert os.listdir(tmp_path) == [LOG_NAME]
