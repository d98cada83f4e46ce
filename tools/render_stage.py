"""Render every lesson scene on the projector's stage to PNG, before and after its reveal,
so a person can look at each as a student in the last row would.

    python tools/render_stage.py OUT_DIR [--size 1024x768] [--lang zh] [--zoom 1.5] [--poll]
                                 [--phones 3]

With --poll the class poll runs on loopback (as a teacher's P does) and, in each scene that
asks, three phones (or --phones N; 0: a question no one has answered yet) answer before the
pictures are taken.

Writes OUT_DIR/<lang>-<zoom>-<nn>-<scene id>-<before|after|build k>.png; headless.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def use_screen(width: int, height: int, name: str = "projector") -> Path:
    """Headless, the offscreen platform's one screen is `name`'s, of this size (the
    projector: F5 fills it). Set before Qt starts, which reads it once. Returns a new folder
    for the run's own files."""
    home = Path(tempfile.mkdtemp(prefix="attention-lab-render-"))
    screen = home / "screen.json"
    screen.write_text(json.dumps({"screens": [{
        "name": name, "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}), encoding="utf-8")
    if os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen":
        os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={screen}"
    return home


def settle(rounds: int = 3) -> None:
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    for _ in range(rounds):
        QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def answer_from_phones(poll, phones: int = 3) -> None:
    """Answer the poll's current question from `phones` phones, as the class's taps would."""
    question = poll.question
    if question is None:
        return
    parts = urlsplit(poll.address)
    for n in range(phones):
        body = json.dumps({"room": poll.room, "scene": question.scene,
                           "choice": n % len(question.choices),
                           "device": f"render-{n:016d}"}).encode()
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        connection.request("POST", "/answer", body, {"Content-Type": "application/json"})
        connection.getresponse().read()
        connection.close()
    for _ in range(20):  # the counts come back as queued signals
        time.sleep(0.02)
        settle()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", default="1024x768")
    parser.add_argument("--lang", default="zh")
    parser.add_argument("--zoom", type=float, default=1.5)
    parser.add_argument("--scenes", default="", help="comma-separated scene numbers (1-based)")
    parser.add_argument("--poll", action="store_true", help="run the class poll on loopback")
    parser.add_argument("--phones", type=int, default=3,
                        help="with --poll, how many phones answer each question (0: none yet)")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("ATTENTION_LAB_HOME", str(use_screen(width, height)))
    from app.startup import build_window, make_application

    make_application()
    window = build_window(args.lang)
    window.resize(width, height)
    window.show()
    window.arrangement.open_scene(0, set_up=True)
    window.presentation.set_presenting(True)
    window.presentation.set_scale(args.zoom)
    assert window.parts is not None  # installed by the composition root
    polls = window.parts.polls
    if args.poll:
        polls.start_at("127.0.0.1", 0)
        settle()
    run, slides = window.lesson, window.slides
    wanted = {int(n) - 1 for n in args.scenes.split(",") if n.strip()} or set(range(run.count))
    for index in sorted(wanted):
        run.go(index)
        window.document.flush()
        settle()
        if args.poll and args.phones:
            answer_from_phones(polls.poll, args.phones)
        states = ["before", "after"] if run.scene.hides_answer else ["shown"]
        for state in states:
            if state == "after":
                run.reveal()
                window.document.flush()
                settle()
            for build in range(slides.builds):
                while slides.build < build:
                    slides.next()
                    settle()
                settle()
                tag = state if slides.builds == 1 else f"{state}-build{build + 1}"
                name = f"{args.lang}-{args.zoom:g}-{index + 1:02d}-{run.scene.id}-{tag}.png"
                window.grab().save(str(args.out / name))
                print(args.out / name, f"{window.width()}x{window.height()}")
            while slides.build > 0:
                slides.previous()
    if args.poll:
        polls.poll.stop()
    window.close()
    window.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
