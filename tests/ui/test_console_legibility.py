"""The presenter console on the teacher's laptop, with the stage on the projector: in every
scene, before and after its reveal, in Chinese and English, no text on top of another and no
number or token broken inside; the projector's picture and the next click's words always
there. Qt's offscreen platform takes the two screens from a file, so the window runs in a
child."""

from __future__ import annotations

from pathlib import Path

import pytest
from screens import run_on_screens, screen

pytestmark = pytest.mark.slow

SCREENS = [screen("laptop", 1366, 768), screen("projector", 1024, 768, x=1366)]
CHILD = r"""
import json, sys
from legibility import broken_inside, lesson_tokens, overlapping, report, seen_texts
from presenting import present, settle, wait

window = present(sys.argv[1])
console, run = window.arrangement.staging.console, window.lesson
tokens = lesson_tokens(window.document.data)
failures, pictures = [], 0

def check(where):
    global pictures
    console.picture.clear()
    wait(lambda: not console.picture.pixmap().isNull(), 10)  # a bound, not a timing
    pictures += not console.picture.pixmap().isNull()
    seen = [s for s in seen_texts(console) if s.visible]
    if not console.coming.text():
        failures.append(f"{where}: nothing says what the next click brings")
    for kind, items in (("on top of each other", overlapping(seen)),
                        ("broken inside", broken_inside(console, tokens))):
        if items:
            failures.append(report(items, f"{where}: {kind}"))

for index in range(run.count):
    run.go(index)
    window.document.flush()
    settle()
    check(f"scene {index + 1}")
    if run.scene.hides_answer:
        run.reveal()
        window.document.flush()
        settle()
        check(f"scene {index + 1} revealed")
print("RESULT " + json.dumps({"failures": failures, "pictures": pictures,
                              "checked": run.count}, ensure_ascii=False), flush=True)
window.presentation.set_presenting(False)
window.dispose()
"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_console_reads_in_every_scene(tmp_path: Path, lang: str) -> None:
    seen = run_on_screens(tmp_path, SCREENS, CHILD, lang, timeout=300)
    assert not seen["failures"], "\n\n".join(seen["failures"][:10])
    assert seen["pictures"] >= seen["checked"], "a picture of the projector every time"
