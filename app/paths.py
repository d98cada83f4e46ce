"""Where the app keeps what a user made: autosave, settings, logs, recorded questions."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
RESOURCES = REPO_ROOT / "resources"


def user_data_dir() -> Path:
    """The per-user folder; ATTENTION_LAB_HOME overrides it so tests and kiosks stay isolated."""
    override = os.environ.get("ATTENTION_LAB_HOME")
    if override:
        base = Path(override)
    elif os.name == "nt":
        base = Path(os.environ.get("APPDATA", Path.home())) / "AttentionLab"
    elif os.uname().sysname == "Darwin":
        base = Path.home() / "Library" / "Application Support" / "AttentionLab"
    else:
        xdg = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        base = Path(xdg) / "attention-lab"
    base.mkdir(parents=True, exist_ok=True)
    return base
