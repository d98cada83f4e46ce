"""Command line and start-up: parse arguments, build the document and window, run or render."""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app import i18n
from app.paths import HOME_VARIABLE, output_problem, user_folder_problem

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow

USAGE_ERROR = 2
CANNOT_START = 1
DISTRIBUTION = "attention-lab"
"""The package's name in its metadata (pyproject.toml), which --version reads."""
DEFAULT_SIZE = (1280, 720)

XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}
"""Every system library Qt's xcb window plugin and Qt GUI load on Linux (the NEEDED entries
of PySide6's libqxcb.so, libQt6XcbQpa, libQt6Gui and libQt6DBus), with its Debian/Ubuntu
package. The README's install line lists the same packages."""


class _Version(argparse.Action):
    """--version: the installed package's version, looked up only when asked for (reading
    package metadata would slow every start)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version(DISTRIBUTION)
        except PackageNotFoundError:  # a checkout run without installing it
            number = "(not installed)"
        sys.stdout.write(f"{parser.prog} {number}\n")
        parser.exit()


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


def whole_number(text: str, too_long: str, not_whole: str, too_small: str) -> int:
    """A whole number of at least 1 as typed; each refusal is one line for the terminal (a
    huge digit string never reaches Python's int-digits advice)."""
    if len(text.strip()) > 12:
        raise argparse.ArgumentTypeError(too_long)
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(not_whole.format(text=text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(too_small.format(value=value))
    return value


def _scene(text: str) -> int:
    """A scene number as typed (1-based); the upper end is checked once the scenes are read."""
    return whole_number(text, "expected a scene number such as 1",
                  "expected a scene number, not {text!r}",
                  "scenes are numbered from 1, not {value}")


def _head(text: str) -> int:
    """An attention head's number as the capture counts them (0 is the first)."""
    if len(text.strip()) > 6:
        raise argparse.ArgumentTypeError("expected a head number such as 0")
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a head number (0, 1, …), not {text!r}") \
            from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"heads are numbered from 0, not {value}")
    return value


def _layer(text: str) -> int:
    """A layer's number as the model counts them (0 is the first)."""
    if len(text.strip()) > 6:
        raise argparse.ArgumentTypeError("expected a layer number such as 0")
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a layer number (0, 1, …), not {text!r}") \
            from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"layers are numbered from 0, not {value}")
    return value


def _poll_address(text: str) -> tuple[str, int]:
    """HOST:PORT for --poll (read with the poll's own rule; Qt's network module is loaded
    only when a poll is asked for)."""
    from app.poll.network import poll_address

    return poll_address(text)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="attention-lab", description="Attention Lab (注意力打分实验台)")
    parser.add_argument("--version", action=_Version,
                        help="print the installed version and exit")
    parser.add_argument("--lang", choices=i18n.languages(), help="interface language")
    parser.add_argument("--present", action="store_true",
                        help="start in presentation mode (large, high-contrast)")
    parser.add_argument("--scenario", type=Path, metavar="FILE",
                        help="start from this saved scenario (*.attnlab.json) instead of the "
                             "last session")
    parser.add_argument("--screenshot", type=Path, metavar="FILE",
                        help="render the window headless to a PNG or SVG file and exit")
    parser.add_argument("--size", type=_size, metavar="WxH",
                        help="window size for --screenshot (default 1280x720)")
    parser.add_argument("--panel", metavar="NAME", help="with --screenshot: render only this panel")
    parser.add_argument("--scene", type=_scene, metavar="N",
                        help="open the lesson at scene N (1 is the first); with --screenshot, "
                             "render that scene")
    parser.add_argument("--import", dest="import_file", type=Path, metavar="FILE",
                        help="open a model's captured q and k (.npz or .safetensors) as the "
                             "imported world")
    parser.add_argument("--model", type=Path, metavar="DIR",
                        help="open a Hugging Face model folder (config.json, tokenizer.json, "
                             "*.safetensors) and show one head of it as the imported world")
    parser.add_argument("--text", metavar="TEXT",
                        help="with --model: the sentence the model reads")
    parser.add_argument("--layer", type=_layer, metavar="L",
                        help="with --model: the layer to show (0 is the first; default the "
                             "last)")
    parser.add_argument("--head", type=_head, metavar="H",
                        help="with --import or --model: the attention head to show "
                             "(default 0)")
    parser.add_argument("--export-csv", type=Path, metavar="FILE",
                        help="write the current world's score matrix as CSV and exit, "
                             "without a window")
    parser.add_argument("--scorer", metavar="NAME",
                        help="with --export-csv: the scoring function (dot, scaled_dot, "
                             "cosine, neg_euclidean, additive, qk_norm)")
    parser.add_argument("--poll", type=_poll_address, metavar="HOST:PORT",
                        help="start the class poll on this address (port 0: any free port) "
                             "and print the address it took as one line")
    return parser


def _check_combinations(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Arguments that parse alone but make no sense together: one clear line, exit 2."""
    if args.screenshot is None and args.panel is not None:
        parser.error("--panel only works with --screenshot")
    if args.head is not None and args.import_file is None and args.model is None:
        parser.error("--head only works with --import or --model")
    if args.model is not None and args.import_file is not None:
        parser.error("--model and --import both open the imported world; choose one")
    if args.model is not None and args.text is None:
        parser.error("--model needs --text, the sentence the model reads")
    for flag, given in (("--text", args.text is not None), ("--layer", args.layer is not None)):
        if given and args.model is None:
            parser.error(f"{flag} only works with --model")
    if args.scorer is not None and args.export_csv is None:
        parser.error("--scorer only works with --export-csv")
    if args.export_csv is not None and args.screenshot is not None:
        parser.error("--export-csv runs without a window; leave out --screenshot")
    if args.poll is not None and args.export_csv is not None:
        parser.error("--poll needs the window; leave out --export-csv")
    if args.export_csv is not None:  # options that change only what a window shows
        window_only = {"--scene": args.scene is not None, "--present": args.present,
                       "--lang": args.lang is not None, "--size": args.size is not None}
        for flag, given in window_only.items():
            if given:
                parser.error(f"{flag} does not apply to --export-csv, which writes the scores "
                             "without a window; leave it out")
    if args.screenshot is not None and args.screenshot.suffix.lower() not in (".png", ".svg"):
        parser.error(f"--screenshot needs a .png or .svg file name, "
                     f"not {args.screenshot.name!r}")


def _output_problem(args: argparse.Namespace) -> str | None:
    """An output file that cannot be written, found before anything slow starts (so a run
    never ends in a traceback, and a FIFO never blocks it)."""
    for flag, path in (("--screenshot", args.screenshot), ("--export-csv", args.export_csv)):
        problem = None if path is None else output_problem(path)
        if problem is not None:
            return f"{flag}: {problem}"
    return None


def _xcb_platform_expected(environ: Mapping[str, str], platform: str) -> bool:
    """True when Qt will load its xcb plugin (Linux, and no other platform chosen first)."""
    if not platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(";")[0].split(":")[0] == "xcb"
    return not (environ.get("WAYLAND_DISPLAY") or environ.get("XDG_SESSION_TYPE") == "wayland")


def _load_library(name: str) -> None:
    """Load a shared library the way Qt will: PySide6's own Qt/lib first, then the system's."""
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    if spec is not None and spec.origin is not None:
        bundled = Path(spec.origin).parent / "Qt" / "lib" / name
        if bundled.exists():
            return
    ctypes.CDLL(name)


def missing_xcb_libraries(load: Callable[[str], object] | None = None) -> list[str]:
    """The libraries of XCB_LIBRARIES this machine cannot load (each is tried once)."""
    missing = []
    for name in XCB_LIBRARIES:
        try:
            (load or _load_library)(name)
        except OSError:
            missing.append(name)
    return missing


def window_system_problem(environ: Mapping[str, str] | None = None,
                          platform: str | None = None,
                          load: Callable[[str], object] | None = None) -> str | None:
    """One line saying why Qt's xcb plugin cannot open a window here, or None: no X display
    to open it on, or the missing system libraries and the command that installs them. Qt
    itself would abort, with a core dump and a message naming only libxcb-cursor0."""
    environ = os.environ if environ is None else environ
    if not _xcb_platform_expected(environ, sys.platform if platform is None else platform):
        return None
    if not environ.get("DISPLAY", "").strip():
        return ("there is no display to open the window on (DISPLAY is not set): start it "
                "from a desktop session; --screenshot FILE and --export-csv FILE run without one")
    missing = missing_xcb_libraries(load)
    if not missing:
        return None
    packages = " ".join(dict.fromkeys(XCB_LIBRARIES[name] for name in missing))
    return (f"Qt's window plugin (xcb) needs system libraries that are missing: "
            f"{', '.join(missing)}; install them with: sudo apt-get install -y {packages}")


def main(argv: Sequence[str] | None = None,
         on_window: Callable[[MainWindow], None] | None = None) -> int:
    """The command line; `on_window`, for a benchmark, sees the window before it is shown."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _check_combinations(parser, args)
    if args.size is None:
        args.size = DEFAULT_SIZE
    output = _output_problem(args)
    if output is not None:
        sys.stderr.write(f"attention-lab: error: {output}\n")
        return USAGE_ERROR
    if args.export_csv is not None:  # no Qt at all: a script's run, on any machine
        from app.headless import export_csv

        return export_csv(args)
    if args.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        folder = user_folder_problem()
        if folder is not None:  # a command-line run has no window to show the note in
            sys.stderr.write(f"attention-lab: error: {folder} (set {HOME_VARIABLE} "
                             f"to a folder that can be created)\n")
            return USAGE_ERROR
    problem = window_system_problem()
    if problem is not None:
        sys.stderr.write(f"attention-lab: error: {problem}\n")
        return CANNOT_START
    return _import_startup()(args, on_window)


def _import_startup() -> Callable[..., int]:
    """`app.startup.run`, imported with the cyclic garbage collector paused.

    The import (NumPy, Qt, pyqtgraph and the app) makes only objects that live as long as the
    process, yet the collector traversed them again and again while they were made (about
    60 ms of a start); afterwards they are frozen out of every later collection too.

    NumPy comes first: PySide6 reads the source of every module imported after it, to see
    whether it uses PySide6, and NumPy's 74 modules took about 19 ms of that."""
    if "app.startup" in sys.modules:  # imported before (a test, a tool): nothing to pause
        from app.startup import run

        return run
    collecting = gc.isenabled()
    gc.disable()
    try:
        import numpy  # noqa: F401  (before Qt: see above)

        from app.startup import run
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
    return run


if __name__ == "__main__":
    sys.exit(main())
