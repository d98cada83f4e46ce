"""What the README's "Adding a dock" and "Adding a scene" promise: a dock is one declaration
(`PanelSpec`, which a panel package's `SPEC` is) and gets its dock, its View toggle, its title
and a place in scenes; a scene is one JSON entry the stepper reaches."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel, QMenu, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.lesson.data import load_lesson_data
from app.model.lesson.scenes import SCENES_FILE
from app.startup import make_application
from app.state.document import Document
from app.ui.app import build_main_window
from app.ui.language import apply_language
from app.ui.panels.base import Panel
from app.ui.panels.registry import RIGHT, PanelSpec, panel_specs

PANELS = Path(__file__).resolve().parents[2] / "app" / "ui" / "panels"


class ProbePanel(Panel):
    """A dock no package ships: it only counts its refreshes."""

    name = "probe"
    depends_on = ("scorer",)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.refreshes = 0
        QVBoxLayout(self).addWidget(QLabel("probe"))

    def refresh(self) -> None:
        self.refreshes += 1


def _window(qtbot, data_dir=None):
    make_application()
    apply_language("en")
    specs = [*panel_specs(), PanelSpec("probe", ProbePanel, RIGHT, order=99, title="heatmap.title")]
    window = build_main_window(Document(load_lesson_data(data_dir)), specs=specs)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_every_shipped_dock_is_found_from_its_package() -> None:
    names = [spec.name for spec in panel_specs()]
    assert names[:3] == ["playground", "editor", "heatmap"] and "guide" in names
    declaring = {init.parent.name for init in PANELS.glob("*/__init__.py")
                 if "SPEC = PanelSpec(" in init.read_text(encoding="utf-8")}
    assert len(names) == len(set(names)) and set(names) == declaring  # one dock per package


def test_a_dock_declared_once_gets_its_dock_toggle_title_and_declared_reads(qtbot) -> None:
    window = _window(qtbot)
    assert "probe" in window.docks
    toggle = window.actions["show_probe"]
    view = window.findChild(QMenu, "menu_view.panels")
    assert toggle in view.actions() and toggle.text() == tr("heatmap.title")
    probe = window.show_panel("probe")
    assert window.panels.is_built("probe") and probe.isVisible()
    before = probe.refreshes
    window.document.select(key=2)
    window.document.flush()
    assert probe.refreshes == before, "it reads only the scorer"
    window.document.set_scorer("cosine")
    window.document.flush()
    assert probe.refreshes == before + 1


def test_a_scene_is_one_entry_in_the_scenes_file_and_may_show_a_new_dock(
        qtbot, data_dir, edit_data, add_strings) -> None:
    def add(doc) -> None:
        doc["scenes"].append({
            "id": "probe_scene", "world": "teaching", "scorer": "cosine",
            "selection": {"query": "query", "key": "object"}, "panels": ["probe", "heatmap"],
            "title": "scene.probe_scene.title", "look": "scene.probe_scene.look"})

    edit_data(SCENES_FILE, add)
    add_strings({"zh": {"scene.probe_scene.title": "探针", "scene.probe_scene.look": "看探针。"},
                 "en": {"scene.probe_scene.title": "A probe",
                        "scene.probe_scene.look": "Look at the probe."}})
    window = _window(qtbot, data_dir)
    run = window.lesson
    window.arrangement.open_scene(0, set_up=True)
    run.last()
    assert run.scene.id == "probe_scene" and window.document.state.scorer == "cosine"
    assert window.docks["probe"].isVisible() and window.docks["heatmap"].isVisible()
    assert not window.docks["playground"].isVisible()
    assert window.panels["guide"].stepper.title.text() == "A probe"
