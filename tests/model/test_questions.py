"""The question log: append only (earlier entries never rewritten, a failed write cut back off),
read back, bad input refused; a log that is not UTF-8 is left alone and new questions go to a
sibling; links and non-regular files are refused; a hand-edited impossible date is skipped."""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path

import pytest

from app.model import questions as questions_module
from app.model.questions import (
    LOG_NAME,
    MAX_QUESTION_CHARS,
    append_question,
    log_target,
    read_questions,
)


def test_append_then_read_back_in_order(tmp_path: Path) -> None:
    log = tmp_path / "sub" / LOG_NAME
    recorded = append_question(log, "为什么用点积?", now=datetime(2025, 3, 1, 9, 30, 5, 123))
    first = recorded.question
    second = append_question(log, "  Two lines\n\nof text  ",
                             now=datetime(2025, 3, 1, 9, 31)).question
    assert (recorded.path, recorded.diverted_from) == (log, None)
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

    monkeypatch.setattr(questions_module.os, "fsync", crash)
    with pytest.raises(OSError, match="disk pulled out"):
        append_question(log, "third")
    assert log.read_bytes() == before
    assert [q.text for q in read_questions(log)] == ["first", "second"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [LOG_NAME]


def test_a_write_that_fails_half_way_is_cut_back_off(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / LOG_NAME
    append_question(log, "first", now=datetime(2025, 1, 1))
    before = log.read_bytes()
    real_write = os.write

    def half_then_full_disk(fd: int, data: bytes) -> int:
        if len(data) > 8:
            return real_write(fd, bytes(data[:8]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(questions_module.os, "write", half_then_full_disk)
    with pytest.raises(OSError, match="No space"):
        append_question(log, "second question, long enough to be cut")
    assert log.read_bytes() == before
    assert os.listdir(tmp_path) == [LOG_NAME]


def test_recording_appends_and_never_rewrites_earlier_bytes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The old code read the log and replaced it whole; now earlier bytes are never rewritten."""
    log = tmp_path / LOG_NAME
    log.write_bytes(b"# mine\r\nteacher's CRLF notes\r\n")
    before = log.read_bytes()

    def no_replace(*_args: object) -> None:
        raise AssertionError("the log must be appended to, not replaced")

    monkeypatch.setattr(questions_module.os, "replace", no_replace)
    append_question(log, "q?", now=datetime(2025, 1, 1))
    after = log.read_bytes()
    assert after.startswith(before) and after[len(before):].endswith(b"> q?\n")
    assert [q.text for q in read_questions(log)] == ["q?"]


GBK_LOG = "# 我的提问\n\n## 2025-01-01 08:00:00\n\n> 为什么要除以根号d？\n".encode("gbk")


def test_a_log_that_is_not_utf8_is_left_alone_and_questions_go_beside_it(tmp_path: Path) -> None:
    log = tmp_path / LOG_NAME
    log.write_bytes(GBK_LOG)
    recorded = append_question(log, "新问题", now=datetime(2025, 1, 2))
    assert log.read_bytes() == GBK_LOG, "the student's file is untouched, byte for byte"
    assert recorded.diverted_from == log
    assert recorded.path == tmp_path / "C3-L2.utf8.md"
    assert [q.text for q in read_questions(recorded.path)] == ["新问题"]
    again = append_question(log, "再问一个", now=datetime(2025, 1, 3))
    assert again.path == recorded.path, "later questions join the same sibling"
    assert [q.text for q in read_questions(recorded.path)] == ["新问题", "再问一个"]
    assert log_target(log) == recorded.path
    with pytest.raises(OSError, match="not UTF-8"):
        read_questions(log)


def test_a_taken_sibling_name_is_not_overwritten(tmp_path: Path) -> None:
    log = tmp_path / LOG_NAME
    log.write_bytes(GBK_LOG)
    taken = tmp_path / "C3-L2.utf8.md"
    taken.write_bytes(b"\xff\xfe not utf-8 either")
    recorded = append_question(log, "q", now=datetime(2025, 1, 2))
    assert recorded.path == tmp_path / "C3-L2.utf8 (2).md"
    assert taken.read_bytes() == b"\xff\xfe not utf-8 either"


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
def test_the_log_never_follows_a_link(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("precious\n", encoding="utf-8")
    log = tmp_path / LOG_NAME
    log.symlink_to(elsewhere)
    with pytest.raises(OSError, match="link"):
        append_question(log, "q")
    assert elsewhere.read_text(encoding="utf-8") == "precious\n"
    with pytest.raises(OSError, match="link"):
        read_questions(log)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_log_is_refused_at_once(tmp_path: Path) -> None:
    log = tmp_path / LOG_NAME
    os.mkfifo(log)
    with pytest.raises(OSError, match="not a regular file"):
        append_question(log, "q")
    with pytest.raises(OSError, match="not a regular file"):
        read_questions(log)


def test_an_impossible_date_skips_that_entry_with_a_note(tmp_path: Path) -> None:
    log = tmp_path / LOG_NAME
    log.write_text("# log\n\n## 2025-01-01 08:00:00\n\n> good one\n\n"
                   "## 2026-13-45 99:00:00\n\n> typed by hand\n\n"
                   "## 2025-01-02 08:00:00\n\n> good two\n", encoding="utf-8")
    questions = read_questions(log)
    assert [q.text for q in questions] == ["good one", "good two"]
    [note] = questions.notes
    assert note.startswith(f"{LOG_NAME}: line 7: 2026-13-45 99:00:00")
    assert "skipped" in note
