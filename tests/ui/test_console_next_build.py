"""The presenter console shows, under the projector's picture, the scene's next build as the
projector will show it, drawn behind a still of the projector so the class sees nothing
early; the projector's own picture is the same before and after it is drawn."""

from __future__ import annotations

from screens import run_on_screens, screen

SCREENS = [screen("laptop", 1366, 768), screen("projector", 1024, 768, x=1366)]
CHILD = r"""
import json
import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from presenting import present, settle, wait

def pixels(pixmap, width=240):
    image = pixmap.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation).toImage()
    image = image.convertToFormat(QImage.Format.Format_Grayscale8)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(),
                                                              image.bytesPerLine())
    return rows[:, :image.width()].astype(float)

def apart(a, b):
    height = min(len(a), len(b))
    return float(np.abs(a[:height] - b[:height]).mean())

window = present("en")
host = window.arrangement.staging
console = host.console
lesson = window.lesson
out = {}
for index in range(lesson.count):
    lesson.go(index)
    settle()
    host.arrange()
    if host.slides.builds > 1:
        break
out["scene"] = lesson.scene.id
out["builds"] = host.slides.builds
shown_before = pixels(window.grab())
out["drawn"] = wait(lambda: not console.next_picture.isHidden())
out["build_after_preview"] = host.slides.build
out["projector_kept"] = apart(shown_before, pixels(window.grab()))
preview = pixels(console.next_picture.pixmap())
first = pixels(host.stage.grab())
host.slides.next()
settle()
out["build_on"] = host.slides.build
second = pixels(host.stage.grab())
out["preview_vs_next"] = apart(preview, second)
out["preview_vs_now"] = apart(preview, first)
out["hidden_on_last_build"] = wait(lambda: console.next_picture.isHidden())
print("RESULT " + json.dumps(out), flush=True)
window.dispose()
"""


def test_the_console_shows_the_next_build_and_the_class_does_not(tmp_path) -> None:
    seen = run_on_screens(tmp_path, SCREENS, CHILD, timeout=240)
    assert seen["builds"] > 1, f"no scene of the lesson takes two builds: {seen}"
    assert seen["drawn"], "the console never drew the next build"
    assert seen["build_after_preview"] == 0, "drawing the next build stepped the lesson"
    assert seen["projector_kept"] < 1, "the projector's picture changed while drawing"
    assert seen["build_on"] == 1
    assert seen["preview_vs_next"] < seen["preview_vs_now"] / 3, seen
    assert seen["hidden_on_last_build"], "a last build has no next build to picture"
