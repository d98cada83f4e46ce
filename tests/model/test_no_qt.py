"""Proves app/model stays pure NumPy: importing all of it pulls in no Qt or pyqtgraph module."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from tests.test_architecture import module_name

QT_PREFIXES = ("PySide6", "shiboken6", "PyQt", "pyqtgraph")
ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = ROOT / "app" / "model"

PROBE = f"""
import importlib, json, pkgutil, sys
import app.model
names, errors = ["app.model"], {{}}
for info in pkgutil.walk_packages(app.model.__path__, "app.model."):
    names.append(info.name)
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        errors[info.name] = f"{{type(exc).__name__}}: {{exc}}"
qt = sorted(m for m in sys.modules if m.startswith({QT_PREFIXES!r}))
print(json.dumps({{"imported": names, "errors": errors, "qt": qt}}))
"""


def _is_qt(module: str) -> bool:
    return module.startswith(QT_PREFIXES)


def test_importing_every_model_module_loads_no_qt() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    expected = {module_name(path) for path in MODEL_DIR.rglob("*.py")}
    assert expected <= set(result["imported"])  # discovery really found every module, nested too
    assert {"app.model.scoring.registry", "app.model.capture.read"} <= expected
    assert result["qt"] == []
    assert result["errors"] == {}  # a module that fails to import proves nothing


def _qt_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if _is_qt(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and _is_qt(node.module):
            found.append(node.module)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Name, ast.Attribute))
            and getattr(node.func, "id", getattr(node.func, "attr", ""))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and _is_qt(node.args[0].value)
        ):
            found.append(node.args[0].value)
    return found


def test_ast_scan_finds_no_qt_imports() -> None:
    files = sorted(MODEL_DIR.rglob("*.py"))
    assert files
    offenders = {
        str(f.relative_to(ROOT)): hits
        for f in files
        if (hits := _qt_imports(f.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_ast_scan_would_catch_qt_imports() -> None:
    source = (
        "import numpy\nimport pyqtgraph as pg\nfrom PySide6.QtCore import QObject\n"
        "import importlib\nimportlib.import_module('shiboken6')\n"
    )
    assert _qt_imports(source) == ["pyqtgraph", "PySide6.QtCore", "shiboken6"]
    assert _qt_imports("import numpy\nfrom app.model import scoring\n") == []
