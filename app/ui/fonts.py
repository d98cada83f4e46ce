"""The bundled CJK font and the family list that falls back to it; the application font every
widget inherits, and the few ways to stand out from it or to draw with it.

School machines may have no Chinese font installed, which would turn every label into
tofu boxes.  The app therefore ships a subset of Noto Sans CJK SC, renamed "Attention
Lab Sans SC" (see resources/fonts/README.md), and lists it *after* the system UI font:
Latin text keeps the native look, and Qt moves on to the bundled family for any
character the system font cannot draw.

Sizes: presentation mode scales the application font, and ordinary widgets inherit it, so
they need no font of their own. Sizes here are written as points at 100 % (the body text is
BODY_PT); `points`, `scaled_font` and `emphasize` turn them into the current zoom's size.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import cast

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QWidget

from app.model.lesson.bundled import bundled_dir
from app.ui.qt_known import gui_app

__all__ = [
    "BODY_PT",
    "DISPLAY",
    "FONT_DIR",
    "HEADING",
    "READING",
    "SMALL",
    "STAGE_BODY_PT",
    "STAGE_MIN_PX",
    "STAGE_QUESTION_PX",
    "STRONG",
    "TITLE",
    "apply_body_floor",
    "apply_cjk_fallback",
    "chrome_font",
    "emphasize",
    "font_families",
    "points",
    "register_bundled_fonts",
    "scaled_font",
    "ui_font",
]

log = logging.getLogger(__name__)

FONT_DIR = bundled_dir("resources") / "fonts"
FONT_SUFFIXES = (".otf", ".ttf")

_registered: dict[Path, list[str]] = {}

BODY_PT = 11.0
"""The application font at 100 %: the classroom floor, and what every size below is relative to."""
SMALL = 10.0
"""A crowded chart's tick labels and value labels (pyqtgraph items)."""
READING = 12.0
"""Sentences and numbers a student reads from the back of the room (≥ 12 pt)."""
STRONG = 13.0
"""The numbers a readout is about, an error dialog's text."""
HEADING = 14.0
"""A panel's heading, a vector's name on the plane, the cells' numbers at most."""
TITLE = 15.0
"""The guide's section titles."""
DISPLAY = 16.0
"""The written-out equation, the editor's token names."""
STAGE_BODY_PT = 15.0
"""The application font on the projector's stage at 100 % (20 px at 96 dpi): SMALL, the
smallest size anything is drawn in, is then 18 px, the least a student in the last row of a
60-seat room reads."""
STAGE_MIN_PX = 18
"""No text on the stage is smaller, in device pixels, at any zoom."""
STAGE_QUESTION_PX = 28
"""A scene's question on the stage is at least this large."""
CHROME_MOST = 1.5
"""The zoom past which a data panel's controls and axis titles stop growing: the class reads
the numbers, the teacher clicks the buttons, so at 200 % the room goes to the data."""


def register_bundled_fonts(font_dir: Path | None = None) -> list[str]:
    """Load every font file in resources/fonts into Qt; return the family names.

    Needs a QGuiApplication.  Safe to call again: each file is loaded only once.  A missing
    folder or a file Qt rejects is logged, not raised, so the app still starts (with tofu
    for Chinese on machines that lack a CJK font, rather than not at all).
    """
    folder = FONT_DIR if font_dir is None else font_dir
    files = (
        sorted(p for p in folder.iterdir() if p.suffix.lower() in FONT_SUFFIXES)
        if folder.is_dir()
        else []
    )
    if not files:
        log.warning("no bundled fonts in %s; Chinese text may not render", folder)
    families: list[str] = []
    for path in files:
        if path not in _registered:
            font_id = QFontDatabase.addApplicationFont(str(path))
            if font_id < 0:
                log.warning("Qt could not load bundled font %s", path)
                continue
            _registered[path] = QFontDatabase.applicationFontFamilies(font_id)
            log.debug("registered %s as %s", path.name, _registered[path])
        families.extend(f for f in _registered[path] if f not in families)
    return families


def font_families() -> list[str]:
    """System UI family first, then the bundled CJK family (registered on first use).

    Qt6 tries the families of QFont.setFamilies() in order, character by character, so
    Latin stays in the platform's own font and Chinese comes from the bundled one.
    """
    return list(_family_list())


@functools.cache
def _family_list() -> tuple[str, ...]:
    """Looked up once: panels ask for fonts on every repaint."""
    system = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont).family()
    bundled = register_bundled_fonts()
    return (system, *(f for f in bundled if f != system))


def apply_cjk_fallback(app: QGuiApplication) -> None:
    """Make the application font fall back to the bundled CJK family.

    Call once after the QApplication exists and before windows are built; widgets created
    later inherit the family list.
    """
    font = app.font()
    font.setFamilies(font_families())
    app.setFont(font)


def ui_font(point_size: float, bold: bool = False) -> QFont:
    """A QFont with the app's family list at an absolute size, for painted text fitted to its
    room (the heatmap's cells); anything sized by the zoom takes `scaled_font`."""
    font = QFont()
    font.setFamilies(font_families())
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font


def apply_body_floor(app: QGuiApplication) -> None:
    """Raise the application font to BODY_PT if the system's is smaller (it never shrinks)."""
    font = app.font()
    if font.pointSizeF() < BODY_PT:
        font.setPointSizeF(BODY_PT)
        app.setFont(font)


def points(size: float) -> float:
    """The point size `size` (points at 100 %) has at the current zoom: the same share of the
    application font as `size` is of BODY_PT."""
    current = QGuiApplication.font().pointSizeF()
    return (current if current > 0 else BODY_PT) * size / BODY_PT


def scaled_font(size: float = BODY_PT, bold: bool = False) -> QFont:
    """The application font (its families, the CJK fallback included) at `points(size)`.

    For what does not inherit the application font: pyqtgraph's TextItems and axes, painted
    items. Widgets take `emphasize`, which follows a later zoom by itself.
    """
    font = QFont(QGuiApplication.font())
    font.setPointSizeF(points(size))
    font.setBold(bold)
    return font


def chrome_font(size: float = BODY_PT, bold: bool = False) -> QFont:
    """`scaled_font`, but no larger than at CHROME_MOST: for a data panel's own chrome (axis
    titles), which must not take the data's room at a large zoom."""
    font = scaled_font(size, bold)
    font.setPointSizeF(min(font.pointSizeF(), size * CHROME_MOST))
    return font


class _Emphasis(QObject):
    """Keeps its parent widget's font at `scaled_font(size, bold)` (or `chrome_font` when
    `capped`) whenever the application font changes (a zoom, presentation mode); the
    widget's children inherit it."""

    def __init__(self, widget: QWidget, size: float, bold: bool) -> None:
        super().__init__(widget)
        self.setObjectName("emphasis")
        self.size, self.bold, self.capped = size, bold, False
        gui_app().fontChanged.connect(self.apply)

    @Slot()
    def apply(self) -> None:
        widget = cast(QWidget, self.parent())  # made a child of its widget
        font = (chrome_font if self.capped else scaled_font)(self.size, self.bold)
        if widget.font() != font:
            widget.setFont(font)


def emphasize(widget: QWidget, size: float = BODY_PT, bold: bool = False) -> None:
    """Make `widget` stand out from the inherited font: `size` points at 100 % (HEADING,
    READING, …), bold or not, kept relative to the application font through every zoom.
    Calling it again on the same widget changes the emphasis."""
    keeper = widget.findChild(_Emphasis, "emphasis", Qt.FindChildOption.FindDirectChildrenOnly)
    if keeper is None:
        keeper = _Emphasis(widget, size, bold)
    keeper.size, keeper.bold, keeper.capped = size, bold, False
    keeper.apply()


def restrain(widget: QWidget, size: float = BODY_PT) -> None:
    """Let a data panel's control (a button, a check box) grow with the zoom only up to
    CHROME_MOST, so past it the zoom enlarges the data beside it instead."""
    emphasize(widget, size)
    keeper = widget.findChild(_Emphasis, "emphasis", Qt.FindChildOption.FindDirectChildrenOnly)
    assert keeper is not None  # `emphasize` just made it
    keeper.capped = True
    keeper.apply()
