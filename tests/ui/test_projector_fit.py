"""On a projector (presentation mode at 1024×768 and 1280×720, Chinese and English) nothing a
student reads is cut off, zoom enlarges the data, only the open world's editor takes a dock,
the dark theme shows which toggle is on, and F1's list fits the screen."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget

from app.startup import build_window, make_application
from app.ui.presentation import restore_base_style
from app.ui.widgets.shortcuts_dialog import ShortcutsDialog

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
SIZES = [(1024, 768), (1280, 720)]


@pytest.fixture
def projector(qtbot):
    """The main window in presentation mode at a size and language, in the 4-D world."""
    made = []

    def open_(language: str, size: tuple[int, int], scale: float = 1.5):
        make_application()
        window = build_window(language)
        qtbot.addWidget(window)
        window.resize(*size)
        window.show()
        qtbot.waitExposed(window)
        window.presentation.set_presenting(True)
        window.presentation.set_scale(scale)
        window.document.set_world("teaching")
        window.document.flush()
        made.append(window)
        return window

    yield open_
    restore_base_style()


def settle(qtbot, window) -> None:
    """Let the layout and the panels' deferred fits run (no timing: until nothing moves)."""
    for _ in range(4):
        QApplication.sendPostedEvents()
        QApplication.processEvents()
        window.document.flush()


def inside_window(widget: QWidget) -> bool:
    top = widget.window()
    where = QRect(widget.mapTo(top, QPoint(0, 0)), widget.size())
    return widget.isVisible() and top.rect().contains(where)


def cell_font(window) -> float:
    return window.panels["heatmap"].cells.grid.font.pointSizeF()


@pytest.mark.parametrize("size", SIZES)
def test_zoom_enlarges_the_heatmap_numbers_and_chinese_is_never_smaller(qtbot, projector,
                                                                         size) -> None:
    fonts: dict[str, list[float]] = {}
    for language in ("zh", "en"):
        window = projector(language, size, 1.0)
        window.show_panel("heatmap")
        fonts[language] = []
        for scale in (1.0, 1.5, 2.0):
            window.presentation.set_scale(scale)
            settle(qtbot, window)
            fonts[language].append(cell_font(window))
        window.presentation.set_presenting(False)
        window.close()
        restore_base_style()
    sizes = fonts["zh"]  # the lesson's tokens are Chinese; English glosses widen the axis
    assert sizes == sorted(sizes), "a zoom step made the numbers smaller"
    assert sizes[-1] > sizes[0]
    assert all(zh >= en for zh, en in zip(fonts["zh"], fonts["en"], strict=True))


@pytest.mark.matrix(keep=3)
@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scale", [1.5, 2.0])
def test_the_heatmap_readout_lies_inside_the_window(qtbot, projector, language, size,
                                                     scale) -> None:
    window = projector(language, size, scale)
    panel = window.show_panel("heatmap")
    settle(qtbot, window)
    assert inside_window(panel)
    assert inside_window(panel.readout.holder)
    assert panel.readout.holder.geometry().bottom() <= panel.rect().bottom()
    assert panel.readout.text().endswith(panel.cell_text(window.document.state.query,
                                                         window.document.state.key))


def test_only_the_open_worlds_editor_takes_a_dock(qtbot, projector) -> None:
    window = projector("zh", (1024, 768))
    docks = window.docks
    assert docks["playground"].isHidden() and not docks["editor"].isHidden()
    with qtbot.waitSignal(window.document.changed, timeout=2000):
        window.document.set_world("dialogue")
    assert docks["editor"].isHidden() and not docks["playground"].isHidden()
    assert window.parts.docks.world_docks.put_away == {"editor"}
    # asking for the other world's dock from the View menu opens its world
    with qtbot.waitSignal(window.document.changed, timeout=2000):
        window.actions["show_editor"].trigger()
    assert window.document.state.world == "teaching"
    assert docks["playground"].isHidden() and not docks["editor"].isHidden()


def test_a_dock_the_user_closed_stays_closed_when_its_world_returns(qtbot, projector) -> None:
    window = projector("en", (1024, 768))
    window.docks["editor"].close()
    for world in ("dialogue", "teaching"):
        with qtbot.waitSignal(window.document.changed, timeout=2000):
            window.document.set_world(world)
    assert window.docks["editor"].isHidden()


def mean_colour(widget: QWidget) -> np.ndarray:
    image = widget.grab().toImage()
    pixels = [image.pixelColor(x, y) for x in range(2, image.width() - 2, 3)
              for y in range(2, image.height() - 2, 3)]
    return np.mean([(c.red(), c.green(), c.blue()) for c in pixels], axis=0)


def test_the_dark_theme_shows_which_toggle_is_on(qtbot, projector) -> None:
    window = projector("en", (1280, 720))
    window.presentation.set_theme("dark")
    panel = window.show_panel("heatmap")
    settle(qtbot, window)
    on, off = panel.scores_button, panel.weights_button
    assert on.isChecked() and not off.isChecked()
    assert np.abs(mean_colour(on) - mean_colour(off)).sum() > 90


def test_the_shortcut_list_fits_the_screen_at_the_largest_zoom(qtbot, projector) -> None:
    window = projector("zh", (1024, 768), 2.5)
    window.actions["shortcuts"].trigger()
    dialog = window.findChild(ShortcutsDialog, "shortcuts_dialog")
    assert dialog is not None and dialog.table.rowCount() > 20
    screen = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    assert dialog.width() <= screen.width() and dialog.height() <= screen.height()
    dialog.close()
