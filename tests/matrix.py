"""The `matrix` marker: a long parametrised test runs a few spread cases in the suite one
runs often, and every case with `--all` and in CI."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: the long walks (every scene x size x language x zoom), the soak, the load and "
        "subprocess tests; run by `python3 dev.py test --all` and CI",
    )
    config.addinivalue_line(
        "markers",
        "matrix(keep): a long parametrised test whose other cases are slow: the quick suite "
        "keeps `keep` cases that between them show every parameter value they can",
    )


def _spread(cases: list[pytest.Item], keep: int) -> set[int]:
    """Indices of `keep` cases that between them show every parameter value they can:
    each pick is the case with the most (parameter, value) pairs not yet shown, the first
    on a tie, so every worker of a parallel run picks the same cases."""
    pairs = [{(name, repr(value)) for name, value in case.callspec.params.items()}  # type: ignore[attr-defined]
             for case in cases]
    shown: set[tuple[str, str]] = set()
    chosen: set[int] = set()
    for _ in range(min(keep, len(cases))):
        unseen = {i: len(pairs[i] - shown) for i in range(len(cases)) if i not in chosen}
        best = max(unseen, key=unseen.__getitem__)
        chosen.add(best)
        shown |= pairs[best]
    return chosen


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`@pytest.mark.matrix(keep=N)` on a parametrised test keeps N spread cases in the suite
    one runs often and marks the rest `slow`, before `-m "not slow"` deselects them; the whole
    matrix still runs with `python3 dev.py test --all` and in CI."""
    matrices: dict[tuple[str, str], list[pytest.Item]] = {}
    for item in items:
        if item.get_closest_marker("matrix") is not None and hasattr(item, "callspec"):
            parent = item.parent.nodeid if item.parent is not None else ""
            matrices.setdefault((parent, item.originalname), []).append(item)  # type: ignore[attr-defined]
    for cases in matrices.values():
        marker = cases[0].get_closest_marker("matrix")
        assert marker is not None
        kept = _spread(cases, int(marker.kwargs["keep"]))
        for index, case in enumerate(cases):
            if index not in kept:
                case.add_marker(pytest.mark.slow)
