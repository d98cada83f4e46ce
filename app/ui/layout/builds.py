"""Owns deciding how the stage shows a scene's panels: side by side, one over the other, or
one at a time as a slide builds, never a panel smaller than it can be read in. Pure
arithmetic on sizes, so every case is testable without a window."""

from __future__ import annotations

from dataclasses import dataclass

Size = tuple[int, int]


@dataclass(frozen=True)
class Build:
    """Panels shown together: `across` side by side, else one over the other."""

    names: tuple[str, ...]
    across: bool = True


def _fits(sizes: list[Size], room: Size, gap: int, across: bool) -> bool:
    width, height = room
    if across:
        return (sum(w for w, _ in sizes) + gap * (len(sizes) - 1) <= width
                and max(h for _, h in sizes) <= height)
    return (max(w for w, _ in sizes) <= width
            and sum(h for _, h in sizes) + gap * (len(sizes) - 1) <= height)


def plan_builds(panels: list[tuple[str, Size]], room: Size, gap: int = 8) -> list[Build]:
    """The builds for `panels` (name, readable size) in the order given, in a body of `room`:
    each build holds as many of the next panels as fit at their readable sizes, side by side
    when that fits (a projector is wider than tall), else one over the other. A panel that
    fits nowhere is shown alone, with all the room there is."""
    builds: list[Build] = []
    current: list[tuple[str, Size]] = []
    across = True
    for name, size in panels:
        trial = [s for _, s in current] + [size]
        if current and _fits(trial, room, gap, across=True):
            current.append((name, size))
            across = True
        elif current and _fits(trial, room, gap, across=False):
            current.append((name, size))
            across = False
        else:
            if current:
                builds.append(Build(tuple(n for n, _ in current), across))
            current, across = [(name, size)], True
    if current:
        builds.append(Build(tuple(n for n, _ in current), across))
    return builds
