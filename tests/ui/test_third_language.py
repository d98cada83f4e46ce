"""The README's recipe for adding a language, done by a test: en.po copied to a new code and
every msgstr translated (here: the English text marked ⟦…⟧), the file registered with
`i18n.add_catalogue`. Everything the app shows then comes from that one catalogue: the
desk's docks and menus, every scene on the stage before and after Reveal, the teacher's
notes and the poll's page on a phone. Outside the marks only the lesson's data (token names
and their glosses, the timeline's citations as published), notation, numbers and symbols may
remain."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import polib
import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QMenu

from app import i18n
from app.model.state import WORLDS
from app.model.timeline import STAGES
from app.poll.page import PAGE_KEYS
from app.startup import build_window, make_application
from app.ui.language import apply_language
from app.ui.presentation import restore_base_style
from tests.ui.legibility import lesson_tokens, seen_texts
from tests.ui.staging import project

CODE = "xx"
OPEN, CLOSE = "⟦", "⟧"
CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
WORD = re.compile(r"[A-Za-z]{2,}")
NOT_WORDS = frozenset({
    "qk", "QK", "cos", "softmax", "Ctrl", "Shift", "Alt", "Esc", "PgUp", "PgDown", "Home",
    "End", "Space", "Del", "KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "px", "ms", "tanh",
    "Qh", "Kh", "KhT", "dh",
})
"""Letters that are notation, units or key names in every language, not English words."""

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def _translate(folder) -> str:
    """The recipe: copy en.po to <code>.po, set its header, translate every msgstr."""
    po = polib.pofile(str(i18n.CATALOGUES / "en.po"), encoding="utf-8")
    po.metadata.update({"Language": CODE, "X-Menu-Order": "3", "X-Shortcut": ""})
    for entry in po:
        entry.msgstr = f"{OPEN}{entry.msgstr}{CLOSE}"
    po.save(str(folder / f"{CODE}.po"))
    i18n.add_catalogue(folder / f"{CODE}.po")
    return CODE


@pytest.fixture
def pseudo(tmp_path) -> Iterator[str]:
    yield _translate(tmp_path)
    restore_base_style()
    apply_language("zh")
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    i18n.forget(CODE)


def _unmarked(text: str) -> str:
    """What of `text` lies outside every ⟦…⟧. An elided text keeps its open mark to the end;
    a painted piece of a marked text may begin inside one."""
    depth = 1 if CLOSE in text and text.index(CLOSE) < text.find(OPEN) % (len(text) + 1) else 0
    kept = []
    for char in text:
        if char == OPEN:
            depth += 1
        elif char == CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


def _foreign(texts: dict[str, str], data: list[str]) -> list[str]:
    """Each text with Chinese or an English word outside the marks, and where it was seen."""
    found = []
    for text, where in texts.items():
        rest = _unmarked(text)
        for name in data:
            rest = rest.replace(name, " ")
        words = [word for word in WORD.findall(rest) if word not in NOT_WORDS]
        if CJK.search(rest) or words:
            found.append(f"{where}: {text!r}")
    return found


def _data_names(window) -> list[str]:
    data = window.document.data
    glosses = {data.dialogue.query_gloss, *data.dialogue.key_glosses, *data.teaching.glosses}
    citations = {stage.source for stage in STAGES}
    return sorted({*lesson_tokens(data), *glosses, *citations} - {""}, key=len, reverse=True)


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _look(texts: dict[str, str], where: str, top) -> None:
    for seen in seen_texts(top):
        texts.setdefault(seen.text, where)


def _get(address: str, path: str) -> bytes:
    parts = urlsplit(address)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().read()
    finally:
        connection.close()


def test_a_third_language_is_one_catalogue_and_the_app_shows_nothing_else(qtbot,
                                                                           pseudo) -> None:
    make_application()
    window = build_window(pseudo)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    texts: dict[str, str] = {}
    run, host = window.lesson, window.arrangement.staging
    polls = window.parts.polls
    polls.start_at("127.0.0.1", 0)
    try:
        page = _get(polls.poll.address, "/").decode("utf-8")
        texts[re.sub(r"<[^>]*>", " ", page)] = "poll page /"
        for index in range(run.count):
            run.go(index)
            window.document.flush()
            _settle()
            asked = json.loads(_get(polls.poll.address, "/question"))
            assert set(asked["strings"]) == {key.partition(".")[2] for key in PAGE_KEYS}
            for name, words in asked["strings"].items():
                texts[words] = f"poll page word {name}"
            for words in (asked.get("prompt") or "", *(asked.get("choices") or ())):
                texts[words] = f"poll page, scene {index + 1}"
    finally:
        polls.poll.stop()

    for world in WORLDS:  # the desk, every dock of every world, and the menus
        window.document.set_world(world)
        window.document.flush()
        for name, dock in window.docks.items():
            dock.show()
            dock.raise_()
            _settle()
            texts.setdefault(dock.windowTitle(), f"dock title {name}")
            _look(texts, f"desk {world}, dock {name}", window)
    own_names = re.compile(r"^(lang_.*|poll_on_.*)$")  # a language's or a network's own name
    named = {action for key, action in window.actions.items() if own_names.match(key)}
    for menu in window.findChildren(QMenu):
        texts.setdefault(menu.title(), "menu")
        for action in menu.actions():
            if not action.isSeparator() and action not in named:
                texts.setdefault(action.text(), f"menu {menu.title()}")

    window.arrangement.open_scene(0, set_up=True)  # the stage: every scene, build, Reveal
    project(window)
    for index in range(run.count):
        window.arrangement.open_scene(index, set_up=True)
        window.document.flush()
        assert window.arrangement.on_stage and host.stage.isVisible()
        for revealed in (False, True):
            if revealed and run.scene.hides_answer:
                run.reveal()
                window.document.flush()
            for _build in range(host.slides.builds):
                _settle()
                _look(texts, f"stage scene {index + 1} revealed={revealed}", host.stage)
                window.arrangement.show_notes(True)
                _settle()
                _look(texts, f"notes scene {index + 1} revealed={revealed}", window)
                window.arrangement.show_notes(False)
                if host.slides.build + 1 < host.slides.builds:
                    host.slides.next()
        host.console.show()
        host.console.show_scene()
        _settle()
        _look(texts, f"console scene {index + 1}", host.console)
        host.console.hide()
    window.presentation.set_presenting(False)

    assert len(texts) > 300, "the walk saw too little to prove anything"
    foreign = _foreign(texts, _data_names(window))
    assert foreign == [], "texts from outside the catalogue:\n" + "\n".join(foreign)
