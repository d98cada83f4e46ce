"""Reliability tests start the app through `app.main.main`, which installs the global error
hook; put back whatever hooks were there so no test leaks one into the next."""

from __future__ import annotations

import sys
import threading

import pytest


@pytest.fixture(autouse=True)
def _restore_exception_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
