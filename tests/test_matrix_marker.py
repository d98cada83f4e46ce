"""The quick suite's cut of a long matrix: the kept cases show every value, the rest are slow."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MATRIX = """
import pytest

@pytest.mark.matrix(keep=3)
@pytest.mark.parametrize("scene", range(9))
@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("zoom", [1, 2])
def test_walk(scene, language, zoom):
    pass

@pytest.mark.parametrize("plain", range(4))
def test_plain(plain):
    pass
"""


def _collected(folder: Path, *args: str) -> list[str]:
    """Collect the matrix in a child pytest with only the marker's plugin, as a fresh run
    would."""
    (folder / "test_walk.py").write_text(MATRIX, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.matrix", "-p", "no:cacheprovider",
         "--collect-only", "-q", *args],
        cwd=folder, env=env, capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode in (0, 5), result.stdout + result.stderr
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_quick_suite_keeps_spread_cases_and_every_value(tmp_path: Path) -> None:
    quick = [name for name in _collected(tmp_path, "-m", "not slow") if "::test_walk[" in name]
    assert len(quick) == 3
    ids = [name.split("[")[1].rstrip("]").split("-") for name in quick]
    assert {zoom for zoom, _, _ in ids} == {"1", "2"}
    assert {language for _, language, _ in ids} == {"zh", "en"}
    assert len({scene for _, _, scene in ids}) == 3


def test_all_cases_still_run_and_unmarked_tests_are_untouched(tmp_path: Path) -> None:
    every = _collected(tmp_path)
    slow = _collected(tmp_path, "-m", "slow")
    assert len([name for name in every if "::test_walk[" in name]) == 9 * 2 * 2
    assert len(slow) == 9 * 2 * 2 - 3
    assert not [name for name in slow if "::test_plain[" in name]
    quick = _collected(tmp_path, "-m", "not slow")
    assert len([name for name in quick if "::test_plain[" in name]) == 4
