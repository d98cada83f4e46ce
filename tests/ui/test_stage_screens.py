"""A laptop and a projector: the stage goes full screen on the projector with none of the
teacher's notes, and the presenter console on the laptop shows the notes, the answer before
it is revealed, the next scene and the time. Qt's offscreen platform takes the two screens
from a file, which it reads when the application starts, so the window runs in a child."""

from __future__ import annotations

from pathlib import Path

from screens import run_on_screens, screen

from app.i18n import tr
from app.ui.language import apply_language

SCREENS = [screen("laptop", 1366, 768), screen("projector", 1024, 768, x=1366)]
CHILD = r"""
import json
from PySide6.QtWidgets import QLabel, QAbstractButton
from presenting import present, settle, wait

def texts(widget):
    found = [w.text() for w in widget.findChildren(QLabel) if w.isVisible()]
    found += [w.text() for w in widget.findChildren(QAbstractButton) if w.isVisible()]
    return found

window = present("en", "fails")
console = window.arrangement.staging.console

def picture():
    # the console's picture of the projector, once the stage has rested (a bound, no timing)
    wait(lambda: not console.picture.pixmap().isNull(), 10)
    image = console.picture.pixmap().toImage()
    return [image.width(), image.height()]

out = {"picture": picture(), "coming": console.coming.text(),
       "stage_size": [window.arrangement.stage.width(), window.arrangement.stage.height()],
"stage_screen": window.screen().name(), "full_screen": window.isFullScreen(),
       "console_screen": console.screen().name(), "console_shown": console.isVisible(),
       "stage": texts(window.arrangement.stage), "console": texts(console),
       "console_answer": console.secret_text.text(),
       "look": window.panels["guide"].stepper.look.text()}
window.lesson.reveal()
settle()
out["stage_after"] = texts(window.arrangement.stage)
console.picture.clear()
out["picture_after"] = picture()
out["coming_after"] = console.coming.text()
window.presentation.set_presenting(False)
settle()
out["back_screen"] = window.screen().name()
out["back_full_screen"] = window.isFullScreen()
out["console_after"] = console.isVisible()
print("RESULT " + json.dumps(out, ensure_ascii=False), flush=True)
window.dispose()
"""


def _run(tmp_path: Path) -> dict:
    return run_on_screens(tmp_path, SCREENS, CHILD)


def test_the_stage_is_on_the_projector_and_the_notes_on_the_laptop(tmp_path) -> None:
    seen = _run(tmp_path)
    assert seen["stage_screen"] == "projector" and seen["full_screen"]
    assert seen["console_screen"] == "laptop" and seen["console_shown"]
    answer = seen["console_answer"]
    assert answer and "GiB" in answer, "the console has the answer before the reveal"
    stage = " ".join(seen["stage"])
    assert "GiB" not in stage and answer not in seen["stage"]
    look = seen["look"]
    assert look and look not in seen["stage"], "the notes are not on the projector"
    assert any(look == text for text in seen["console"]), "the notes are on the laptop"
    assert any("GiB" in text for text in seen["stage_after"]), "revealed on the stage"
    width, height = seen["picture"]
    assert width > 200 and abs(width / height - 1024 / 768) < 0.02, "the projector, small"
    assert seen["picture_after"] == seen["picture"], "taken again after the reveal"
    assert seen["coming"] == tr_en("console.next_reveal")
    assert seen["coming_after"].startswith(tr_en("console.coming", title="").strip())
    assert seen["back_screen"] == "laptop" and not seen["back_full_screen"]
    assert not seen["console_after"]


def tr_en(key: str, **values: object) -> str:
    apply_language("en")
    try:
        return tr(key, **values)
    finally:
        apply_language("zh")
