"""Owns the poll's load benchmark: N simulated phones on loopback, each following the question
by its event stream and answering and changing its answer, while the UI thread shows the bars.

The phones run in a child process (`python -m bench.poll_load`), so the figures are the
app's own process under load: the round trip of every answer (p95), the longest gap of a
1 ms timer on the UI thread, memory, and whether the counts the app ends with are exactly
the last answer each phone was told was counted (no answer lost, none counted twice).
Half-way through the teacher moves to the next question; the phones follow it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import Result

__all__ = ["measure_poll_load", "run_phones"]

THINK_S = (0.3, 1.2)
"""How long a simulated student waits between taps (uniform): about 1.3 taps a second."""
MIB = 1024 * 1024


async def _phone(n: int, base: str, room: str, until: float, seed: int,
                 streams: Any, posts: Any, out: dict[str, Any]) -> None:
    """One phone: its event stream in the background, a tap after each think."""
    from aiohttp import ClientError

    rng = random.Random(seed * 100003 + n)
    token = f"bench-phone-{seed:04d}-{n:06d}"
    asked: dict[str, Any] = {}
    async def follow() -> None:
        async with streams.get(base + "/events") as response:
            event = ""
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "question":
                    asked.update(json.loads(line[6:]))

    reader = asyncio.ensure_future(follow())
    try:
        while time.monotonic() < until:
            await asyncio.sleep(rng.uniform(*THINK_S))
            if not asked.get("scene") or asked.get("frozen"):
                continue
            scene, choice = asked["scene"], rng.randrange(len(asked["choices"]))
            body = {"room": room, "scene": scene, "choice": choice, "device": token}
            started = time.perf_counter()
            try:
                async with posts.post(base + "/answer", json=body) as reply:
                    status = reply.status
                    await reply.read()
            except (ClientError, asyncio.TimeoutError):
                status = 0
            out["latencies_ms"].append((time.perf_counter() - started) * 1000)
            out["statuses"][str(status)] += 1
            if status == 200:
                out["last"].setdefault(scene, {})[token] = choice
    finally:
        reader.cancel()


async def run_phones(base: str, room: str, phones: int, seconds: float,
                     seed: int = 1) -> dict[str, Any]:
    """Simulate `phones` phones for `seconds`; the report holds every round trip, the
    statuses, and each scene's counts as the phones were told (last counted answer each)."""
    import aiohttp

    out: dict[str, Any] = {"latencies_ms": [], "statuses": Counter(), "last": {}}
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=10)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                     timeout=timeout) as streams, \
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                  timeout=aiohttp.ClientTimeout(total=10)) as posts:
        until = time.monotonic() + seconds
        await asyncio.gather(*(_phone(n, base, room, until, seed, streams, posts, out)
                               for n in range(phones)))
    counts = {scene: Counter(devices.values()) for scene, devices in out["last"].items()}
    return {"latencies_ms": out["latencies_ms"], "statuses": dict(out["statuses"]),
            "counts": {scene: {str(k): v for k, v in c.items()} for scene, c in counts.items()}}


def _rss_bytes() -> int | None:
    statm = Path("/proc/self/statm")
    if not statm.exists():
        return None
    return int(statm.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure_poll_load(phones: int = 300, seconds: float = 60.0) -> Result:
    """The app's side of the load: a real ClassPoll and its bars on the UI thread, the
    lesson's own questions, the phones in a child process."""
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.model.lesson.data import load_lesson_data
    from app.model.lesson.figures import figures_of
    from app.model.lesson.scenes import load_scenes
    from app.poll.classpoll import ClassPoll
    from app.poll.network import LOOPBACK
    from app.poll.questions import scene_question
    from app.ui.lesson_values import lesson_values
    from app.ui.widgets.poll_bars import PollBars
    from bench.ui_latency import Heartbeat

    app = QApplication.instance() or QApplication([])
    data = load_lesson_data()
    figures = figures_of(data)
    values = lesson_values(figures, data)
    asked = [s for s in load_scenes(data=data).scenes if s.poll is not None][:2]
    first, second = (scene_question(s, values, figures) for s in asked)
    poll = ClassPoll()
    bars = PollBars()
    bars.bind(poll)
    bars.resize(1024, 768)
    bars.show()
    poll.start(LOOPBACK, 0)
    poll.set_question(first)
    heartbeat = Heartbeat()
    memory: dict[str, int | None] = {}
    with tempfile.TemporaryDirectory(prefix="attention-lab-poll-load-") as folder:
        report_path = Path(folder) / "phones.json"
        child = subprocess.Popen(
            [sys.executable, "-m", "bench.poll_load", poll.address, poll.room,
             str(phones), str(seconds), str(report_path)],
            cwd=Path(__file__).resolve().parents[1])
        loop = QEventLoop()
        watch = QTimer()
        watch.timeout.connect(lambda: child.poll() is not None and loop.quit())
        watch.start(20)
        QTimer.singleShot(int(seconds * 500), lambda: poll.set_question(second))
        QTimer.singleShot(int(seconds * 250), lambda: memory.setdefault("early", _rss_bytes()))
        heartbeat.start()
        loop.exec()
        heartbeat.stop()
        watch.stop()
        memory["end"] = _rss_bytes()
        report = json.loads(report_path.read_text()) if child.returncode == 0 else None
    frozen = QEventLoop()
    poll.frozen.connect(frozen.quit)
    poll.freeze()
    frozen.exec()
    poll.stop()
    bars.close()
    app.processEvents()
    if report is None:
        raise RuntimeError(f"the simulated phones failed (exit code {child.returncode})")
    mismatched = []
    for question in (first, second):
        told = report["counts"].get(question.scene, {})
        expected = tuple(told.get(str(i), 0) for i in range(len(question.choices)))
        counted = poll.counts(question.scene)
        if counted is None or counted.counts != expected:
            mismatched.append(f"{question.scene}: app {counted and counted.counts}, "
                              f"phones {expected}")
    growth = (memory["end"] - memory["early"]) if memory.get("early") and memory["end"] \
        else None
    return Result("poll", f"answer round trip, {phones} phones answering and changing",
                  f"{phones} phones, {seconds:g} s", report["latencies_ms"], {
                      "max_ui_block_ms": heartbeat.max_gap_s * 1000,
                      "statuses": report["statuses"],
                      "answers": len(report["latencies_ms"]),
                      "counts_match": not mismatched,
                      "mismatched": mismatched,
                      "rss_growth_mib": None if growth is None else growth / MIB,
                  })


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.poll_load")
    parser.add_argument("address")
    parser.add_argument("room")
    parser.add_argument("phones", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("report", type=Path)
    args = parser.parse_args(argv)
    report = asyncio.run(run_phones(args.address, args.room, args.phones, args.seconds))
    args.report.write_text(json.dumps(report), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
