"""A panel's export is its figure: the heatmap as PNG and SVG holds the matrix, its names, its
colour bar and title, none of the buttons and hints around it; the SVG is shapes and text and
librsvg draws it as the PNG shows it; the numbers read in a PNG exported from a small window."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.i18n import tr
from app.startup import _screenshot
from app.ui.figure import PNG_SCALE

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

NEAR_BLACK = 40
"""A pixel whose every channel is below this (of 255) counts as near-black."""


def _texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return ["".join(node.itertext()).strip() for node in root.iter()
            if node.tag.endswith("}text")]


def _pixels(image: QImage, size: tuple[int, int]) -> np.ndarray:
    """RGB as floats at `size`, smoothly scaled: two renders compared pixel by pixel."""
    image = image.convertToFormat(QImage.Format.Format_RGB888).scaled(
        *size, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation)
    width, height = image.width(), image.height()
    raw = np.frombuffer(image.constBits(), np.uint8, image.bytesPerLine() * height)
    return raw.reshape(height, image.bytesPerLine())[:, :width * 3].reshape(
        height, width, 3).astype(np.float64)


def _near_black(pixels: np.ndarray) -> float:
    return float((pixels < NEAR_BLACK).all(axis=2).mean())


@pytest.fixture
def heatmap(window):
    window.docks["heatmap"].raise_()
    QApplication.processEvents()
    return window.panels["heatmap"]


def test_heatmap_svg_is_text_and_rectangles_without_controls(window, heatmap, tmp_path) -> None:
    path = tmp_path / "heatmap.svg"
    assert window.exports.export_image(heatmap, path)
    root = ET.parse(path).getroot()
    tags = [node.tag.split("}")[-1] for node in root.iter()]
    assert "image" not in tags, "nothing drawn is a raster image"
    view = window.document.view
    rows, cols = np.ma.getdata(view.active).shape
    assert tags.count("rect") >= rows * cols, "each cell is a rectangle"
    texts = _texts(path)
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


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert (Debian's librsvg2-bin) is not installed")
def test_librsvg_draws_the_svg_as_the_png_shows_it(window, heatmap, tmp_path) -> None:
    png, svg, drawn = tmp_path / "h.png", tmp_path / "h.svg", tmp_path / "rsvg.png"
    assert window.exports.export_image(heatmap, png)
    assert window.exports.export_image(heatmap, svg)
    subprocess.run(["rsvg-convert", "-o", str(drawn), str(svg)], check=True, timeout=60)
    ours, theirs = QImage(str(png)), QImage(str(drawn))
    size = (theirs.width(), theirs.height())
    assert abs(ours.width() / ours.height() - size[0] / size[1]) < 0.01, "same proportions"
    a, b = _pixels(ours, size), _pixels(theirs, size)
    assert abs(_near_black(a) - _near_black(b)) < 0.02, (_near_black(a), _near_black(b))
    # at a quarter of the size the letters (another font in librsvg) blur into their cells
    quarter = (size[0] // 4, size[1] // 4)
    difference = np.abs(_pixels(ours, quarter) - _pixels(theirs, quarter)).mean()
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


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert (Debian's librsvg2-bin) is not installed")
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
    a, b = _pixels(QImage(str(png)), size), _pixels(theirs, size)
    assert abs(_near_black(a) - _near_black(b)) < 0.02, (_near_black(a), _near_black(b))
    quarter = (size[0] // 4, size[1] // 4)
    difference = np.abs(_pixels(QImage(str(png)), quarter) - _pixels(theirs, quarter)).mean()
    assert difference < 10.0, f"{difference:.1f} of 255 (a thick stroke over a plot: ~70)"
