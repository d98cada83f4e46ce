"""Nothing about a student is kept: no address in any log line (aiohttp's access log is off,
its error lines are stripped), nothing a phone sends is rendered as HTML, and what is saved
holds counts and the teacher's own texts only."""

from __future__ import annotations

import json
import logging
import re
import socket

from poll_helpers import TIMEOUT_S, device, wait_counts

from app.poll.page import PAGE_DIR

PEER = "127.0.0.1"


def test_no_log_line_names_a_peer(qtbot, caplog, poll, phone) -> None:
    caplog.set_level(logging.DEBUG)
    phone.answer(1)
    phone.answer(0, room="9999" if poll.room != "9999" else "0000")
    phone.post(b"{")
    phone.get("/../etc/passwd")
    with socket.create_connection((phone.host, phone.port), timeout=TIMEOUT_S) as raw:
        raw.sendall(b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n")
        raw.recv(1024)
    with socket.create_connection((phone.host, phone.port), timeout=TIMEOUT_S) as raw:
        raw.sendall(b"\x16\x03\x01garbage\r\n\r\n")
        raw.recv(1024)
    wait_counts(qtbot, poll, "s1", (0, 1, 0))
    lines = [record.getMessage() for record in caplog.records]
    assert not [line for line in lines if PEER in line or poll.room in line]
    assert not [r for r in caplog.records if r.name.startswith("aiohttp.access")]


def test_what_is_saved_names_no_device(qtbot, poll, phone) -> None:
    for n in range(3):
        phone.answer(n, who=device(n))
    wait_counts(qtbot, poll, "s1", (1, 1, 1))
    saved = json.dumps(poll.record()) + poll.csv_text()
    assert not [n for n in range(3) if device(n) in saved]
    assert PEER not in saved


def test_the_page_never_parses_text_as_html() -> None:
    script = (PAGE_DIR / "student.js").read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "new Function", "setAttribute(\"on", "srcdoc"):
        assert sink not in script, sink
    assert "textContent" in script


def test_the_page_has_no_inline_script_style_or_remote_resource() -> None:
    page = (PAGE_DIR / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=\"/student\.js\")", page) == []
    assert "<style" not in page and " style=" not in page
    assert re.findall(r"\son[a-z]+=", page) == []
    for name in ("index.html", "student.js", "student.css"):
        text = (PAGE_DIR / name).read_text(encoding="utf-8")
        for remote in ("http://", "https://", "@import", "url("):
            assert remote not in text, (name, remote)  # offline: nothing from elsewhere
