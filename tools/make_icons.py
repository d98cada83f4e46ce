"""Render the application icon's PNG sizes from resources/icons/attention-lab.svg.

Desktops ask for an icon at fixed sizes (the freedesktop hicolor theme: 16 to 512 px), and
Qt picks the nearest PNG for every window and the task bar. Re-run it after editing the SVG:

    python tools/make_icons.py           # write resources/icons/hicolor/<n>x<n>/apps/*.png
    python tools/make_icons.py --check   # exit 1 if a PNG no longer matches the SVG

Uses Qt's own SVG renderer (QtSvg, part of PySide6-Essentials), nothing else.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
SVG = ICONS / "attention-lab.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
MAX_MEAN_DIFFERENCE = 2.0
"""Per channel, out of 255: another Qt version may antialias an edge a little differently."""


def png_path(size: int, icons: Path = ICONS) -> Path:
    """Where the hicolor theme (and the app) expects the icon of `size` pixels."""
    return icons / "hicolor" / f"{size}x{size}" / "apps" / "attention-lab.png"


def render(svg: Path, size: int) -> QImage:
    """The SVG drawn at `size` × `size` pixels on a transparent background."""
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg}: Qt cannot read this SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image


def mean_difference(a: QImage, b: QImage) -> float:
    """Mean absolute difference per channel (0–255); infinite when the sizes differ."""
    if a.size() != b.size():
        return float("inf")
    a = a.convertToFormat(QImage.Format.Format_ARGB32)
    b = b.convertToFormat(QImage.Format.Format_ARGB32)
    first, second = bytes(a.constBits()), bytes(b.constBits())
    return sum(abs(x - y) for x, y in zip(first, second, strict=True)) / len(first)


def stale(svg: Path = SVG, icons: Path = ICONS) -> list[str]:
    """The PNGs that are missing or no longer look like the SVG."""
    found = []
    for size in SIZES:
        path = png_path(size, icons)
        if mean_difference(QImage(str(path)), render(svg, size)) > MAX_MEAN_DIFFERENCE:
            found.append(str(path.relative_to(icons)))
    return found


def write(svg: Path = SVG, icons: Path = ICONS) -> None:
    for size in SIZES:
        path = png_path(size, icons)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not render(svg, size).save(str(path)):
            raise OSError(f"cannot write {path}")
        print(path.relative_to(ROOT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare the PNGs with the SVG; exit 1 if any is stale")
    args = parser.parse_args(argv)
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    if args.check:
        found = stale()
        for name in found:
            print(f"stale: {name} (run python tools/make_icons.py)", file=sys.stderr)
        return 1 if found else 0
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
