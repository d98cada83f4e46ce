"""The free dock layout in every world a class puts it in, on a laptop's screen less what a
window manager takes: the 2-D and 4-D worlds, the teaching world reshaped (d = 2 … 8, 2 … 32
tokens) and imports of 10, 64 and 256 tokens, reached by a world switch at the desk and by a
first start that opens the world and leaves the lesson with F7, in both languages. Read with
the legibility probe on every visible dock: no text under the desk's least size, none on top
of another, none cut (a page that scrolls may hide what is below its edge; a tab bar whose
titles fit at the least size never scrolls, which cuts a title at its edge), and the score
matrix prints its numbers whenever its cells can hold them at a readable size. Then the way
back: a panel the fit put in a tab returns to its place when the world has room for it
again. One child per screen walks every world (test_desk_screens.py says why)."""

from __future__ import annotations

import pytest
from screens import WINDOW_MANAGER, on_laptop

pytestmark = pytest.mark.slow

CHILD = r"""
import json, os, sys
import numpy as np
from safetensors.numpy import save_file
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QGraphicsView, QTabBar
from app.model.capture import load_capture
from app.startup import build_window, make_application
from app.ui.fonts import SMALL, points, ui_font
from app.ui.layout.tab_titles import least_width
from app.ui.panels.heatmap.cells import DESK_CELL_PT
from legibility import clipped, font_px, overlapping, seen_texts, too_small

width, height, home = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
IMPORTS = (10, 64, 256)
RESHAPED = ((8, 32), (2, 2), (4, 12), (6, 16))
FIRST_STARTS = ("reshaped to d = 8, 32 tokens", "reshaped to d = 2, 2 tokens",
                *(f"an import of {count} tokens" for count in IMPORTS))

def settle():
    for _ in range(6):
        QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)

def capture(count):
    path = os.path.join(home, f"capture-{count}.safetensors")
    rng = np.random.default_rng(count)
    save_file({"q": rng.standard_normal((count, 16)).astype(np.float32),
               "k": rng.standard_normal((count, 16)).astype(np.float32)}, path,
              metadata={"tokens": json.dumps([f"tok{i}" for i in range(count)])})
    return load_capture(path)

def reshaped(document, d, count):
    document.set_world("teaching")
    document.set_dimension(d)
    while len(document.teaching_tokens()) < count:
        document.add_token()
    while len(document.teaching_tokens()) > count:
        document.remove_token(len(document.teaching_tokens()) - 1)

def imported(document, capture):
    document.import_capture(capture)
    document.finish_import()

def worlds(document, captures):
    yield "the 4-D world", lambda: document.set_world("teaching")
    for d, count in RESHAPED:
        yield f"reshaped to d = {d}, {count} tokens", lambda d=d, c=count: reshaped(document, d, c)
    for count in IMPORTS:
        yield f"an import of {count} tokens", lambda c=count: imported(document, captures[c])
    yield "the lesson's 4-D world again", document.reset_to_lesson
    yield "the 2-D world", lambda: document.set_world("dialogue")

def scrolls(widget):
    # inside a page that scrolls down: what is below its edge is a scroll away
    while widget is not None:
        if (isinstance(widget, QAbstractScrollArea) and not isinstance(widget, QGraphicsView)
                and widget.verticalScrollBar().maximum() > 0):
            return True
        widget = widget.parentWidget()
    return False

def cut(seen):
    if seen.visible and (seen.ink.left() < seen.view.left() - 1.5
                         or seen.ink.right() > seen.view.right() + 1.5):
        return True  # a number or a word cut at the side never reads
    owner = seen.owner if hasattr(seen.owner, "parentWidget") else None
    return not scrolls(owner)

def line(seen):
    return f"{seen.px:.1f} px {seen.text[:40]!r} in {seen.where}"

def look(window, road):
    found = {"road": road, "size": window.size().toTuple(), "short": [], "small": [],
             "overlap": [], "cut": [], "heatmap": None, "tabbed": window.arrangement.desk.tabbed()}
    least = round(font_px(ui_font(points(SMALL)), window.logicalDpiY()), 2)
    frame = window.rect()
    for bar in window.findChildren(QTabBar):  # a bar that scrolls cuts a title at its edge
        if (bar.isVisible() and bar.sizeHint().width() > bar.width()
                and least_width(bar, points(SMALL)) <= bar.width()):  # it could have fit
            found["cut"].append(f"tabs {[bar.tabText(i) for i in range(bar.count())]}")
        if bar.isVisible() and font_px(bar.font(), window.logicalDpiY()) < least - 0.01:
            found["small"].append(f"tabs at {bar.font().pointSizeF()} pt")
    for name, dock in window.arrangement.docks.items():
        panel = dock.widget()
        if (not dock.isVisible() or dock.isFloating() or not hasattr(panel, "readable_size")
                or not frame.contains(dock.geometry().center())):
            continue  # hidden, or a tab behind another
        if not panel.reads_at(panel.size()):
            found["short"].append([name, panel.size().toTuple(),
                                   [need.toTuple() for need in panel.readable_sizes()]])
        seen = seen_texts(dock)
        found["small"] += [line(s) for s in too_small(seen, least)]
        found["overlap"] += [f"{line(a)} / {line(b)}" for a, b in overlapping(seen)]
        found["cut"] += [line(s) for s in clipped(seen) if cut(s)]
        if name == "heatmap":
            cells = panel.cells
            box = cells.plot.vb
            room = cells.readable_cells(points(DESK_CELL_PT))
            found["heatmap"] = {"labels": bool(cells.grid.labels),
                                "shown": cells.grid.labels_visible,
                                "pt": cells.grid.font.pointSizeF(),
                                "readable_pt": points(DESK_CELL_PT),
                                "cells": list(cells.grid.values.shape),
                                "holds": room.width() <= box.width() + 1
                                         and room.height() <= box.height() + 1}
    return found

def opened(lang, label):
    os.environ["ATTENTION_LAB_HOME"] = os.path.join(home, lang, label)  # a first start
    window = build_window(lang)
    window.arrangement.restore()  # as the real start: the lesson opens before the show
    window.show()
    settle()
    window.resize(width, height)  # what the window manager leaves of the screen
    settle()
    return window

def step(window, take):
    take()
    window.document.flush()
    settle()

make_application()
os.makedirs(home, exist_ok=True)
captures = {count: capture(count) for count in IMPORTS}
out = []
for lang in ("zh", "en"):
    window = opened(lang, "switch")
    step(window, window.actions["lesson"].trigger)
    out.append(look(window, f"{lang}: first start, F7"))
    for road, take in worlds(window.document, captures):
        step(window, take)
        out.append(look(window, f"{lang}: {road}"))
    window.dispose()
    settle()
    for road in FIRST_STARTS:
        window = opened(lang, road)
        for world, take in worlds(window.document, captures):
            if world == road:
                step(window, take)
        step(window, window.actions["lesson"].trigger)
        out.append(look(window, f"{lang}: first start in {road}, F7"))
        window.dispose()
        settle()
print("RESULT " + json.dumps(out, ensure_ascii=False), flush=True)
"""


@pytest.mark.parametrize("size", [(1366, 768), (1280, 800), (1920, 1080)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_world_leaves_every_visible_panel_readable(tmp_path, size) -> None:
    window = (size[0], size[1] - WINDOW_MANAGER)
    seen = on_laptop(tmp_path, size, CHILD)
    assert len(seen) == 2 * 16, [s["road"] for s in seen]
    for found in seen:
        road = found["road"]
        assert tuple(found["size"]) == window, f"{road}: the window grew or shrank"
        for kind in ("short", "small", "overlap", "cut"):
            assert not found[kind], f"{road}: {kind}: {found[kind][:8]}"
        heatmap = found["heatmap"]
        if heatmap is not None and heatmap["cells"][0]:  # a grid of cells, not a picture
            if heatmap["labels"] and heatmap["shown"]:
                assert heatmap["pt"] >= heatmap["readable_pt"], f"{road}: numbers too small"
            else:
                assert not heatmap["holds"], f"{road}: no numbers, though the cells hold them"
    for lang in ("zh", "en"):
        roads = {found["road"]: found["tabbed"] for found in seen}
        assert roads[f"{lang}: the 2-D world"] == roads[f"{lang}: first start, F7"], (
            f"{lang}: back in the 2-D world, the docks are not where they were")
