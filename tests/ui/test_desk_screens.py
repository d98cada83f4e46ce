"""The free dock layout on a laptop's screen, in a window the window manager leaves: after
every road into it (the first start's lesson left with F7, View → Reset layout, another
language, another world, a zoom to 200 % and back) no visible panel is below its readable
size, the window has not grown, the score matrix prints its numbers at a readable size, and
a zoom that put every panel on its own gives the docks back when it is reset. Qt's offscreen
platform takes the screen's size from a file it reads at start (the default screen is
800×600), so each screen runs one child that walks every road in both languages."""

from __future__ import annotations

import pytest
from screens import WINDOW_MANAGER, on_laptop, run_on_screens
from screens import screen as laptop

CHILD = r"""
import json, os, sys, time
from PySide6.QtCore import QEvent
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication, QTabBar
from app.startup import build_window, make_application
from app.ui.fonts import points
from app.ui.language import apply_language
from app.ui.panels.heatmap.cells import DESK_CELL_PT

width, height, home = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

def settle():
    for _ in range(6):
        QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)

def fits_while_idle(window):
    # how often the desk fit runs in a quiet half second: a settled layout is left alone
    runs = []
    def ran():
        runs.append(1)
    timeout = window.arrangement.desk._timer.timeout
    timeout.connect(ran)
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        QApplication.processEvents()
    timeout.disconnect(ran)
    return len(runs)

def look(window, road):
    found = {"road": road, "idle fits": fits_while_idle(window),
             "size": window.size().toTuple(), "short": [], "heatmap": None,
             "tabbed": sorted(window.arrangement.desk.tabbed()),
             "scrolling": [[bar.tabText(i) for i in range(bar.count())]
                           for bar in window.findChildren(QTabBar)
                           if bar.isVisible() and bar.sizeHint().width() > bar.width()]}
    frame = window.rect()
    for name, dock in window.arrangement.docks.items():
        panel = dock.widget()
        if (not dock.isVisible() or dock.isFloating() or not hasattr(panel, "readable_size")
                or not frame.contains(dock.geometry().center())):
            continue  # hidden, or a tab behind another
        if not panel.reads_at(panel.size()):
            found["short"].append([name, panel.size().toTuple(),
                                   [need.toTuple() for need in panel.readable_sizes()]])
        if name == "heatmap":
            grid = panel.cells.grid
            found["heatmap"] = {"labels": bool(grid.labels), "shown": grid.labels_visible,
                                "pt": grid.font.pointSizeF(), "readable_pt": points(DESK_CELL_PT),
                                "names cut": cut_names(panel.canvas.plot)}
    return found

def cut_names(plot):
    # the tick names pyqtgraph leaves out: it draws none wider than its axis room
    cut = []
    for side in ("left", "top"):
        axis = plot.getAxis(side)
        metrics = QFontMetricsF(axis.style["tickFont"])
        title = axis.label.boundingRect().height() if axis.label.isVisible() else 0.0
        offset = axis.style["tickTextOffset"][0 if side == "left" else 1]
        room = (axis.width() if side == "left" else axis.height()) - title - offset
        for ticks in axis._tickLevels or []:
            for _, name in ticks:
                box = metrics.size(0, name)
                if (box.width() if side == "left" else box.height()) > room:
                    cut.append(name)
    return cut

make_application()
out = []
for lang in ("zh", "en"):
    os.environ["ATTENTION_LAB_HOME"] = os.path.join(home, lang)  # a first start, each
    window = build_window(lang)
    window.arrangement.restore()  # as the real start: the lesson opens before the show
    window.show()
    settle()
    if width:  # what the window manager leaves of the screen; else the first start's own
        window.resize(width, height)
        settle()
    roads = [
        ("first start, F7", window.actions["lesson"].trigger),
        ("F7, the 4-D world", lambda: window.document.set_world("teaching")),
        ("reset layout", window.actions["reset_layout"].trigger),
        ("language switched", lambda: apply_language("en" if lang == "zh" else "zh")),
        (None, lambda: apply_language(lang)),
        ("the 2-D world", lambda: window.document.set_world("dialogue")),
        ("back to the 4-D world", lambda: window.document.set_world("teaching")),
        ("the 4-D world at 200 %", lambda: [window.actions["zoom_in"].trigger()
                                            for _ in range(4)]),
        ("the 4-D world, zoom reset", window.actions["zoom_reset"].trigger),
    ]
    for road, take in roads:
        take()
        window.document.flush()
        settle()
        if road is not None:
            out.append(look(window, f"{lang}: {road}"))
    window.dispose()
    settle()
print("RESULT " + json.dumps(out, ensure_ascii=False), flush=True)
"""


@pytest.mark.matrix(keep=1)
@pytest.mark.parametrize("screen", [(1366, 768), (1280, 800), (1920, 1080), (1366, 768, "own"),
                                    (1366, 768, "smaller", 1297, 706)],
                         ids=lambda s: "x".join(map(str, s)))
def test_every_road_leaves_every_visible_panel_readable(tmp_path, screen) -> None:
    if len(screen) > 2:  # the window the first start sizes for itself, or one made smaller
        size = screen[3:] or (0, 0)
        walked = run_on_screens(tmp_path, [laptop("laptop", *screen[:2])], CHILD,
                                *map(str, size), str(tmp_path / "home"), timeout=300)
        window = tuple(walked[0]["size"])
    else:
        window = (screen[0], screen[1] - WINDOW_MANAGER)
        walked = on_laptop(tmp_path, screen, CHILD)
    for seen in walked:
        road = seen["road"]
        assert tuple(seen["size"]) == window, f"{road}: the window grew or shrank"
        assert not seen["short"], f"{road}: below their readable size: {seen['short']}"
        assert not seen["idle fits"], f"{road}: the layout never settles"
        if road.endswith(("F7", "reset layout")) and "smaller" not in screen:
            # a laptop's docks name every tab whole (a window made smaller may scroll them)
            assert not seen["scrolling"], f"{road}: tab titles scroll: {seen['scrolling']}"
        if "4-D" in road or "reset" in road or "language" in road:  # the matrix in front
            heatmap = seen["heatmap"]
            assert heatmap is not None, f"{road}: the score matrix is not in view"
            assert heatmap["labels"] and heatmap["shown"], f"{road}: no numbers: {heatmap}"
            assert heatmap["pt"] >= heatmap["readable_pt"], f"{road}: numbers too small"
            assert not heatmap["names cut"], f"{road}: names left out: {heatmap['names cut']}"
    roads = {seen["road"]: seen["tabbed"] for seen in walked}
    for lang in ("zh", "en"):  # the way back from a zoom that put every panel on its own
        assert roads[f"{lang}: the 4-D world, zoom reset"] == roads[
            f"{lang}: back to the 4-D world"], f"{lang}: the docks did not come back"
