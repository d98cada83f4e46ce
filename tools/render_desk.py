"""Walk a student's road through the desk layout and render each step to PNG, with every
visible panel's size against its readable size, so a person can look at what a laptop shows.

    python tools/render_desk.py OUT_DIR [--size 1366x768] [--lang en] [--maximized]
                                [--window 1297x706]
                                [--keys "F7,Ctrl+2,Ctrl+Shift+C,Ctrl+Shift+E"]

Each key is pressed as the window's own shortcut (the action that holds it is triggered),
after a first launch with fresh settings. Writes OUT_DIR/<lang>-<W>x<H>-<nn>-<key>.png and
prints one line per visible dock: its panel's size, the size it needs to be read, and
"SHORT" where it got less. Headless; the offscreen screen has the size given.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT_KEYS = "F7,Ctrl+2,Alt+3,F7,Ctrl+Shift+C,Ctrl+Shift+E,Ctrl+1"
"""First launch (the lesson), the free layout, the 4-D world, the score matrix's toggle,
the lesson again, Chinese, English again, the 2-D world."""
SETTLE_ROUNDS = 8
"""Event-loop rounds after each key: the desk's fit runs in passes, each on the last's
layout."""


def press(window: MainWindow, key: str) -> None:
    """Trigger the window's action that has `key` as a shortcut."""
    from PySide6.QtGui import QKeySequence

    wanted = QKeySequence(key)
    assert window.parts is not None  # installed by the composition root
    for action in window.parts.actions.values():
        if any(sequence.matches(wanted) == QKeySequence.SequenceMatch.ExactMatch
               for sequence in action.shortcuts()):
            action.trigger()
            return
    raise SystemExit(f"no action has the key {key}")


def report(window: MainWindow) -> list[str]:
    """One line per dock that can be seen: its panel's size and readable sizes."""
    from app.ui.panels.base import Panel

    lines = []
    frame = window.rect()
    for name, dock in window.docks.items():
        panel = dock.widget()
        if not (dock.isVisible() and frame.contains(dock.geometry().center())
                and isinstance(panel, Panel)):
            continue
        needs = " or ".join(f"{need.width()}x{need.height()}" for need in panel.readable_sizes())
        short = not panel.reads_at(panel.size())
        lines.append(f"  {name:12s} {panel.width():4d}x{panel.height():<4d} needs "
                     f"{needs}{'  SHORT' if short else ''}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", default="1366x768")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--keys", default=DEFAULT_KEYS, help="comma-separated key sequences")
    parser.add_argument("--maximized", action="store_true", help="maximise the window first")
    parser.add_argument("--window", help="then resize the window to WxH, as a user drags it")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    from tools.render_stage import settle, use_screen

    home = use_screen(width, height, "laptop")
    os.environ["ATTENTION_LAB_HOME"] = str(home)  # a first launch: no settings, no session
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    from app.startup import build_window, make_application

    make_application()
    window = build_window(args.lang)
    window.files.begin_session(None, restore_last=False)
    window.arrangement.restore(ask=False)
    if args.maximized:
        window.showMaximized()
    else:
        window.show()
    window.document.flush()
    settle(SETTLE_ROUNDS)
    if args.window:
        if window.isMaximized():
            window.showNormal()
        window.resize(*(int(n) for n in args.window.lower().split("x")))
        settle(SETTLE_ROUNDS)
    steps = ["launch", *(key.strip() for key in args.keys.split(",") if key.strip())]
    short = 0
    for number, key in enumerate(steps):
        if number:
            press(window, key)
            window.document.flush()
            settle(SETTLE_ROUNDS)
        tag = key.replace("+", "-")
        path = args.out / f"{args.lang}-{width}x{height}-{number:02d}-{tag}.png"
        window.grab().save(str(path))
        lines = report(window)
        short += sum(line.endswith("SHORT") for line in lines)
        print(f"{path} (window {window.width()}x{window.height()})", *lines, sep="\n")
    window.close()
    window.dispose()
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
