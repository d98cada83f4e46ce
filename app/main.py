"""Command line and start-up: parse arguments, build the document and window, run or render."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument as one clear line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"attention-lab: error: {message} (see --help)\n")
        sys.exit(USAGE_ERROR)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not {text!r}") from None
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(f"size {text} is outside 320x240 … 7680x4320")
    return width, height


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="attention-lab", description="Attention Lab (注意力打分实验台)")
    parser.add_argument("--lang", choices=("zh", "en"), help="interface language")
    parser.add_argument("--screenshot", type=Path, metavar="FILE",
                        help="render the window headless to a PNG or SVG file and exit")
    parser.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH",
                        help="window size for --screenshot (default 1280x720)")
    parser.add_argument("--panel", metavar="NAME", help="with --screenshot: render only this panel")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.startup import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
