"""One screen, as in most classrooms: F5 puts the lesson's scene on a stage that fills the
screen the window is on, with no title bar or borders, as a slide show does; Esc gives the
teacher's window back where and as it was (full screen too, when F11 had made it so). Qt's
offscreen platform takes its screen from a file, read when the application starts, so the
window runs in a child."""

from __future__ import annotations

from pathlib import Path

import pytest
from screens import run_on_screens, screen

SCREEN = screen("projector", 1024, 768)
CHILD = r"""
import json, sys
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from app.startup import make_application, build_window

def settle():
    for _ in range(5):
        QApplication.processEvents()

def seen(window):
    g = window.geometry()
    return {"full": window.isFullScreen(), "rect": [g.x(), g.y(), g.width(), g.height()],
            "stage": [window.arrangement.stage.width(), window.arrangement.stage.height()],
            "stage_shown": window.arrangement.stage.isVisible()}

make_application()
window = build_window("en")
window.setGeometry(60, 40, 900, 600)
window.show()
settle()
if sys.argv[1] == "full":
    window.actions["full_screen"].trigger()  # F11 first
    settle()
window.arrangement.open_scene(1, set_up=True)
settle()
out = {"before": seen(window)}
QTest.keyClick(window, Qt.Key.Key_F5)
settle()
out["presenting"] = seen(window)
QTest.keyClick(window, Qt.Key.Key_Escape)
settle()
out["after"] = seen(window)
print("RESULT " + json.dumps(out), flush=True)
window.dispose()
"""


@pytest.mark.parametrize("start", ["window", "full"])
def test_f5_fills_the_screen_and_esc_gives_the_window_back(tmp_path: Path, start: str) -> None:
    seen = run_on_screens(tmp_path, [SCREEN], CHILD, start)
    whole = [0, 0, SCREEN["width"], SCREEN["height"]]
    assert seen["before"]["full"] == (start == "full")
    assert seen["presenting"]["full"] and seen["presenting"]["rect"] == whole
    assert seen["presenting"]["stage_shown"]
    assert seen["presenting"]["stage"] == whole[2:], "the stage is the whole screen"
    assert not seen["after"]["stage_shown"]
    assert seen["after"]["full"] == (start == "full")
    assert seen["after"]["rect"] == seen["before"]["rect"]
