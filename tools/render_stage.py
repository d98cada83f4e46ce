"""Render every lesson scene on the projector's stage to PNG, before and after its reveal,
so a person can look at each as a student in the last row would.

    python tools/render_stage.py OUT_DIR [--size 1024x768] [--lang zh] [--zoom 1.5]

Writes OUT_DIR/<lang>-<zoom>-<nn>-<scene id>-<before|after|build k>.png; headless.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("ATTENTION_LAB_HOME", tempfile.mkdtemp(prefix="attention-lab-render-"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from app.startup import build_window, make_application


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", default="1024x768")
    parser.add_argument("--lang", default="zh")
    parser.add_argument("--zoom", type=float, default=1.5)
    parser.add_argument("--scenes", default="", help="comma-separated scene numbers (1-based)")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    make_application()
    window = build_window(args.lang)
    window.resize(width, height)
    window.show()
    window.arrangement.open_scene(0, set_up=True)
    window.presentation.set_presenting(True)
    window.presentation.set_scale(args.zoom)
    run = window.lesson
    wanted = {int(n) - 1 for n in args.scenes.split(",") if n.strip()} or set(range(run.count))
    for index in sorted(wanted):
        run.go(index)
        window.document.flush()
        settle()
        states = ["before", "after"] if run.scene.hides_answer else ["shown"]
        for state in states:
            if state == "after":
                run.reveal()
                window.document.flush()
                settle()
            for build in range(run.builds):
                while run.build < build:
                    run.next()
                    settle()
                settle()
                tag = state if run.builds == 1 else f"{state}-build{build + 1}"
                name = f"{args.lang}-{args.zoom:g}-{index + 1:02d}-{run.scene.id}-{tag}.png"
                window.grab().save(str(args.out / name))
                print(args.out / name)
            while run.build > 0:
                run.previous()
    window.close()
    window.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
