"""Table headers, the formulas in them and the words they name never split between their
characters: Qt's line breaker, given each header's font and its section's width, breaks a
header only at a space, and no Chinese word ("负/距离"), hyphenated word ("Add-/itive") or
scoring formula ("vᵀtanh(/W₁q+W₂k)") is set over two lines, in Chinese or in English."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextDocument, QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication, QStyle

from app.i18n import tr
from app.model.measure import Comparison, Measurement, Repeated
from app.model.scoring import SCORERS
from app.ui.language import apply_language
from app.ui.panels.match.panel import MatchTablePanel
from app.ui.panels.playground.panel import PlaygroundPanel
from app.ui.widgets.stage_text import NBSP, WORD_JOINER

LANGUAGES = ("zh", "en")
FORMULAS = sorted({*(scorer.formula for scorer in SCORERS.values()), "q·k", "|k|", "cos θ"},
                  key=len, reverse=True)
"""What a header may name that must stay on one line: every scorer's formula, the symbols."""
CJK_WORD = re.compile(r"[\u3400-\u9fff]+")
"""A run of Chinese characters in a header: one term ("负距离", "内存峰值")."""


def settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def laid_out(text: str, font: QFont, width: float) -> list[str]:
    """The lines Qt's line breaker makes of `text` at `width`: each of the author's lines
    ("\\n") wrapped at word boundaries, as a wrapping header or label would set it."""
    lines = []
    for part in text.split("\n"):
        layout = QTextLayout(part, font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(option)
        layout.beginLayout()
        while (line := layout.createLine()).isValid():
            line.setLineWidth(max(width, 1.0))
            lines.append(part[line.textStart():line.textStart() + line.textLength()])
        layout.endLayout()
    return lines


def split_words(lines: list[str], wrapped: list[bool]) -> list[str]:
    """What breaks inside a word across these lines ([] when none does)."""
    plain = [line.replace(WORD_JOINER, "").replace(NBSP, " ") for line in lines]
    whole = "".join(plain)
    found = []
    for index in range(1, len(plain)):
        before, after = plain[index - 1], plain[index]
        if wrapped[index] and before and not before[-1].isspace():
            found.append(f"wrapped inside a word: {before!r} / {after!r}")
        if before.endswith("-") and after[:1].isalpha():
            found.append(f"a hyphenated word split: {before!r} / {after!r}")
    units = [*CJK_WORD.findall(whole), *(f for f in FORMULAS if f in whole)]
    found += [f"{unit!r} split over {plain}" for unit in units
              if not any(unit in line for line in plain)]
    return found


def header_problems(text: str, font: QFont, width: float) -> list[str]:
    """Where `text`, set in `font` at `width`, would break at a place no reader expects."""
    lines, wrapped = [], []
    for part in text.split("\n"):
        shown = laid_out(part, font, width)
        lines += shown
        wrapped += [False] + [True] * (len(shown) - 1)
    return split_words(lines, wrapped)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", [380, 900])
def test_the_match_tables_headers_keep_every_word_whole(open_panel, language, width):
    """Narrow, the table takes its compact two-line headers; wide, the full ones."""
    panel = open_panel(MatchTablePanel, (width, 600))
    panel.document.set_options(show_additive=True)
    panel.document.flush()
    apply_language(language)
    settle()
    panel.resize(width, 600)
    settle()
    header = panel.table.horizontalHeader()
    model = header.model()
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    problems, seen = [], 0
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        text = str(model.headerData(section, Qt.Orientation.Horizontal))
        font = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.FontRole)
        room = header.sectionSize(section) - 2 * margin
        problems += [f"{text!r}: {p}" for p in header_problems(text, font, room)]
        seen += 1
    assert seen >= 7  # key, |k|, three scores and their ranks, and the additive pair
    assert not problems, problems


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scorer", ["dot", "scaled_dot", "cosine", "neg_euclidean", "additive"])
def test_the_playgrounds_headers_and_formulas_stay_whole(open_2d_panel, language, scorer):
    panel = open_2d_panel(PlaygroundPanel, (520, 640))
    apply_language(language)
    panel.document.set_scorer(scorer)
    panel.document.flush()
    settle()
    readouts = panel.readouts
    problems = []
    for name, label in readouts.headers.items():
        if not label.isVisibleTo(panel) or not label.text().strip():
            continue
        room = label.contentsRect().width() - 2 * max(label.indent(), 0)
        problems += [f"{name} {label.text()!r}: {p}"
                     for p in header_problems(label.text(), label.font(), room)]
    active = readouts.headers["active"]
    assert SCORERS[scorer].formula in active.text().replace(WORD_JOINER, "").replace("\n", "")
    assert not problems, problems


def measured() -> Repeated:
    """A made-up measurement: the table's words are what is checked, not the numbers."""
    run = Comparison(T=512, d_a=64, additive=Measurement(0.25, 64 << 20),
                     dot=Measurement(0.002, 1 << 20), naive_bytes=64 << 20)
    return Repeated(runs=(run, run, run))


def table_lines(html: str, font: QFont, width: float) -> list[tuple[str, list[str]]]:
    """Each block of a rich-text table as Qt lays it out at `width`: its text and lines."""
    document = QTextDocument()
    document.setDefaultFont(font)
    document.setHtml(html)
    document.setTextWidth(width)
    document.documentLayout().documentSize()  # lays it all out
    blocks, block = [], document.begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        lines = [text[layout.lineAt(i).textStart():
                      layout.lineAt(i).textStart() + layout.lineAt(i).textLength()]
                 for i in range(layout.lineCount())]
        blocks.append((text, lines))
        block = block.next()
    return blocks


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", [150, 240, 400])
def test_the_measure_tables_headers_and_names_stay_whole(box, language, width):
    """The guide's measure table, in a guide column as narrow as at 250 %: its headers and
    its scorers' names keep each word on one line (a table wider than its column scrolls
    with the guide; a header cut into characters reads as nothing)."""
    apply_language(language)
    box.retranslate()
    box.result = measured()
    box._show_result()
    status = box.status
    words = {tr(f"guide.measure.{key}")
             for key in ("col_scorer", "col_time", "col_memory", "additive", "dot", "ratio")}
    problems, seen = [], set()
    for text, lines in table_lines(status.text(), status.font(), width):
        plain = text.replace(WORD_JOINER, "").replace(NBSP, " ").strip()
        if plain not in words:
            continue
        seen.add(plain)
        found = split_words(lines, [False] + [True] * (len(lines) - 1))
        problems += [f"{plain!r}: {p}" for p in found]
    assert seen == words
    assert not problems, problems
