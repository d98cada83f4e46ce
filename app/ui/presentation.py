"""Owns presentation mode: the Look (scale, theme, spotlight) applied to every panel and to the
application's font and palette, plus full screen.

A projector washes out colour and the back row is 10 m away, so presentation mode scales
fonts, lines and labels (100–250 %) and switches to a high-contrast light theme by default.
The scale reaches text through the application font, which every widget inherits; panels read
`panel.look` for the rest (pens, colours). This controller is the one place that changes them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QChildEvent, QCoreApplication, QEvent, QObject, QSettings, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QMainWindow, QTabBar

from app.ui import settings as keys
from app.ui.fonts import BODY_PT, STAGE_BODY_PT
from app.ui.layout.docks import DockHost
from app.ui.look import DARK, LIGHT, MAX_SCALE, MIN_SCALE, Look, Theme
from app.ui.qt_known import gui_app

THEME_CHOICES: dict[str, Theme] = {"light": LIGHT, "projector": LIGHT, "dark": DARK}
"""Menu theme → the data theme panels draw with. "projector" is the light data theme (black on
white) with high-contrast chrome: pure white, pure black and a strong highlight."""
PRESENTATION_THEME = "projector"
PRESENTATION_SCALE = 1.5
ZOOM_STEP = 0.25
MIN_POINT_SIZE = BODY_PT
"""The interface font is never below 11 pt, so even 100 % is legible in a classroom."""

Role = QPalette.ColorRole
_CHROME: dict[str, dict[QPalette.ColorRole, str]] = {
    "projector": {
        Role.Window: "#FFFFFF", Role.Base: "#FFFFFF",
        Role.AlternateBase: "#F2F2F2", Role.Button: "#EDEDED",
        Role.WindowText: "#000000", Role.Text: "#000000",
        Role.ButtonText: "#000000", Role.ToolTipBase: "#FFFFFF",
        Role.ToolTipText: "#000000", Role.Highlight: "#0072B2",
        Role.HighlightedText: "#FFFFFF", Role.PlaceholderText: "#1A1A1A",
        Role.Mid: "#707070", Role.Dark: "#404040",
    },
    "dark": {
        Role.Window: "#1E1E1E", Role.Base: "#2B2B2B",
        Role.AlternateBase: "#333333", Role.Button: "#3A3A3A",
        Role.WindowText: "#F0F0F0", Role.Text: "#F0F0F0",
        Role.ButtonText: "#F0F0F0", Role.ToolTipBase: "#2D2D2D",
        Role.ToolTipText: "#F0F0F0", Role.Highlight: "#56B4E9",
        Role.HighlightedText: "#000000", Role.PlaceholderText: "#AAAAAA",
        Role.Light: "#505050", Role.Midlight: "#3C3C3C",
        Role.Mid: "#555555", Role.Dark: "#101010",
        Role.Shadow: "#000000", Role.BrightText: "#FFFFFF",
        Role.Link: "#56B4E9",
    },
}


CHECKED = {name: (chrome[Role.Highlight], chrome[Role.HighlightedText], chrome[Role.Text])
           for name, chrome in _CHROME.items()}
"""Per chrome theme: a switched-on toggle's fill, its text and its border. Qt's own style
shades a checked button a few percent darker, which a dark palette or a washed-out projector
hides: the teacher could not see which of Scores / Weights was on."""


def checked_style(theme_name: str) -> str:
    """The window's style sheet: checked push and tool buttons filled with the highlight
    ("light" keeps the system's look: empty)."""
    if theme_name not in CHECKED:
        return ""
    fill, text, border = CHECKED[theme_name]
    return (f"QPushButton:checked, QToolButton:checked {{ background-color: {fill};"
            f" color: {text}; border: 1px solid {border}; border-radius: 3px; }}")


def palette_for(theme_name: str, base: QPalette) -> QPalette:
    """The widget palette for a menu theme; "light" keeps the system's own palette."""
    palette = QPalette(base)
    for role, colour in _CHROME.get(theme_name, {}).items():
        palette.setColor(QPalette.ColorGroup.All, role, QColor(colour))
    if theme_name in _CHROME:
        muted = QColor(DARK.muted if theme_name == "dark" else "#6E6E6E")
        for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                     QPalette.ColorRole.ButtonText):
            palette.setColor(QPalette.ColorGroup.Disabled, role, muted)
    return palette


def stored_presentation(store: QSettings) -> tuple[Look, str]:
    """The projector look the teacher chose last time (scale and theme), else the default."""
    name = str(store.value(keys.PRESENTATION_THEME, PRESENTATION_THEME))
    name = name if name in THEME_CHOICES else PRESENTATION_THEME
    try:
        stored: Any = store.value(keys.PRESENTATION_SCALE, PRESENTATION_SCALE)  # any type
        scale = float(stored)
    except (TypeError, ValueError):
        scale = PRESENTATION_SCALE
    return Look(theme=THEME_CHOICES[name]).scaled(scale), name


_base_styles: dict[int, tuple[QFont, QPalette]] = {}


def base_style() -> tuple[QFont, QPalette]:
    """The application's font and palette before any look changed them (taken once per app)."""
    app = gui_app()
    if id(app) not in _base_styles:
        _base_styles[id(app)] = (QFont(app.font()), QPalette(app.palette()))
    return _base_styles[id(app)]


def restore_base_style() -> None:
    """Undo every look on the application (a test or a second window starts from plain)."""
    if QApplication.instance() is None:
        return  # no application, so no look to undo
    font, palette = base_style()
    app = gui_app()
    app.setFont(font)
    app.setPalette(palette)


def app_point_size(scale: float, stage: bool = False) -> float:
    """The application font's size at a presentation scale: the base, at least 11 pt, × scale;
    on the stage, STAGE_BODY_PT × scale (its smallest text is then STAGE_MIN_PX)."""
    base = base_style()[0].pointSizeF()
    if stage:
        return STAGE_BODY_PT * scale
    return max(base if base > 0 else MIN_POINT_SIZE, MIN_POINT_SIZE) * scale


def scale_app_font(scale: float, stage: bool = False) -> None:
    """Set the application font for `scale` (on the stage or not); every widget inherits it,
    and the fonts that `app.ui.fonts.emphasize` keeps follow it."""
    font = QFont(base_style()[0])
    font.setPointSizeF(app_point_size(scale, stage))
    gui_app().setFont(font)
    # Qt posts the change to the widgets: deliver it now, so what is laid out or measured
    # next (the panels' set_look) already sees the new sizes
    QCoreApplication.sendPostedEvents(None, QEvent.Type.ApplicationFontChange)


def snap_scale(scale: float) -> float:
    """Round to the zoom grid (25 % steps) inside 100–250 %."""
    return min(MAX_SCALE, max(MIN_SCALE, round(scale / ZOOM_STEP) * ZOOM_STEP))


def whole_titles(bar: QTabBar) -> None:
    """Whole panel names on a dock tab bar, scrolling if they do not fit: a projected "热…"
    names nothing."""
    bar.setElideMode(Qt.TextElideMode.ElideNone)
    bar.setUsesScrollButtons(True)
    bar.setFont(QFont())  # the look's own size; at the desk, its fit may make it smaller


class Presentation(QObject):
    """The current Look and the switches that change it; applies it to the whole window."""

    look_changed = Signal(object)
    presenting_changing = Signal(bool)
    """About to enter (True) or leave presentation mode, the old look still applied."""
    presenting_changed = Signal(bool)
    fitted = Signal()
    """The stage now draws at another scale than before, to fit a build (`shown_look`)."""

    def __init__(self, window: QMainWindow, docks: DockHost,
                 presentation: tuple[Look, str] | None = None) -> None:
        super().__init__(window)
        self._window = window
        self._docks = docks
        self._base_palette = base_style()[1]  # taken before any look changes it
        self._look, self._theme_name = Look(), "light"
        self._other = presentation or (Look(scale=PRESENTATION_SCALE), PRESENTATION_THEME)
        """(look, theme name) of the mode we are not in: switching back restores it."""
        self._presenting = False
        self._stage_fit: float | None = None
        """On the stage: the scale a build's panels fit at, when smaller than the zoom."""
        window.installEventFilter(self)
        self._apply()

    @property
    def look(self) -> Look:
        return self._look

    @property
    def theme_name(self) -> str:
        """The menu theme: light, projector or dark (two of them share the light Look theme)."""
        return self._theme_name

    @property
    def presenting(self) -> bool:
        return self._presenting

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Qt makes a new tab bar (eliding titles) whenever docks are tabbed or a saved layout
        is restored, after `_apply` ran; it is polished before it is first shown, so style it
        then."""
        if (watched is self._window and event.type() == QEvent.Type.ChildPolished
                and isinstance(event, QChildEvent) and isinstance(bar := event.child(), QTabBar)):
            whole_titles(bar)
        return False

    def set_presenting(self, on: bool) -> None:
        """Toggle between the desk look and the projector look; each remembers its own zoom."""
        on = bool(on)
        if on == self._presenting:
            return
        self.presenting_changing.emit(on)
        self._presenting = on
        (look, name), self._other = self._other, (replace(self._look, stage=False),
                                                  self._theme_name)
        self.set_look(replace(look, spotlight=self._look.spotlight, stage=self._look.stage),
                      name)  # a lesson's stage went up already, before the type grew
        self.presenting_changed.emit(on)

    def set_scale(self, scale: float) -> None:
        self.set_look(self._look.scaled(scale))

    def zoom_in(self) -> None:
        self.set_scale(snap_scale(self._look.scale + ZOOM_STEP))

    def zoom_out(self) -> None:
        self.set_scale(snap_scale(self._look.scale - ZOOM_STEP))

    def zoom_reset(self) -> None:
        """Back to the mode's own default: the projector's 150 %, the desk's 100 %."""
        self.set_scale(PRESENTATION_SCALE if self._presenting else MIN_SCALE)

    def set_theme(self, name: str) -> None:
        self.set_look(replace(self._look, theme=THEME_CHOICES[name]), name)

    def set_stage(self, on: bool) -> None:
        """The stage is up (presenting a lesson scene) or down: its larger type, or not."""
        self._stage_fit = None
        self.set_look(replace(self._look, stage=bool(on)))

    @property
    def shown_look(self) -> Look:
        """The look things are drawn in now: the zoom, or on the stage the smaller scale a
        build had to be fitted at (never below 100 %, where every text is still 18 px)."""
        if self._look.stage and self._stage_fit is not None:
            return self._look.scaled(min(self._look.scale, self._stage_fit))
        return self._look

    def fit_stage(self, scale: float | None) -> None:
        """Draw the stage at `scale` for now (None: at the zoom), so a build too large for
        the projector at the chosen zoom still shows whole; the zoom itself is unchanged."""
        scale = None if scale is None else max(MIN_SCALE, scale)
        if scale != self._stage_fit:
            before = self.shown_look
            self._stage_fit = scale
            if self.shown_look != before:
                self._apply()
                self.fitted.emit()

    def set_spotlight(self, on: bool) -> None:
        self.set_look(replace(self._look, spotlight=bool(on)))

    def set_full_screen(self, on: bool) -> None:
        window = self._window
        if on and not window.isFullScreen():
            window.showFullScreen()
        elif not on and window.isFullScreen():
            window.showNormal()

    def set_look(self, look: Look, theme_name: str | None = None) -> None:
        theme_name = theme_name or self._theme_name
        if (look, theme_name) == (self._look, self._theme_name):
            return
        if look.scale != self._look.scale:
            self._stage_fit = None  # a new zoom: fit again from it
        self._look, self._theme_name = look, theme_name
        self._apply()
        self.look_changed.emit(look)

    def _apply(self) -> None:
        """Application font and palette first, so panels restyle against the final chrome."""
        app = gui_app()
        look = self.shown_look
        scale_app_font(look.scale, look.stage)
        title = QFont(app.font())
        title.setStyleStrategy(QFont.StyleStrategy.PreferAntialias)
        app.setPalette(palette_for(self._theme_name, self._base_palette))
        self._window.setStyleSheet(checked_style(self._theme_name))
        for bar in self._window.findChildren(QTabBar):
            whole_titles(bar)
        self._docks.set_look(look, title)
