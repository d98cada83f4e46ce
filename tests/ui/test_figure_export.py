"""A panel's export is its figure: the heatmap as PNG and SVG holds the matrix, its names, its
colour bar and title, none of the buttons and hints around it; the SVG is shapes and text and
librsvg draws it as the PNG shows it; the numbers read in a PNG exported from a small window."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.i18n import tr
from app.startup import _screenshot
from app.ui.figure import PNG_SCALE
from tests.ui.exported import near_black, needs_rsvg, pixels, rsvg_difference, svg_tags, svg_texts

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def heatmap(window):
    window.docks["heatmap"].raise_()
    QApplication.processEvents()
    return window.panels["heatmap"]


def test_heatmap_svg_is_text_and_rectangles_without_controls(window, heatmap, tmp_path) -> None:
    path = tmp_path / "heatmap.svg"
    assert window.exports.export_image(heatmap, path)
    tags = svg_tags(path)
    assert "image" not in tags, "nothing drawn is a raster image"
    view = window.document.view
    rows, cols = np.ma.getdata(view.active).shape
    assert tags.count("rect") >= rows * cols, "each cell is a rectangle"
    texts = svg_texts(path)
    for name in (*view.key_names, *view.query_names):
        assert any(text.startswith(name) for text in texts), f"{name!r} is text in the SVG"
    printed = [heatmap.cell_text(i, j) for i in range(rows) for j in range(cols)]
    assert set(printed) <= set(texts), "every cell's number is text"
    controls = [heatmap.scores_button.text(), heatmap.weights_button.text(),
                heatmap.causal_box.text(), heatmap.scale_box.text(), heatmap.info.text(),
                heatmap.readout.text()]
    assert all(control for control in controls), "each control has a text to look for"
    assert not set(controls) & set(texts), "no button, checkbox or hint in the figure"
    assert tr("heatmap.key_axis") in texts and tr("heatmap.query_axis") in texts


def test_heatmap_png_is_the_figure_at_twice_its_size(window, heatmap, tmp_path) -> None:
    path = tmp_path / "heatmap.png"
    assert window.exports.export_image(heatmap, path)
    image = QImage(str(path))
    size = heatmap.figure().size()
    assert (image.width(), image.height()) == (size.width() * PNG_SCALE,
                                               size.height() * PNG_SCALE)


@needs_rsvg
def test_librsvg_draws_the_svg_as_the_png_shows_it(window, heatmap, tmp_path) -> None:
    png, svg = tmp_path / "h.png", tmp_path / "h.svg"
    assert window.exports.export_image(heatmap, png)
    assert window.exports.export_image(heatmap, svg)
    black, difference = rsvg_difference(png, svg, tmp_path / "rsvg.png")
    assert black < 0.02, f"the same share of near-black pixels: {black:.3f} apart"
    assert difference < 10.0, f"the colours match, cell by cell: {difference:.1f} of 255"


@pytest.mark.skipif(shutil.which("tesseract") is None,
                    reason="tesseract (Debian's tesseract-ocr) is not installed")
def test_a_small_window_exports_numbers_that_read_and_no_controls(window, heatmap,
                                                                  tmp_path) -> None:
    path = tmp_path / "small.png"
    args = type("Args", (), {"size": (800, 500), "panel": "heatmap", "screenshot": path})()
    assert _screenshot(window, args) == 0
    read = subprocess.run(["tesseract", str(path), "-", "-l", "eng", "--psm", "6"],
                          capture_output=True, text=True, timeout=120, check=True).stdout
    view = window.document.view
    rows, cols = np.ma.getdata(view.active).shape
    numbers = [re.sub(r"[^0-9.]", "", heatmap.cell_text(i, j))
               for i in range(rows) for j in range(cols)]
    found = set(re.findall(r"\d+\.\d+", read))
    # printed on coloured cells, some numbers escape the OCR; a crushed strip shows none
    assert sum(number in found for number in numbers) >= 0.4 * len(numbers), read
    words = {word for control in (heatmap.scores_button, heatmap.weights_button,
                                  heatmap.causal_box, heatmap.scale_box)
             for word in re.findall(r"[A-Za-z]{4,}", control.text())}
    assert words, "the controls have English words to look for"
    assert not {word for word in words if re.search(rf"\b{word}\b", read)}, read


@needs_rsvg
def test_librsvg_draws_the_whole_window_without_black_blocks(window, tmp_path) -> None:
    """The window's SVG comes from Qt's generator: pyqtgraph's thin lines in its scaled
    groups must stay thin in librsvg, as in the window's PNG."""
    window.docks["heatmap"].raise_()
    QApplication.processEvents()
    png, svg, drawn = tmp_path / "w.png", tmp_path / "w.svg", tmp_path / "rsvg.png"
    assert window.exports.export_image(window, png)
    assert window.exports.export_image(window, svg)
    assert "non-scaling-stroke" not in svg.read_text(encoding="utf-8")
    subprocess.run(["rsvg-convert", "-o", str(drawn), str(svg)], check=True, timeout=60)
    theirs = QImage(str(drawn))
    size = (theirs.width(), theirs.height())
    a, b = pixels(QImage(str(png)), size), pixels(theirs, size)
    assert abs(near_black(a) - near_black(b)) < 0.02, (near_black(a), near_black(b))
    quarter = (size[0] // 4, size[1] // 4)
    difference = np.abs(pixels(QImage(str(png)), quarter) - pixels(theirs, quarter)).mean()
    assert difference < 10.0, f"{difference:.1f} of 255 (a thick stroke over a plot: ~70)"
