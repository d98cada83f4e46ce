"""Test-wide setup: headless Qt, pyqtgraph imported as the app imports it, a private
user-data folder per test (never $HOME), and private copies of the lesson data for tests
that edit it."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import polib
import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

import app.ui  # noqa: F401  (first: the app's own import of pyqtgraph, before any test's)
from app import i18n
from app.model.lesson.data import DEFAULT_DATA_DIR

pytest_plugins = ["tests.matrix"]


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Autosave, settings and logs go to a fresh folder, so tests never see each other's state."""
    home = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("ATTENTION_LAB_HOME", str(home))
    return home


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A private copy of the lesson's data folder, for tests that edit the files."""
    target = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, target)
    return target


@pytest.fixture
def edit_data(data_dir: Path) -> Callable[[str, Callable[[dict[str, Any]], None]], None]:
    """Change one JSON file of `data_dir` in place: edit_data("anchor-model.json", change)."""

    def edit(name: str, change: Callable[[dict[str, Any]], None]) -> None:
        path = data_dir / name
        doc = json.loads(path.read_text(encoding="utf-8"))
        change(doc)
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")

    return edit


@pytest.fixture
def add_strings(tmp_path: Path) -> Iterator[Callable[[Mapping[str, Mapping[str, str]]], None]]:
    """Give languages more strings for one test as a translator would: each language's
    catalogue copied with the strings added, registered with `i18n.add_catalogue`, and the
    bundled catalogues back afterwards. `add({"en": {"scorer.x": "X"}, "zh": {...}})`."""
    added: list[str] = []

    def add(by_language: Mapping[str, Mapping[str, str]]) -> None:
        folder = tmp_path / f"catalogues-{len(added)}"
        folder.mkdir()
        for code, extra in by_language.items():
            po = polib.pofile(str(i18n.get(code).path), encoding="utf-8")
            for key, text in extra.items():
                po.append(polib.POEntry(msgid=key, msgstr=text))
            po.save(str(folder / f"{code}.po"))
            i18n.add_catalogue(folder / f"{code}.po")
            added.append(code)

    yield add
    # pytest-qt has closed this test's windows: delete them before the strings they show go
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    for code in dict.fromkeys(added):
        i18n.forget(code)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Delete every window left while Qt is still whole. What survives to interpreter exit is
    destroyed by PySide6 in an order pyqtgraph's items do not survive (a segfault after the
    summary line, exit code 139); the app itself disposes its window after `exec` likewise."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        return
    for widget in QApplication.topLevelWidgets():
        widget.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
