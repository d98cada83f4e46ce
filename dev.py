"""One entry point for a fresh machine: make `.venv`, install the app into it, then run or test.

Only the Python standard library is used here, so this works before anything is installed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".installed"
USAGE = ("usage: python3 dev.py run [app args...] | test [--all] [pytest args...]"
         " | bench [args...]")


def _venv_python() -> Path:
    scripts = "Scripts" if os.name == "nt" else "bin"
    return VENV / scripts / ("python.exe" if os.name == "nt" else "python")


def _ensure_venv(extras: tuple[str, ...] = ("test",)) -> Path:
    """Create the venv and (re)install only when pyproject.toml changed since the last install
    or a command needs an extra that is not installed yet.

    Every command shares one environment (app + test extra; `bench` adds its own extra, kept
    on later installs) so switching between them never reinstalls.
    """
    if sys.version_info < (3, 10):  # noqa: UP036 - dev.py runs under whatever python3 is first
        sys.exit("Attention Lab needs Python 3.10 or newer")
    python = _venv_python()
    if not python.exists():
        print(f"creating {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    stamp = STAMP.read_text().split() if STAMP.exists() else []
    installed = set(stamp[1].split(",")) if len(stamp) > 1 else set()
    if stamp[:1] != [digest] or not set(extras) <= installed:
        wanted = ",".join(sorted(installed | set(extras)))
        subprocess.run(
            [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
             "-e", f".[{wanted}]"],
            cwd=ROOT,
            check=True,
        )
        STAMP.write_text(f"{digest} {wanted}")
    return python


def _parallel(pytest_args: list[str]) -> list[str]:
    """One test process per core unless the command says how many (`-n 0`: one process, for
    `--pdb`). Work-stealing, because one stage test takes as long as a hundred others."""
    if any(arg.startswith(("-n", "--numprocesses", "--dist")) for arg in pytest_args):
        return []
    return ["-n", "auto", "--dist", "worksteal"]


def _selection(pytest_args: list[str]) -> list[str]:
    """The suite one runs often: the slow matrix (every scene × size × language × zoom on the
    stage, the soak, three hundred phones) only with `--all`, as CI runs it, or when the
    command picks its own markers."""
    if "--all" in pytest_args or any(arg.startswith("-m") for arg in pytest_args):
        return []
    return ["-m", "not slow"]


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "bench"}:
        print(USAGE, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    python = _ensure_venv(("test", "bench") if command == "bench" else ("test",))
    if command == "test":
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        chosen = _selection(rest)
        rest = [arg for arg in rest if arg != "--all"]
        return subprocess.run([str(python), "-m", "pytest", *_parallel(rest), *chosen, *rest],
                              cwd=ROOT, env=env).returncode
    target = ["-m", "bench"] if command == "bench" else [str(ROOT / "main.py")]
    return subprocess.run([str(python), *target, *rest], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
