"""What the wheel carries, checked from the source: the bundled folders are found inside the
installed package before the checkout's, pyproject.toml maps every one of them there, and the
desktop entry, AppStream file and icon agree with the package's names and version. (.ci/run
builds the wheel itself, installs it outside the checkout and runs it.)"""

from __future__ import annotations

import configparser
import importlib
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import app
from app.model.lesson.bundled import BUNDLED, bundled_dir

ROOT = Path(__file__).resolve().parents[1]
LINUX = ROOT / "resources" / "linux"
tomllib = pytest.importorskip("tomllib")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WHEEL = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]


def _package(root: Path, name: str, inside: bool) -> None:
    """A package `name` under `root` with its data/ inside it, or beside it as in a checkout."""
    (root / name).mkdir(parents=True)
    (root / name / "__init__.py").write_text("", encoding="utf-8")
    folder = root / name / "data" if inside else root / "data"
    folder.mkdir()
    (folder / "where.txt").write_text("inside" if inside else "beside", encoding="utf-8")


def test_an_installed_package_reads_its_own_copy_before_a_checkout(tmp_path, monkeypatch):
    _package(tmp_path / "site", "installed_pkg", inside=True)
    (tmp_path / "site" / "data").mkdir()  # a stray data/ in site-packages is never read
    _package(tmp_path / "checkout", "checkout_pkg", inside=False)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.syspath_prepend(str(tmp_path / "checkout"))
    installed = bundled_dir("data", package="installed_pkg")
    assert installed == tmp_path / "site" / "installed_pkg" / "data"
    checkout = bundled_dir("data", package="checkout_pkg")
    assert (checkout / "where.txt").read_text(encoding="utf-8") == "beside"


def test_this_run_reads_the_lessons_files_from_a_real_folder() -> None:
    for name in BUNDLED:
        assert bundled_dir(name).is_dir(), name
    assert (bundled_dir("data") / "lesson-scenes.json").is_file()


def test_the_wheel_maps_every_bundled_folder_into_the_package() -> None:
    assert WHEEL["packages"] == ["app"]
    assert WHEEL["force-include"] == {name: f"app/{name}" for name in BUNDLED}
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "app/__init__.py"
    assert PYPROJECT["project"]["dynamic"] == ["version"]


def test_the_shared_data_exists_and_lands_where_desktops_look() -> None:
    shared = WHEEL["shared-data"]
    for source, target in shared.items():
        assert (ROOT / source).exists(), source
        assert target.startswith(("share/applications/", "share/metainfo/", "share/icons/"))
    assert shared["resources/icons/hicolor"] == "share/icons/hicolor"


def test_the_desktop_entry_starts_the_installed_command_with_the_icon() -> None:
    from app.ui.app_icon import DESKTOP_ENTRY, ICON_NAME

    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive
    entry.read(LINUX / f"{DESKTOP_ENTRY}.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application"
    assert desktop["Exec"] in PYPROJECT["project"]["scripts"]
    assert desktop["Icon"] == ICON_NAME
    assert desktop["Name[zh_CN]"] == "注意力打分实验台"


def test_the_appstream_file_names_the_entry_and_this_version() -> None:
    from app.ui.app_icon import DESKTOP_ENTRY

    root = ET.parse(LINUX / "attention-lab.metainfo.xml").getroot()
    assert root.findtext("launchable") == f"{DESKTOP_ENTRY}.desktop"
    assert root.find("provides/binary").text in PYPROJECT["project"]["scripts"]
    newest = root.find("releases/release")
    assert newest.get("version") == app.__version__, "add a <release> for the new version"


def test_the_ci_scripts_import_only_what_the_package_holds() -> None:
    """.ci/check-wheel runs Python against the installed app; a module it names that was moved
    fails only in CI, after the whole suite, so each `from app… import …` is tried here."""
    script = (ROOT / ".ci" / "check-wheel").read_text(encoding="utf-8")
    imports = re.findall(r"^from (app[\w.]*) import ([\w, ]+)$", script, flags=re.MULTILINE)
    assert imports, "check-wheel no longer imports from app; update this test"
    for module, names in imports:
        loaded = importlib.import_module(module)
        for name in names.split(","):
            assert hasattr(loaded, name.strip()), f"{module} has no {name.strip()}"
