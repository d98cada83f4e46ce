"""The benchmark's command line, `python3 dev.py bench` (`python -m bench` in the checkout):
kept out of the installed app, whose `--help` is a student's."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from app.main import USAGE_ERROR, whole_number
from app.paths import output_problem
from bench import SECTIONS

MAX_REPEAT = 1000
"""--repeat above this would run for days; nobody means it."""


def _repeat(text: str) -> int:
    value = whole_number(text, f"expected a number from 1 to {MAX_REPEAT}",
                         "expected a whole number, not {text!r}",
                         "expected a number of at least 1, not {value}")
    if value > MAX_REPEAT:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_REPEAT} repeats (each one runs every measurement), not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py bench",
        description="Run Attention Lab's benchmark headless and print a table of timings.")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and few repeats (seconds, for tests)")
    parser.add_argument("--repeat", type=_repeat, metavar="N",
                        help="repeat every timing N times")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the figures and every sample to this JSON file")
    parser.add_argument("--only", choices=SECTIONS, metavar="SECTION",
                        help=f"run one section ({', '.join(SECTIONS)}); checkpoint runs "
                             "only in the full benchmark")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """0 when every section ran, 1 when one failed, 2 for a JSON file that cannot be written
    (checked before anything slow starts)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.quick and args.only == "checkpoint":
        parser.error("--only checkpoint: the real-sized checkpoints take minutes; leave out "
                     "--quick")
    problem = None if args.json is None else output_problem(args.json)
    if problem is not None:
        sys.stderr.write(f"bench: error: --json: {problem}\n")
        return USAGE_ERROR
    from bench.run import run_bench

    return run_bench(args.json, quick=args.quick, repeat=args.repeat, only=args.only)


if __name__ == "__main__":
    sys.exit(main())
