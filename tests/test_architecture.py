"""The layout the README promises, checked from the source: no import cycle anywhere in app/
(every import counts: inside functions and in `if TYPE_CHECKING:` blocks too), undo history
edited only in app/state/, one package per dock under app/ui/panels/, and a state layer that
never words a message (`tr` is not imported under app/state/)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
HISTORY_EDITS = {"beginMacro", "endMacro", "setClean", "clear", "apply_state"}
"""Undo-stack (and document) calls that rewrite history rather than record an edit."""


def module_name(path: Path) -> str:
    """The dotted module name of a source file under the repository (a package by its folder)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, ast.Module]:
    return {module_name(p): ast.parse(p.read_text(encoding="utf-8")) for p in APP.rglob("*.py")}


def _imports(name: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The app modules `name` imports, wherever the import statement stands."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in known else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {module for module in found if module in known and module != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_in_app() -> None:
    modules = _modules()
    graph = {name: _imports(name, tree, set(modules)) for name, tree in modules.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle_through_a_function_level_import() -> None:
    a = ast.parse("from app.b import x\n")
    b = ast.parse("def f():\n    from app.a import y\n")
    known = {"app.a", "app.b"}
    graph = {"app.a": _imports("app.a", a, known), "app.b": _imports("app.b", b, known)}
    assert _cycles(graph) == [["app.a", "app.b"]]
    guarded = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from app.a import y\n")
    assert _imports("app.b", guarded, known) == {"app.a"}  # a cycle for a type is a cycle


def test_only_the_state_layer_edits_undo_history() -> None:
    offenders = []
    for path in APP.rglob("*.py"):
        if path.is_relative_to(APP / "state"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in HISTORY_EDITS
                    and ("undo_stack" in ast.unparse(node.func.value)
                         or node.func.attr == "apply_state")):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_every_dock_is_a_package_of_its_own() -> None:
    panels = APP / "ui" / "panels"
    loose = sorted(p.name for p in panels.glob("*.py"))
    assert loose == ["__init__.py", "base.py", "registry.py"]
    packages = sorted(p.name for p in panels.iterdir() if (p / "__init__.py").exists())
    from app.ui.panels.registry import panel_specs

    for spec in panel_specs():
        package = spec.factory.__module__.split(".")[3]
        assert package in packages, spec.name
        assert spec.factory.__module__ == f"app.ui.panels.{package}.panel"


def test_a_dock_is_declared_without_importing_its_panel() -> None:
    """The window titles, places and sorts the docks from their specs alone, so a panel's
    module is imported only when its dock is first built: a dock off the first screen costs
    the start nothing. The spec and the class agree on what both say."""
    from app.model.lesson.data import load_lesson_data
    from app.model.view import initial_state
    from app.ui.panels.registry import panel_specs

    state = initial_state(load_lesson_data())
    for spec in panel_specs():
        declaration = APP / "ui" / "panels" / spec.name / "__init__.py"
        imported = [node.module for node in ast.walk(ast.parse(declaration.read_text("utf-8")))
                    if isinstance(node, ast.ImportFrom)]
        assert isinstance(spec.panel, str), spec.name
        assert f"app.ui.panels.{spec.name}.panel" not in imported, spec.name
        assert spec.factory.name == spec.name
        assert spec.factory.observes_while_hidden == spec.observes_while_hidden, spec.name
        assert spec.dock_title(state), spec.name


def test_the_state_layer_never_words_a_message() -> None:
    """Notices leave app/state/ as keys and values (`Notice`); the interface words them."""
    wording = []
    for path in (APP / "state").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            if any(name and name.startswith("app.i18n") for name in names):
                wording.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert wording == []


def test_the_window_names_no_dock_and_reaches_into_no_panel() -> None:
    """Docks are the registry's; the window frames them. Actions ask panels through their
    public methods, so none needs to silence a type checker to reach a private widget."""
    window = (APP / "ui" / "main_window.py").read_text(encoding="utf-8")
    from app.ui.panels.registry import panel_specs

    named = [spec.name for spec in panel_specs() if f'"{spec.name}"' in window]
    assert named == []
    assert len(window.splitlines()) < 250
    reaching = [f"{path.relative_to(ROOT)}:{number}"
                for path in (APP / "ui" / "actions").rglob("*.py")
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "type: ignore[attr-defined]" in line]
    assert reaching == []


def test_every_panel_declares_the_state_it_reads() -> None:
    """A panel that says nothing would refresh on every change; each says what it reads."""
    from app.model.state import STATE_FIELDS
    from app.ui.panels.registry import panel_specs

    for spec in panel_specs():
        declared = vars(spec.factory).get("depends_on")
        assert declared is not None, f"{spec.name} does not declare depends_on"
        assert {name.split(".")[0] for name in declared} <= set(STATE_FIELDS), spec.name


REFRESHES = {"refresh", "_refresh_now", "refit"}
"""The calls that repaint a panel from the document: the panel's own, never layout's."""
MEASURES = {"readable_size", "resizeEvent", "offer_room", "room"}
"""A panel's methods that layout code calls while it measures or places it; and every
`_fit…` method, which fits a panel's parts to the room it was given."""
STAGE_WORDS = ("build", "slide")


def _calls(node: ast.AST) -> set[str]:
    return {call.func.attr for call in ast.walk(node)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)}


def test_layout_code_never_refreshes_a_panel() -> None:
    """Layout decides where a panel stands and how large; the panel repaints when the
    document, the look or the language says so. Neither the layout package nor a panel's
    measuring methods call a refresh, so measuring a panel never repaints it."""
    found = []
    for path in APP.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        if where.parts[:3] == ("app", "ui", "layout"):
            found += [f"{where}: {name}" for name in _calls(tree) & REFRESHES]
        if where.parts[:3] == ("app", "ui", "panels"):
            for function in ast.walk(tree):
                if isinstance(function, ast.FunctionDef) and (
                        function.name in MEASURES or function.name.startswith("_fit")):
                    found += [f"{where}: {function.name} calls {name}"
                              for name in _calls(function) & REFRESHES]
    assert found == []


def test_the_state_layer_knows_nothing_of_the_stages_builds() -> None:
    """Which scene and what is revealed are the lesson's; how a scene is split into builds
    on a projector is the stage's (app/ui/layout/slides.py)."""
    found = []
    for path in (APP / "state").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = (node.attr if isinstance(node, ast.Attribute)
                    else node.id if isinstance(node, ast.Name)
                    else node.name if isinstance(node, ast.FunctionDef) else "")
            if any(word in name.lower() for word in STAGE_WORDS):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert found == []


def test_the_scripts_around_the_app_import_only_what_it_has() -> None:
    """tools/, bench/, dev.py and main.py run outside the suite's imports: a module moved
    inside app/ would break them only when someone next ran one."""
    scripts = [*ROOT.joinpath("tools").glob("*.py"), *ROOT.joinpath("bench").glob("*.py"),
               ROOT / "dev.py", ROOT / "main.py"]
    missing = []
    for path in scripts:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                    and node.module.split(".")[0] in ("app", "bench")):
                continue
            module = importlib.import_module(node.module)
            missing += [f"{path.name}: {node.module}.{alias.name}" for alias in node.names
                        if not hasattr(module, alias.name)
                        and importlib.util.find_spec(f"{node.module}.{alias.name}") is None]
    assert scripts and not missing, missing


def test_no_slot_on_destroyed_takes_the_object_going_away() -> None:
    """A `destroyed` slot with a parameter makes PySide wrap the half-destroyed object to pass
    it, which crashed a test worker when a parentless document was freed after its drag."""
    found = []
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "connect"
                    and "destroyed" in (getattr(node.func.value, "attr", None),
                                        getattr(node.func.value, "id", None))):
                slot = node.args[0]
                takes = (not isinstance(slot, ast.Lambda) or slot.args.args or slot.args.vararg
                         or slot.args.kwonlyargs or slot.args.posonlyargs)
                found += [f"{name}:{node.lineno}"] if takes else []
    assert not found, found
