"""Chinese prose on screen uses full-width punctuation (，：；？！（）) as a Chinese class reads
it, while code, formulas, file filters and menu accelerators keep their ASCII forms.

Scanned: every Chinese string table entry (raw, and with every field filled by Chinese text,
since a token name or a number may stand there), the timeline's texts filled with the lesson's
own values, the model's on-screen text (stage sources, figures printed as token lists) and every
string of the data files.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.i18n import set_language, strings
from app.model.lesson.data import load_lesson_data
from app.model.lesson.figures import lesson_figures
from app.model.timeline import STAGES
from app.ui.format import format_figure, format_in_words
from app.ui.language import apply_language
from app.ui.lesson_values import lesson_values
from app.ui.panels.heatmap.panel import HeatmapPanel
from app.ui.panels.match.model import COLUMNS
from app.ui.panels.match.panel import MatchTablePanel
from app.ui.panels.timeline.panel import TimelinePanel

ZH, EN = strings("zh"), strings("en")

ROOT = Path(__file__).resolve().parents[2]
CJK_CLASS = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
CJK = re.compile(f"[{CJK_CLASS}]")
IDEOGRAPH = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
HALF_WIDTH = re.compile(r"[,:;?!]")
PAIR = re.compile(r"\(([^()]*)\)")
TAG = re.compile(r"<[^<>]+>")
ACCELERATOR = re.compile(r"\(&[A-Za-z]\)")  # 文件(&F): Qt's mnemonic, stays as it is
FILE_FILTER = re.compile(r"\(\*[^()]*\)")  # 场景 (*.attnlab.json): Qt parses it
SAMPLE_CHINESE = "给了"


def _neighbour(text: str, index: int, step: int) -> str:
    """The nearest non-space character from `index` in direction `step` ("" at an end)."""
    index += step
    while 0 <= index < len(text) and text[index] == " ":
        index += step
    return text[index] if 0 <= index < len(text) else ""


def half_width_in_prose(text: str, brackets: bool = True) -> list[str]:
    """Each half-width mark that touches Chinese, with a little context to find it by.

    With `brackets`, also a pair of ( ) that holds Chinese or touches a Chinese character (a
    formula set off by spaces, like "每一对 (q, k) 都要", stays ASCII)."""
    text = FILE_FILTER.sub("", ACCELERATOR.sub("", TAG.sub("", text)))
    found = []
    for match in PAIR.finditer(text if brackets else ""):
        before = text[match.start() - 1] if match.start() else ""
        after = text[match.end()] if match.end() < len(text) else ""
        if CJK.search(match.group(1)) or IDEOGRAPH.match(before or "a") or IDEOGRAPH.match(
                after or "a"):
            found.append(text[max(match.start() - 6, 0):match.end() + 6])
    chinese = bool(CJK.search(text))
    for match in HALF_WIDTH.finditer(text):
        at = match.start()
        touches = any(CJK.match(c) for c in (_neighbour(text, at, -1), _neighbour(text, at, 1))
                      if c)
        # in Chinese text, "0,θ" or "{T},d" is prose too: code writes ", " and 1,048,576
        squeezed = chinese and at + 1 < len(text) and not re.match(r"[\s\d]", text[at + 1])
        if touches or squeezed:
            found.append(text[max(at - 8, 0):at + 8])
    return found


def _filled(text: str) -> str:
    fields = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    return text.format(**dict.fromkeys(fields, SAMPLE_CHINESE))


def _data_strings() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}[{i}]")
        elif isinstance(node, str):
            found.append((where, node))

    for path in sorted((ROOT / "data").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")), path.name)
    return found


def test_the_scan_finds_half_width_marks_in_chinese_and_passes_code() -> None:
    assert half_width_in_prose("匹不匹配?为什么")
    assert half_width_in_prose("拖动向量,观察")
    assert half_width_in_prose("加性打分(Bahdanau)")
    assert half_width_in_prose("(未来位置的键)")
    assert half_width_in_prose("<b>数学:</b>q·k")
    assert not half_width_in_prose("文件(&F)")
    assert not half_width_in_prose("注意力实验台场景 (*.attnlab.json)")
    assert not half_width_in_prose("每一对 (q, k) 都要单独过 tanh")
    assert not half_width_in_prose("softmax(q·k / √d)，加因果掩码")
    assert not half_width_in_prose("打分：score = vᵀ·tanh(W₁q + W₂k)。")
    assert half_width_in_prose("为 0,θ 没有定义")
    assert not half_width_in_prose("[2, 3]·[2, 2] = 10：对齐")
    assert not half_width_in_prose("上下文 1,048,576 个 token")


@pytest.mark.parametrize("key", sorted(ZH))
def test_chinese_table_entry_uses_full_width_punctuation(key: str) -> None:
    text = ZH[key]
    assert half_width_in_prose(text) == [], key
    filled = half_width_in_prose(_filled(text), brackets=False)  # a name may stand in a field
    assert filled == [], f"{key}, a field filled with Chinese"


def test_timeline_and_guide_texts_filled_with_the_lessons_values() -> None:
    set_language("zh")
    values = lesson_values(lesson_figures(), load_lesson_data())
    bad = {}
    for key, text in ZH.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        if fields and fields <= set(values) and (
                found := half_width_in_prose(text.format(**values))):
            bad[key] = found
    assert bad == {}


def test_model_and_data_text_uses_full_width_punctuation() -> None:
    texts = [(f"stage {s.id}", s.source) for s in STAGES] + _data_strings()
    for key, figure in lesson_figures().items():
        if figure.comparison in ("set", "order"):
            texts.append((key, ZH["timeline.sep"].join(map(str, figure.value))))
    bad = {where: found for where, text in texts if (found := half_width_in_prose(text))}
    assert bad == {}


def test_stage_sources_are_citations_not_english_prose() -> None:
    """A source is shown untranslated in both languages, so it may only name works: each part
    carries a year or a version number ("autoregressive decoding" would be English prose)."""
    prose = [s.source for s in STAGES if s.source
             and not all(re.search(r"\d", part) for part in re.split(r"[;→]", s.source))]
    assert prose == []


def test_chinese_uses_the_standard_terms() -> None:
    """The course's standard Chinese names, not the English ones, in Chinese prose."""
    text = "\n".join(ZH.values())
    for english, chinese in (("attention sink", "注意力汇聚"), ("KV cache", "KV 缓存")):
        assert english not in text and chinese in text, english
    for term in ("多查询注意力", "分组查询注意力", "多头潜在注意力", "旋转位置编码"):
        assert term in text, term
    assert EN.keys() == ZH.keys()


# ---- how numbers and tokens read in each language --------------------------------------------

def test_chinese_reads_large_numbers_in_yi_and_english_in_powers_of_ten() -> None:
    figures = lesson_figures()
    try:
        set_language("zh")
        assert format_figure(figures["exp_20"]) == "4.9 亿"
        assert format_figure(figures["anchor_pairs_per_head"]).endswith(" 亿")
        assert format_in_words(9.96e8) == "10 亿"  # rounding up keeps two digits
        assert format_in_words(12_345) == "1.2 万" and format_in_words(999) is None
        set_language("en")
        assert format_figure(figures["exp_20"]) == "4.9 × 10⁸"
    finally:
        set_language("zh")


def test_the_timeline_card_shows_yi_in_chinese(qtbot, open_panel) -> None:
    panel = open_panel(TimelinePanel, (1100, 700))
    apply_language("zh")
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        qtbot.mouseClick(panel.strip.chips["self_attention"], Qt.MouseButton.LeftButton)
    assert "4.9 亿" in panel.card.text() and "10⁸" not in panel.card.text()


def test_match_table_and_heatmap_show_glosses_in_english_only(qtbot, open_panel) -> None:
    table = open_panel(MatchTablePanel, (900, 500))
    heatmap = open_panel(HeatmapPanel, (700, 600))
    data = table.document.data
    gloss = data.teaching.glosses[data.teaching.tokens.index("给了")]

    def shown() -> tuple[list[str], list[str]]:
        model = table.model
        keys = [str(model.data(model.index(r, COLUMNS.index("key")))) for r in
                range(model.rowCount())]
        ticks = list(heatmap.cells.names["left"])
        return keys, ticks

    apply_language("en")
    keys, ticks = shown()
    assert f"给了 ({gloss})" in keys and f"给了 ({gloss})" in ticks
    apply_language("zh")
    keys, ticks = shown()
    assert "给了" in keys and "给了" in ticks
    assert not any(gloss in text for text in keys + ticks)
