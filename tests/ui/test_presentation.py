"""Presentation mode, zoom, themes, spotlight and full screen reach every panel and the app
font, which widgets inherit; the colour maps survive deuteranopia; every menu action has a
shortcut.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QMenu, QToolBar

from app.startup import build_window
from app.ui import app as composition_root
from app.ui.fonts import BODY_PT, HEADING, emphasize
from app.ui.look import DARK, LIGHT, MAX_SCALE, MIN_SCALE, Look, diverging_map
from app.ui.panels.base import Panel
from app.ui.panels.registry import RIGHT, PanelSpec
from app.ui.presentation import MIN_POINT_SIZE, base_style, restore_base_style
from app.ui.widgets.shortcuts_dialog import ShortcutsDialog

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
F = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier


class ProbePanel(Panel):
    """Records every look it is given, so the test sees what a real panel receives; its
    apply_look sets no font, so its labels show what inheritance alone does."""

    name = "probe"

    def __init__(self, document) -> None:
        super().__init__(document)
        self.looks: list[Look] = []
        self.plain = QLabel("body text 正文", self)
        self.heading = QLabel("a heading 标题", self)
        emphasize(self.heading, HEADING, bold=True)

    def apply_look(self) -> None:
        self.looks.append(self.look)


@pytest.fixture
def window(open_window, monkeypatch):
    real = composition_root.panel_specs  # the registry the window's docks come from
    probe = PanelSpec("probe", ProbePanel, RIGHT, title="app.title")
    monkeypatch.setattr(composition_root, "panel_specs", lambda: [*real(), probe])
    win = open_window()
    yield win
    restore_base_style()


def looks(window) -> set[Look]:
    return {panel.look for panel in window.panels.values()}


def test_f5_and_the_toolbar_button_switch_every_panel_and_the_app_font(qtbot, window) -> None:
    presentation = window.presentation
    probe = window.panels["probe"]
    qtbot.keyClick(window, F.Key_F5)
    assert presentation.presenting
    assert looks(window) == {Look(scale=1.5, theme=LIGHT)}
    assert presentation.theme_name == "projector"
    assert QApplication.palette().color(QPalette.ColorRole.WindowText) == QColor("#000000")
    assert probe.looks[-1] == presentation.look
    assert QApplication.font().pointSizeF() == pytest.approx(1.5 * MIN_POINT_SIZE)
    assert window.actions["presentation"].isChecked()
    toolbar = window.findChild(QToolBar, "toolbar_main")
    button = toolbar.widgetForAction(window.actions["presentation"])
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert not presentation.presenting
    assert looks(window) == {Look()}
    assert QApplication.font().pointSizeF() == pytest.approx(MIN_POINT_SIZE)
    assert not window.actions["presentation"].isChecked()


def test_zoom_steps_stay_within_100_and_250_percent(qtbot, window) -> None:
    presentation = window.presentation
    for _ in range(10):
        qtbot.keyClick(window, F.Key_Equal, CTRL)
    assert presentation.look.scale == MAX_SCALE == 2.5
    assert looks(window) == {presentation.look}
    assert "250 %" in window.statusBar().currentMessage()
    qtbot.keyClick(window, F.Key_Minus, CTRL)
    assert presentation.look.scale == 2.25
    for _ in range(10):
        qtbot.keyClick(window, F.Key_Minus, CTRL)
    assert presentation.look.scale == MIN_SCALE == 1.0
    qtbot.keyClick(window, F.Key_Equal, CTRL)
    qtbot.keyClick(window, F.Key_0, CTRL)
    assert presentation.look.scale == 1.0


def test_a_plain_widget_follows_the_app_font_through_every_zoom(window) -> None:
    """No apply_look sets these fonts: the probe's label and the toolbar's world box only
    inherit the application font, and presentation mode scales that alone."""
    presentation = window.presentation
    plain = (window.panels["probe"].plain, window.findChild(QComboBox, "world_combo"))
    sizes = []
    for step in (lambda: None, presentation.zoom_in, presentation.zoom_in,
                 lambda: presentation.set_presenting(True), presentation.zoom_in):
        step()
        for widget in plain:
            assert not widget.testAttribute(Qt.WidgetAttribute.WA_SetFont), "nobody set it"
            assert widget.font().pointSizeF() == QApplication.font().pointSizeF()
            assert widget.font().families() == QApplication.font().families()
        sizes.append(plain[0].font().pointSizeF())
    assert sizes == sorted(sizes) and sizes[0] == MIN_POINT_SIZE
    assert sizes[-1] == pytest.approx(1.75 * MIN_POINT_SIZE)  # presentation 150 %, one step
    presentation.zoom_reset()  # Ctrl+0: the projector's own default, not the desk's 100 %
    assert plain[0].font().pointSizeF() == pytest.approx(1.5 * MIN_POINT_SIZE)
    presentation.set_presenting(False)
    presentation.zoom_in()
    presentation.zoom_reset()
    assert plain[0].font().pointSizeF() == MIN_POINT_SIZE


def test_emphasized_text_stays_larger_than_body_text_after_a_zoom(window) -> None:
    presentation = window.presentation
    probe, expansion = window.panels["probe"], window.panels["expansion"]
    for scale in (1.0, 2.0, 1.25, 2.5, 1.0):
        presentation.set_scale(scale)
        body, heading = probe.plain.font(), probe.heading.font()
        assert heading.pointSizeF() == pytest.approx(body.pointSizeF() * HEADING / BODY_PT)
        assert heading.bold() and not body.bold()
        assert heading.families() == body.families() == QApplication.font().families()
        assert expansion.heading.font().pointSizeF() > body.pointSizeF()
        assert expansion.equation.font().pointSizeF() > expansion.heading.font().pointSizeF()


def test_themes_reach_panels_and_the_palette(window) -> None:
    window.actions["theme_dark"].trigger()
    assert looks(window) == {Look(theme=DARK)}
    palette = QApplication.palette()
    assert palette.color(QPalette.ColorRole.Window) == QColor(DARK.background)
    assert palette.color(QPalette.ColorRole.WindowText) == QColor(DARK.foreground)
    window.actions["theme_projector"].trigger()
    assert looks(window) == {Look(theme=LIGHT)}, "projector draws data with the light theme"
    assert QApplication.palette().color(QPalette.ColorRole.Window) == QColor("#FFFFFF")
    assert QApplication.palette() != base_style()[1]
    window.actions["theme_light"].trigger()
    assert looks(window) == {Look(theme=LIGHT)}
    assert QApplication.palette() == base_style()[1]
    assert window.actions["theme_light"].isChecked()


def test_spotlight_and_full_screen(qtbot, window) -> None:
    qtbot.keyClick(window, F.Key_F6)
    assert all(look.spotlight for look in looks(window))
    qtbot.keyClick(window, F.Key_F5)
    assert all(look.spotlight for look in looks(window)), "presentation keeps the spotlight"
    qtbot.keyClick(window, F.Key_F11)
    assert window.isFullScreen() and window.actions["full_screen"].isChecked()
    qtbot.keyClick(window, F.Key_F11)
    assert not window.isFullScreen() and not window.actions["full_screen"].isChecked()


def test_presentation_tabs_panels_into_two_columns_and_restores_the_desk(window) -> None:
    """Five stacked panels cannot fit 720 lines at 200 %; two tabbed columns can."""
    desk = {name: window.dockWidgetArea(dock) for name, dock in window.docks.items()}
    window.presentation.set_presenting(True)
    left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
    columns = {area: [d for d in window.docks.values() if window.dockWidgetArea(d) == area]
               for area in (left, right)}
    assert sum(map(len, columns.values())) == len(window.docks)
    assert abs(len(columns[left]) - len(columns[right])) <= 1
    for column in columns.values():
        shown = {dock for dock in column if not dock.isHidden()}  # not the other world's
        for dock in shown:
            assert set(window.tabifiedDockWidgets(dock)) == shown - {dock}
    window.close()  # closing while presenting saves the desk layout, not the projector one
    assert {name: window.dockWidgetArea(d) for name, d in window.docks.items()} == desk
    assert not window.presentation.presenting


def test_the_projector_zoom_is_remembered_for_next_time(qtbot, window) -> None:
    presentation = window.presentation
    presentation.set_presenting(True)
    presentation.set_scale(2.0)
    presentation.set_presenting(False)
    assert presentation.look.scale == 1.0
    again = build_window("en")
    qtbot.addWidget(again)
    again.presentation.set_presenting(True)
    assert again.presentation.look == Look(scale=2.0, theme=LIGHT)
    assert again.presentation.theme_name == "projector"


# ---- keyboard --------------------------------------------------------------------------------

def _menu_actions(menu: QMenu) -> list:
    found = []
    for action in menu.actions():
        if action.isSeparator():
            continue
        if action.menu() is not None:
            found += _menu_actions(action.menu())
        else:
            found.append(action)
    return found


def test_every_menu_action_has_a_shortcut_listed_in_help(window) -> None:
    actions = []
    for top in window.menuBar().actions():
        actions += _menu_actions(top.menu())
    assert len(actions) > 20
    missing = [a.text() for a in actions if a.shortcut().isEmpty()]
    assert missing == []
    listed = dict(window.actions.shortcut_rows())
    shown = [a for a in actions if a.isVisible()]
    assert {a.text().replace("&", "") for a in shown} <= set(listed)
    sequences = [a.shortcut().toString() for a in actions]
    assert len(sequences) == len(set(sequences)), "two actions share a shortcut"
    window.actions["shortcuts"].trigger()
    dialog = window.findChild(ShortcutsDialog, "shortcuts_dialog")
    assert dialog is not None and "F5" in dialog.text() and "F11" in dialog.text()
    dialog.close()


# ---- colour-blind safety ---------------------------------------------------------------------

MACHADO_DEUTERANOPIA = np.array([  # Machado, Oliveira & Fernandes 2009, severity 1.0
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.011820, 0.042940, 0.968881],
])


def _linear(rgb: np.ndarray) -> np.ndarray:
    c = np.asarray(rgb, dtype=float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _srgb(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0, 1)
    return 255 * np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def deuteranopia(rgb: np.ndarray) -> np.ndarray:
    """sRGB (…, 3) as a person without working M cones sees it (in linear light)."""
    return _srgb(_linear(rgb) @ MACHADO_DEUTERANOPIA.T)


def lab(rgb: np.ndarray) -> np.ndarray:
    xyz = _linear(rgb) @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                                   [0.0193, 0.1192, 0.9505]]).T
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                     200 * (f[..., 1] - f[..., 2])], axis=-1)


def delta_e(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(lab(a) - lab(b)))


def test_the_simulation_does_collapse_red_and_green() -> None:
    """Without this, a broken filter would pass the real test below."""
    red, green = np.array([215, 48, 39]), np.array([26, 152, 80])  # a red–green map's ends
    assert delta_e(red, green) > 100
    assert delta_e(deuteranopia(red), deuteranopia(green)) < 40


def test_diverging_map_ends_and_middle_survive_deuteranopia() -> None:
    colours = diverging_map().map(np.array([0.0, 0.25, 0.5, 0.75, 1.0]), mode="byte")[:, :3]
    seen = deuteranopia(colours)
    low, quarter, middle, three_quarters, high = seen
    assert delta_e(low, middle) > 40 and delta_e(high, middle) > 40
    assert delta_e(low, high) > 40, "negative and positive must not look alike"
    assert delta_e(quarter, three_quarters) > 20
    assert abs(lab(low)[0] - lab(middle)[0]) > 30, "the ends stay dark against white zero"


def filtered(image: QImage) -> QImage:
    """A whole picture through the deuteranopia filter (for looking at, and for the test)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height = rgb.width(), rgb.height()
    array = np.frombuffer(rgb.constBits(), np.uint8).reshape(height, rgb.bytesPerLine())
    pixels = array[:, : width * 3].reshape(height, width, 3)
    out = np.ascontiguousarray(deuteranopia(pixels).round().astype(np.uint8))
    return QImage(out.data, width, height, width * 3, QImage.Format.Format_RGB888).copy()


def test_whole_window_through_the_filter_keeps_its_contrast(window, tmp_path) -> None:
    image = window.grab().toImage()
    seen = filtered(image)
    path = tmp_path / "deuteranopia.png"
    assert seen.save(str(path))
    before = np.array([QColor(image.pixel(x, y)).lightness() for x in range(0, image.width(), 7)
                       for y in range(0, image.height(), 7)])
    after = np.array([QColor(seen.pixel(x, y)).lightness() for x in range(0, seen.width(), 7)
                      for y in range(0, seen.height(), 7)])
    assert after.std() > 0.6 * before.std(), "the filtered window lost most of its contrast"
