"""Export: the window or the current panel to PNG and SVG, the score matrix to CSV, a picture
to the clipboard; a bad destination or a disk that fills half-way is a message, and the file that
was there stays intact; token names that would run as spreadsheet formulas are neutralised.
"""

from __future__ import annotations

import csv
import io
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import QApplication, QWidget

from app.i18n import tr
from app.model import atomic
from app.model.capture import capture_from_arrays
from app.model.lesson.data import load_lesson_data
from app.model.scores_csv import CSV_ENCODING, scores_csv
from app.state.document import Document
from app.ui.actions import exports as exports_module
from app.ui.export import save_image

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

def _png_size(path: Path) -> tuple[int, int]:
    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a readable PNG"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return image.width(), image.height()


def _focus_into(window, name: str) -> QWidget:
    panel = window.panels[name]
    window.docks[name].raise_()
    QApplication.processEvents()
    target = next((w for w in [panel, *panel.findChildren(QWidget)]
                   if w.focusPolicy() != Qt.FocusPolicy.NoFocus and w.isVisible()), panel)
    target.setFocus(Qt.FocusReason.OtherFocusReason)
    QApplication.processEvents()
    return panel


def test_window_to_png_and_svg(window, tmp_path) -> None:
    png, svg = tmp_path / "w.png", tmp_path / "w.svg"
    assert window.exports.export_image(window, png)
    ratio = window.devicePixelRatioF()
    size = (round(window.width() * ratio), round(window.height() * ratio))
    assert _png_size(png) == size
    assert window.exports.export_image(window, svg)
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert root.get("viewBox") == f"0 0 {window.width()} {window.height()}"
    texts = "".join("".join(n.itertext()) for n in root.iter() if n.tag.endswith("text"))
    assert "File" in texts and "Edit" in texts, "the menu bar is painted as real text"


def test_current_panel_is_the_focused_one(window, tmp_path) -> None:
    if len(window.panels) < 2:
        pytest.skip("needs two panels to tell them apart")
    name = list(window.panels)[1]
    panel = _focus_into(window, name)
    assert window.exports.current_panel() is panel
    path = tmp_path / "panel.png"
    assert window.exports.export_image(window.exports.current_panel(), path)
    ratio = window.devicePixelRatioF()
    assert _png_size(path) == (round(panel.width() * ratio), round(panel.height() * ratio))
    assert panel.width() < window.width()


def test_export_menu_actions_use_the_file_dialog(qtbot, window, tmp_path, monkeypatch) -> None:
    chosen = {"path": str(tmp_path / "picture"), "filter": ""}
    monkeypatch.setattr(exports_module.QFileDialog, "getSaveFileName",
                        lambda *args: (chosen["path"], chosen["filter"]))
    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert _png_size(tmp_path / "picture.png")[0] > 0
    chosen.update(path=str(tmp_path / "vector"), filter=tr("classroom.filter.svg"))
    window.actions["export_panel"].trigger()
    assert ET.parse(tmp_path / "vector.svg").getroot().tag.endswith("svg")
    chosen.update(path=str(tmp_path / "scores"), filter="")
    window.actions["export_scores"].trigger()
    assert (tmp_path / "scores.csv").exists()


def _read_csv(path: Path) -> list[list[str]]:
    with path.open(encoding=CSV_ENCODING, newline="") as stream:
        return list(csv.reader(stream))


def test_scores_csv_has_token_names_and_exact_values(window, tmp_path) -> None:
    document = window.document
    document.set_scorer("scaled_dot")
    path = tmp_path / "scores.csv"
    assert window.exports.export_scores(path)
    assert path.read_bytes()[:3] == b"\xef\xbb\xbf", "Excel needs the BOM to read Chinese"
    rows = _read_csv(path)
    view = document.view
    assert rows[0][1:] == list(view.key_names)
    assert rows[0][0].startswith("scaled_dot")
    assert [row[0] for row in rows[1:]] == list(view.query_names)
    values = np.array([[float(cell) for cell in row[1:]] for row in rows[1:]])
    np.testing.assert_array_equal(values, np.ma.getdata(view.active))


def test_undefined_cosine_cells_are_left_empty(window) -> None:
    document = window.document
    document.set_world("dialogue")
    document.set_scorer("cosine")
    document.set_vector("k", 1, [0.0, 0.0])
    rows = list(csv.reader(scores_csv(document.view).splitlines()))
    assert rows[1][2] == ""
    assert rows[1][1] != "" and rows[1][3] != ""


def test_copy_puts_the_panel_picture_on_the_clipboard(qtbot, window) -> None:
    name = next(n for n, dock in window.docks.items() if not dock.isHidden())  # a panel on show
    panel = _focus_into(window, name)
    qtbot.keyClick(window, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.AltModifier)
    image = QGuiApplication.clipboard().image()
    ratio = window.devicePixelRatioF()
    assert (image.width(), image.height()) == (round(panel.width() * ratio),
                                               round(panel.height() * ratio))
    window.actions["copy_window"].trigger()
    assert QGuiApplication.clipboard().image().width() == round(window.width() * ratio)
    assert "clipboard" in window.statusBar().currentMessage()


def test_bad_destination_is_a_message_and_no_file(window, tmp_path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    path = blocker / "inside.png"
    assert not window.exports.export_image(window, path)
    box = window.exports.message
    assert box is not None and box.isVisible() and "inside.png" in box.informativeText()
    box.close()
    assert not window.exports.export_scores(blocker / "s.csv")
    window.exports.message.close()
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        save_image(window, tmp_path / "w.jpg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


@pytest.mark.parametrize("name", ["scores.csv", "w.png", "w.svg"])
def test_a_failed_export_leaves_the_old_file_intact(window, tmp_path, monkeypatch, name) -> None:
    path = tmp_path / name
    path.write_bytes(b"the export from last lesson")
    real_write = os.write

    def full_disk_half_way(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data[:10]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", lambda _fd: None)
    monkeypatch.setattr(atomic.os, "write", full_disk_half_way)
    monkeypatch.setattr(atomic.os, "fdopen", _fdopen_through_os_write)
    export = (window.exports.export_scores(path) if name.endswith(".csv")
              else window.exports.export_image(window, path))
    assert export is False
    assert "No space left on device" in window.exports.message.informativeText()
    window.exports.message.close()
    assert path.read_bytes() == b"the export from last lesson"
    assert os.listdir(tmp_path) == [name], "no temporary file is left behind"


def _fdopen_through_os_write(fd: int, mode: str = "r", *args: object, **kwargs: object):
    """A stream whose writes go through os.write, so a test can make the disk fill mid-file."""

    class Stream(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def write(self, data: bytes) -> int:
            return os.write(fd, data)

        def fileno(self) -> int:
            return fd

        def close(self) -> None:
            if not self.closed:
                os.close(fd)
            super().close()

    return Stream()


FORMULA_NAMES = ("=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR")


@pytest.fixture
def formula_view(qtbot):
    """An import whose tokenizer pieces look like formulas (the lesson's own names follow the
    editor's rule: no control characters, at most 20 characters)."""
    keys = np.arange(2.0 * len(FORMULA_NAMES)).reshape(len(FORMULA_NAMES), 2)
    capture = capture_from_arrays({"q": keys[:3], "k": keys}, list(FORMULA_NAMES), 0,
                                  "formulas.npz")
    document = Document(load_lesson_data())
    document.import_capture(capture)
    document.finish_import()
    document.flush()
    return document.view


def test_token_names_that_start_a_formula_are_neutralised(formula_view) -> None:
    text = scores_csv(formula_view)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    names = list(formula_view.key_names)
    assert set(FORMULA_NAMES[:5]) <= set(names)
    assert rows[0][1:] == ["'" + name for name in names]
    assert [row[0] for row in rows[1:]] == ["'" + name for name in formula_view.query_names]
    for name in names:
        quoted = name.replace('"', '""')
        assert f"\"'{quoted}\"" in text, "each text cell is quoted"


def test_negative_scores_stay_numbers_in_the_csv(window) -> None:
    view = window.document.view
    text = scores_csv(view)
    matrix = np.ma.getdata(view.active)
    assert (matrix < 0).any(), "the lesson has negative scores to check"
    body = [line.split(",")[1:] for line in text.splitlines()[1:]]
    cells = [cell for row in body for cell in row]
    assert all(not cell.startswith(("\"", "'")) for cell in cells), "numbers are not quoted"
    assert [float(c) for c in cells] == [float(v) for v in matrix.ravel()]
