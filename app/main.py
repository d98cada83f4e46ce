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


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="attention-lab", description="Attention Lab (注意力打分实验台)")
    parser.add_argument("--lang", choices=("zh", "en"), help="interface language")
    parser.add_argument("--present", action="store_true",
                        help="start in presentation mode (large, high-contrast)")
    parser.add_argument("--scenario", type=Path, metavar="FILE",
                        help="start from this saved scenario (*.attnlab.json) instead of the "
                             "last session")
    parser.add_argument("--screenshot", type=Path, metavar="FILE",
                        help="render the window headless to a PNG or SVG file and exit")
    parser.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH",
                        help="window size for --screenshot (default 1280x720)")
    parser.add_argument("--panel", metavar="NAME", help="with --screenshot: render only this panel")
    parser.add_argument("--bench", action="store_true",
                        help="run the benchmark headless and print a table of timings")
    parser.add_argument("--bench-quick", action="store_true",
                        help="with --bench: small sizes and few repeats (seconds, for tests)")
    parser.add_argument("--repeat", type=_positive, metavar="N",
                        help="with --bench: repeat every timing N times")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="with --bench: also write the figures to this JSON file")
    return parser


def _check_combinations(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Arguments that parse alone but make no sense together: one clear line, exit 2."""
    if args.screenshot is None and args.panel is not None:
        parser.error("--panel only works with --screenshot")
    if args.screenshot is not None and args.screenshot.suffix.lower() not in (".png", ".svg"):
        parser.error(f"--screenshot needs a .png or .svg file name, not {args.screenshot.name!r}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _check_combinations(parser, args)
    if args.bench or args.bench_quick:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from app.bench.run import run_bench

        return run_bench(args.json, quick=args.bench_quick, repeat=args.repeat)
    if args.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.startup import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
