"""The bundled CJK font, and the font family list that makes Qt fall back to it.

School machines may have no Chinese font installed, which would turn every label into
tofu boxes.  The app therefore ships a subset of Noto Sans CJK SC, renamed "Attention
Lab Sans SC" (see resources/fonts/README.md), and lists it *after* the system UI font:
Latin text keeps the native look, and Qt moves on to the bundled family for any
character the system font cannot draw.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

from app.paths import RESOURCES

__all__ = [
    "FONT_DIR",
    "apply_cjk_fallback",
    "font_families",
    "register_bundled_fonts",
    "ui_font",
]

log = logging.getLogger(__name__)

FONT_DIR = RESOURCES / "fonts"
FONT_SUFFIXES = (".otf", ".ttf")

_registered: dict[Path, list[str]] = {}


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
    """A QFont with the app's family list, for places that do not inherit the app font.

    pyqtgraph's TextItem and axis labels build their own QFont, so pass them this one.
    """
    font = QFont()
    font.setFamilies(font_families())
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font
