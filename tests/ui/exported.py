"""A panel's exported figure read back for tests: the SVG's elements and texts, and librsvg's
drawing of the SVG compared with the PNG the app wrote."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from app.ui.export import save_image
from app.ui.panels.base import Panel

NEAR_BLACK = 40
"""A pixel whose every channel is below this (of 255) counts as near-black."""

needs_rsvg = pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                                reason="rsvg-convert (Debian's librsvg2-bin) is not installed")


def svg_texts(path: Path) -> list[str]:
    """Every <text> element's text, in document order."""
    root = ET.parse(path).getroot()
    return ["".join(node.itertext()).strip() for node in root.iter()
            if node.tag.endswith("}text")]


def svg_tags(path: Path) -> list[str]:
    """Every element's tag, without its namespace."""
    return [node.tag.split("}")[-1] for node in ET.parse(path).getroot().iter()]


def pixels(image: QImage, size: tuple[int, int]) -> np.ndarray:
    """RGB as floats at `size`, smoothly scaled: two renders compared pixel by pixel."""
    image = image.convertToFormat(QImage.Format.Format_RGB888).scaled(
        *size, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation)
    width, height = image.width(), image.height()
    raw = np.frombuffer(image.constBits(), np.uint8, image.bytesPerLine() * height)
    return raw.reshape(height, image.bytesPerLine())[:, :width * 3].reshape(
        height, width, 3).astype(np.float64)


def near_black(values: np.ndarray) -> float:
    return float((values < NEAR_BLACK).all(axis=2).mean())


def rsvg_difference(png: Path, svg: Path, drawn: Path) -> tuple[float, float]:
    """librsvg draws `svg` into `drawn`; returns how far its share of near-black pixels is
    from the PNG's, and the mean difference (of 255) of the two at a quarter of the size,
    where letters in another font blur into their place. Same proportions, or it fails."""
    subprocess.run(["rsvg-convert", "-o", str(drawn), str(svg)], check=True, timeout=60)
    ours, theirs = QImage(str(png)), QImage(str(drawn))
    size = (theirs.width(), theirs.height())
    assert abs(ours.width() / ours.height() - size[0] / size[1]) < 0.01, "same proportions"
    a, b = pixels(ours, size), pixels(theirs, size)
    quarter = (size[0] // 4, size[1] // 4)
    difference = np.abs(pixels(ours, quarter) - pixels(theirs, quarter)).mean()
    return abs(near_black(a) - near_black(b)), float(difference)


def export_figure(panel: Panel, folder: Path, stem: str) -> tuple[Path, Path]:
    """The panel exported as the user exports it, to PNG and to SVG."""
    png, svg = folder / f"{stem}.png", folder / f"{stem}.svg"
    save_image(panel, png)
    save_image(panel, svg)
    return png, svg


def check_figure(panel: Panel, folder: Path, controls: list[str]) -> list[str]:
    """Exports the panel and checks what every figure keeps: the SVG is shapes and text
    (no picture inside), none of `controls` (the panel's own button and hint texts, each
    non-empty) is in it, and librsvg draws it as the PNG shows it. Returns its texts."""
    png, svg = export_figure(panel, folder, panel.name)
    assert "image" not in svg_tags(svg), "nothing drawn is a raster image"
    texts = svg_texts(svg)
    assert controls and all(controls), "each control has a text to look for"
    assert not set(controls) & set(texts), "no button, check box or hint in the figure"
    if shutil.which("rsvg-convert") is not None:
        black, difference = rsvg_difference(png, svg, folder / f"{panel.name}.rsvg.png")
        assert black < 0.02, f"the same share of ink: {black:.3f} apart"
        assert difference < 10.0, f"librsvg draws the PNG's picture: {difference:.1f} of 255"
    return texts
