"""Test-wide setup: headless Qt, and a private user-data folder per test (never $HOME)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Autosave, settings and logs go to a fresh folder, so tests never see each other's state."""
    home = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("ATTENTION_LAB_HOME", str(home))
    return home
