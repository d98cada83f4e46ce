"""A capture file the app cannot use, dropped on the window: the message reads as one sentence
in the language on screen, the file (or the part of it at fault) its subject."""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QMessageBox

from app.i18n import strings, tr
from app.model.capture import MAX_D
from tests.ui.dropping import drop_file

APP = Path(__file__).resolve().parents[2] / "app"


def _text(path: Path) -> None:
    path.write_text("q, k\n1, 2\n", encoding="utf-8")


def _widths(path: Path) -> None:
    np.savez(path, q=np.ones((3, 4)), k=np.ones((3, 5)))


def _no_q(path: Path) -> None:
    np.savez(path, keys=np.ones((3, 4)))


def _not_finite(path: Path) -> None:
    q = np.ones((3, 4))
    q[1, 2] = np.nan
    np.savez(path, q=q, k=np.ones((3, 4)))


def _too_wide(path: Path) -> None:
    np.savez(path, q=np.ones((2, MAX_D + 1), np.float16), k=np.ones((2, MAX_D + 1), np.float16))


def _short_header(path: Path) -> None:
    path.write_bytes(struct.pack("<Q", 10_000) + b"{}")


FILES: dict[str, tuple[str, Callable[[Path], None]]] = {
    "not an npz": ("fake.npz", _text),
    "widths differ": ("bad.npz", _widths),
    "no q": ("noq.npz", _no_q),
    "not finite": ("nan.npz", _not_finite),
    "too wide": ("wide.npz", _too_wide),
    "cut safetensors": ("cut.safetensors", _short_header),
    "empty": ("empty.npz", lambda path: path.write_bytes(b"")),
}
SENTENCE_END = {"en": ".", "zh": "。"}


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("case", list(FILES))
def test_a_refused_capture_is_told_in_one_sentence(qtbot, open_window, tmp_path, language,
                                                   case) -> None:
    window = open_window(language)
    window.document.flush()
    name, write = FILES[case]
    write(tmp_path / name)
    before = window.document.state
    assert drop_file(qtbot, window, tmp_path / name) is False
    box = window.files.message
    assert isinstance(box, QMessageBox) and box.isVisible()
    text = box.informativeText()
    assert text.startswith((name, "In " + name)) and text.endswith(SENTENCE_END[language])
    assert not re.search(r": \S+: ", text)  # never "file: field: problem"
    if language == "zh":  # the problem in Chinese too, not the model's English words
        assert re.search("[\u4e00-\u9fff]", text.replace(name, ""))
        assert not re.search(r"\b(is|has|must|the)\b", text)
    assert window.document.state == before


def test_fake_npz_says_plainly_what_it_is_not(qtbot, window, tmp_path) -> None:
    _text(tmp_path / "fake.npz")
    drop_file(qtbot, window, tmp_path / "fake.npz")
    assert window.files.message.informativeText() == (
        "fake.npz " + tr("import.problem.not_npz") + ".")


def _problem_keys() -> set[str]:
    """Every problem key the capture readers can raise, read from their source."""
    keys = set()
    for module in (APP / "model" / "capture").glob("*.py"):
        source = module.read_text(encoding="utf-8")
        keys |= set(re.findall(r'"(import\.problem\.\w+)"', source))
    return keys


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_refusal_has_words_in_both_languages(language) -> None:
    keys = _problem_keys()
    assert len(keys) > 20
    known = set(strings(language))
    assert keys <= known
