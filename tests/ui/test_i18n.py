"""Every catalogue is complete and used, and an English window shows no Chinese at all except
token names from the data (and the language menu's own name for Chinese). A third language
is walked in test_third_language.py.
"""

from __future__ import annotations

import ast
import re
import string
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDockWidget,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from app import i18n
from app.i18n import strings
from app.model.decoder_flow import STAGE_KEYS as DECODER_STAGES
from app.model.lesson.scenes import check_texts, load_scenes
from app.model.scoring import SCORERS
from app.model.state import WORLDS
from app.model.timeline import STAGES, TRACKS
from app.startup import build_window, make_application
from app.ui.export import svg_bytes
from app.ui.language import apply_language
from app.ui.panels.match.model import SCORED
from app.ui.panels.playground.readouts import HEADED
from app.ui.presentation import restore_base_style
from app.ui.widgets.stage_text import WORD_JOINER

ZH, EN = strings("zh"), strings("en")

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
KEY_SHAPE = re.compile(r"^[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)+$")
CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
TABLES = {code: strings(code) for code in i18n.languages()}


def _literals() -> tuple[set[str], set[str]]:
    """(every string literal in app/, the first arguments of tr() calls)."""
    literals: set[str] = set()
    tr_keys: set[str] = set()
    for path in APP.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        fragments = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                     for part in node.values}  # pieces of an f-string are not keys
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in fragments):
                literals.add(node.value)
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr"
                  and node.args and isinstance(node.args[0], ast.Constant)):
                tr_keys.add(node.args[0].value)
    return literals, tr_keys


def _is_module_path(text: str) -> bool:
    target = ROOT.joinpath(*text.split("."))
    return target.with_suffix(".py").exists() or target.is_dir()


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_both_languages_have_the_same_keys() -> None:
    assert set(ZH) - set(EN) == set(), "keys only in Chinese"
    assert set(EN) - set(ZH) == set(), "keys only in English"
    assert set(TABLES) == {"zh", "en"}, "the bundled catalogues"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_empty_values(lang: str) -> None:
    empty = [key for key, text in TABLES[lang].items() if not text.strip()]
    assert empty == []


def test_placeholders_match_and_format() -> None:
    for key in ZH:
        zh_fields, en_fields = _fields(ZH[key]), _fields(EN[key])
        assert zh_fields == en_fields, f"{key}: zh {zh_fields} vs en {en_fields}"
        dummy = {name: "x" for name in zh_fields}
        ZH[key].format(**dummy)
        EN[key].format(**dummy)


def _derived_keys() -> set[str]:
    """Keys the code builds from a registry's names (`f"scorer.{name}"`), one per entry."""
    stages = {f"timeline.{s.id}.{part}" for s in STAGES
              for part in ("chip", "name", "solved", "stuck")}
    tracks = {f"timeline.track.{t}{end}" for t in TRACKS for end in ("", "_short")}
    layer = {f"shapes.{kind}.{key}" for key in DECODER_STAGES for kind in ("stage", "note")}
    return (stages | tracks | layer
            | {f"scorer.{name}" for name in SCORERS} | {f"world.{w}" for w in WORLDS}
            | {f"match.col.{c}" for c in ("key", "norm", *SCORED)}
            | {f"match.col.short.{c}" for c in ("key", "norm", *SCORED)}
            | {f"playground.col_{c}" for c in HEADED})


def _scene_keys() -> set[str]:
    """Keys the scenes file names for its texts."""
    return {text.key for scene in load_scenes().scenes for text in scene.texts}


def test_every_key_is_used_as_a_literal_in_app() -> None:
    literals, _ = _literals()
    unused = sorted(set(EN) - literals - _derived_keys() - _scene_keys())
    assert unused == [], f"keys no code uses (write each as a full literal): {unused}"


def test_every_scene_text_has_words_in_each_catalogue() -> None:
    lesson = load_scenes()
    for code in i18n.languages():
        check_texts(lesson, strings(code), i18n.get(code).path, complete=True)


def test_every_derived_key_exists() -> None:
    missing = sorted(_derived_keys() - set(EN))
    assert missing == [], f"registry entries without a name in the tables: {missing}"


def test_every_key_the_code_uses_exists() -> None:
    literals, tr_keys = _literals()
    prefixes = {key.split(".")[0] for key in EN}
    key_like = {
        text for text in literals
        if KEY_SHAPE.match(text) and text.split(".")[0] in prefixes and not _is_module_path(text)
    }
    missing = sorted((tr_keys | key_like | _scene_keys()) - set(EN))
    assert missing == [], f"keys used in app/ but in neither table: {missing}"


def test_english_table_has_no_chinese() -> None:
    chinese = [key for key, text in EN.items() if CJK.search(text)]
    assert chinese == []


# ---- the running window ---------------------------------------------------------------------

def _model_texts(view: QAbstractItemView) -> list[str]:
    model = view.model()
    if model is None:
        return []
    texts = []
    rows, cols = model.rowCount(QModelIndex()), model.columnCount(QModelIndex())
    for orientation, count in ((Qt.Orientation.Horizontal, cols), (Qt.Orientation.Vertical, rows)):
        texts += [str(model.headerData(i, orientation) or "") for i in range(count)]
    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
        texts += [str(model.data(model.index(r, c), role) or "")
                  for r in range(rows) for c in range(cols)]
    return texts


def _widget_texts(widget: QWidget) -> list[str]:
    texts = [widget.toolTip(), widget.statusTip(), widget.whatsThis(), widget.accessibleName()]
    if isinstance(widget, (QLabel, QAbstractButton)):
        texts.append(widget.text())
    elif isinstance(widget, QGroupBox):
        texts.append(widget.title())
    elif isinstance(widget, QDockWidget):
        texts.append(widget.windowTitle())
    elif isinstance(widget, QComboBox):
        texts += [widget.itemText(i) for i in range(widget.count())]
    elif isinstance(widget, QTabBar):
        texts += [widget.tabText(i) for i in range(widget.count())]
        texts += [widget.tabToolTip(i) for i in range(widget.count())]
    elif isinstance(widget, QLineEdit):
        texts += [widget.text(), widget.placeholderText()]
    elif isinstance(widget, (QTextEdit, QPlainTextEdit)):
        texts.append(widget.toPlainText())
    elif isinstance(widget, QMenu):
        texts.append(widget.title())
    if isinstance(widget, QAbstractItemView):
        texts += _model_texts(widget)
    if isinstance(widget, QGraphicsView) and widget.scene() is not None:
        for item in widget.scene().items():
            if isinstance(item, QGraphicsTextItem):
                texts.append(item.toPlainText())
            elif isinstance(item, QGraphicsSimpleTextItem):
                texts.append(item.text())
    return texts


def _svg_texts(widget: QWidget) -> list[str]:
    """Text as painted, custom paintEvent and pyqtgraph tick labels included. A name held
    whole by word joiners is one word however many runs its fonts paint it in ("给", the
    joiner, "了"): no line breaks beside a joiner, so those runs stand side by side."""
    root = ET.fromstring(svg_bytes(widget))
    pieces = ["".join(node.itertext()) for node in root.iter() if node.tag.endswith("text")]
    joined: list[str] = []
    for piece in pieces:
        if joined and (piece.startswith(WORD_JOINER) or joined[-1].endswith(WORD_JOINER)):
            joined[-1] += piece
        else:
            joined.append(piece)
    return joined


def _chinese_outside(texts: list[str], allowed: list[str]) -> list[str]:
    found = []
    for text in texts:
        rest = text.replace(WORD_JOINER, "")  # it only holds a name together
        for token in allowed:
            rest = rest.replace(token, "")
        if CJK.search(rest):
            found.append(text)
    return found


def test_english_window_shows_no_chinese_outside_token_names(qtbot, open_window) -> None:
    window = open_window()
    data = window.document.data
    names = [data.dialogue.query_token, *data.dialogue.key_tokens, *data.teaching.tokens]
    allowed = [*sorted(set(names), key=len, reverse=True), ZH["language.name"]]
    svg_count = 0
    for world in WORLDS:
        window.document.set_world(world)
        window.document.flush()
        QApplication.processEvents()
        texts = [window.windowTitle()]
        for widget in [window, *window.findChildren(QWidget)]:
            texts += _widget_texts(widget)
        for action in window.findChildren(type(window.actions["quit"])):
            texts += [action.text(), action.toolTip(), action.statusTip()]
        texts += _svg_texts(window)
        for dock in window.docks.values():
            dock.raise_()
            QApplication.processEvents()
            panel_texts = _svg_texts(dock.widget())
            svg_count += len(panel_texts)
            texts += panel_texts
        assert not _chinese_outside(texts, allowed), f"{world}: Chinese in the English UI"
    assert svg_count > 0 or not window.panels, "the SVG walk found no painted text at all"
    assert CJK.search("".join(_svg_texts(window))) or not window.panels, (
        "token names should be painted somewhere, else this walk proves nothing"
    )


def test_switching_language_retranslates_every_dock(qtbot) -> None:
    make_application()
    window = build_window("zh")
    qtbot.addWidget(window)
    zh_titles = [dock.windowTitle() for dock in window.docks.values()]
    export_menu = window.findChild(QMenu, "menu_file.export")
    zh_menus = export_menu.title()
    window.actions["lang_en"].trigger()
    en_titles = [dock.windowTitle() for dock in window.docks.values()]
    assert export_menu.title() == EN["classroom.menu.export"]
    assert zh_menus == ZH["classroom.menu.export"]
    assert all(not CJK.search(title) for title in en_titles)
    assert all(CJK.search(title) for title in zh_titles)
    apply_language("zh")


@pytest.fixture(autouse=True)
def _plain_style():
    yield
    restore_base_style()
    apply_language("zh")


def test_a_catalogue_read_again_comes_from_its_parsed_form_until_it_changes(tmp_path) -> None:
    """Every start reads the catalogues: the parsed form kept beside one gives the very
    language the parser gives, and an edited catalogue is parsed again, not read stale."""
    from app.i18n.catalogue import CACHE_FOLDER, read_cached, read_catalogue

    po = tmp_path / "zh.po"
    po.write_bytes((i18n.CATALOGUES / "zh.po").read_bytes())
    assert read_cached(po) == read_catalogue(po)
    assert (tmp_path / CACHE_FOLDER / "zh.json").is_file()
    assert read_cached(po) == read_catalogue(po)  # from the parsed form this time
    text = po.read_text(encoding="utf-8").replace('msgstr "注意力打分实验台"', 'msgstr "改了"')
    po.write_text(text, encoding="utf-8")
    assert read_cached(po).strings["app.title"] == "改了"
