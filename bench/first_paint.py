"""The start-up timing's child process: the app started as its command line starts it, told
to print when its window has first been painted and then quit (`startup_time`)."""

from __future__ import annotations

import sys

from app.main import main
from bench.startup_time import exit_after_first_paint

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], on_window=exit_after_first_paint))
