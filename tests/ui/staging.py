"""One panel put on the projector's stage for a test: in the stage's type at a zoom, at its
readable size, and what keeps it from being read there."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from app.ui.language import apply_language
from tests.ui.legibility import lesson_tokens, problems, report

ZOOMS = (1.0, 1.5, 2.0)
"""The stage's zooms every panel is checked at."""


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def fit(panel, size=None) -> None:
    """Resize to `size` (default: the panel's readable size, asked again once its fonts and
    texts are laid out, since it is measured from them)."""
    for _ in range(3):
        panel.resize(size or panel.readable_size())
        settle()


def stage_panel(open_panel, on_stage, panel_class, document, language: str, zoom: float):
    """`panel_class` on `document`, in `language`, in the stage's type at `zoom`, at its
    readable size."""
    panel = open_panel(panel_class, (800, 600), document=document)
    apply_language(language)
    on_stage(panel, zoom)
    fit(panel)
    return panel


def unreadable(panel, script_least_px: float | None = None) -> str:
    """What keeps the panel from being read as it is now ("" when nothing does)."""
    found = problems(panel, lesson_tokens(panel.document.data),
                     script_least_px=script_least_px)
    return "\n".join(report(items, kind) for kind, items in found.items())


def project(window) -> None:
    """F5 with a lesson scene open: the stage fills the window's screen. The offscreen test
    screen is 800×800, not a projector, so the window then takes back the size it had, as
    on a projector of that size."""
    size = window.size()
    window.presentation.set_presenting(True)
    assert window.isFullScreen(), "the stage fills its screen"
    window.resize(size)
    settle()
