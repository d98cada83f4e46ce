"""The quick suite's cut of a long matrix: the kept cases show every value, the rest are slow."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

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


def _collected(pytester: pytest.Pytester, *args: str) -> list[str]:
    result = pytester.runpytest("-p", "tests.matrix", "--collect-only", "-q", *args)
    return [line for line in result.outlines if "::" in line]


def test_quick_suite_keeps_spread_cases_and_every_value(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_walk=MATRIX)
    quick = [name for name in _collected(pytester, "-m", "not slow") if "::test_walk[" in name]
    assert len(quick) == 3
    ids = [name.split("[")[1].rstrip("]").split("-") for name in quick]
    assert {zoom for zoom, _, _ in ids} == {"1", "2"}
    assert {language for _, language, _ in ids} == {"zh", "en"}
    assert len({scene for _, _, scene in ids}) == 3


def test_all_cases_still_run_and_unmarked_tests_are_untouched(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_walk=MATRIX)
    every = _collected(pytester)
    slow = _collected(pytester, "-m", "slow")
    assert len([name for name in every if "::test_walk[" in name]) == 9 * 2 * 2
    assert len(slow) == 9 * 2 * 2 - 3
    assert not [name for name in slow if "::test_plain[" in name]
    quick = _collected(pytester, "-m", "not slow")
    assert len([name for name in quick if "::test_plain[" in name]) == 4
