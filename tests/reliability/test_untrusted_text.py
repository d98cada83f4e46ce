"""Text from data files and scenarios is shown as text, never read as markup.

Qt reads a QLabel (in its default AutoText mode) or a tooltip as rich text when it looks like
markup, so a token named `<img src=x>` would load a local file in the match panel's caption.
Every label and tooltip in the window is checked with such names in both worlds and every panel
in front: none may carry the raw tag where Qt would render it, and the names show literally.
"""

from __future__ import annotations

import html

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from app.ui.language import apply_language
from app.ui.main_window import MainWindow
from app.ui.presentation import restore_base_style

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

MARKUP = ("<img src=x", "<i>g", "<u>g")


def _rich(text: str, text_format: Qt.TextFormat) -> bool:
    return text_format == Qt.TextFormat.RichText or (
        text_format == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text))


def _shown(label: QLabel) -> str:
    """What the label puts on screen, as plain text."""
    if not _rich(label.text(), label.textFormat()):
        return label.text()
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


@pytest.fixture
def hostile_window(every_dock_window, edit_data, data_dir):
    def teaching(doc: dict) -> None:
        for i, token in enumerate(doc["tokens"]):
            token["token"], token["gloss"] = f"<img src=x{i}>", f"<i>g{i}"

    def dialogue(doc: dict) -> None:
        doc["query"]["token"], doc["query"]["gloss"] = "<img src=q>", "<u>gq"
        for i, key in enumerate(doc["keys"]):
            key["token"], key["gloss"] = f"<img src=k{i}>", f"<u>g{i}"

    edit_data("teaching-world.json", teaching)
    edit_data("dialogue-2d.json", dialogue)
    apply_language("en")
    yield every_dock_window(data_dir)
    restore_base_style()
    apply_language("zh")


def _markup_in_rich_text(window: MainWindow) -> list[str]:
    found = []
    for widget in window.findChildren(QWidget):
        places = [("tooltip", widget.toolTip(), Qt.TextFormat.AutoText)]
        if isinstance(widget, QLabel):
            places.append(("text", widget.text(), widget.textFormat()))
        for kind, text, text_format in places:
            if text and _rich(text, text_format) and any(m in text for m in MARKUP):
                found.append(f"{widget.objectName() or type(widget).__name__} {kind}: {text!r}")
    return found


def test_token_names_are_never_read_as_markup_anywhere(hostile_window) -> None:
    document = hostile_window.document
    found: set[str] = set()
    for world in ("teaching", "dialogue"):
        document.set_world(world)
        document.flush()
        for key in range(len(document.view.key_names)):
            document.select(key=key)
            document.flush()
            for dock in hostile_window.docks.values():
                dock.raise_()
                QApplication.processEvents()
                found.update(_markup_in_rich_text(hostile_window))
    assert not found, "\n".join(sorted(found))


def test_the_match_caption_shows_the_name_literally(hostile_window) -> None:
    document = hostile_window.document
    document.set_world("teaching")
    document.flush()
    panel = hostile_window.panels["match"]
    hostile_window.docks["match"].raise_()
    QApplication.processEvents()
    query = document.view.query_names[document.state.query]
    assert query.startswith("<img src=")
    assert query in _shown(panel.caption)
    assert not _rich(panel.caption.text(), panel.caption.textFormat())


def test_a_question_with_markup_is_escaped_in_the_guide(qtbot, hostile_window) -> None:
    ask = hostile_window.panels["guide"].ask
    qtbot.keyClicks(ask.edit, "<img src=x> why?")
    with qtbot.waitSignal(ask.recorded, timeout=2000):
        qtbot.keyClick(ask.edit, Qt.Key.Key_Return)
    assert html.escape("<img src=x>") in ask.listing.text()
    assert "<img src=x> why?" in _shown(ask.listing)
