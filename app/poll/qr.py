"""Owns the QR code a phone scans to join the poll: segno encodes it, and it is drawn with
whole pixels per module (a blurred edge is what makes a projected code hard to scan)."""

from __future__ import annotations

import io

import numpy as np
from PySide6.QtGui import QImage

__all__ = ["QUIET_ZONE", "qr_image", "qr_modules", "qr_svg"]

QUIET_ZONE = 4
"""The light border the QR standard asks for, in modules."""


def qr_modules(text: str) -> np.ndarray:
    """The code as a square bool array (True: dark), quiet zone included. Error correction
    is at least M, raised by segno when the text leaves room, for a projector's glare."""
    import segno

    code = segno.make(text, error="m", micro=False)
    return np.array(list(code.matrix_iter(scale=1, border=QUIET_ZONE)), dtype=bool)


def qr_image(text: str, size: int) -> QImage:
    """A black-on-white code of `size` × `size` pixels: the largest whole number of pixels per
    module that fits, centred; a size smaller than the code gets one pixel per module."""
    modules = qr_modules(text)
    count = modules.shape[0]
    scale = max(1, size // count)
    side = max(size, count)
    pixels = np.full((side, side), 255, dtype=np.uint8)
    drawn = np.kron(np.where(modules, 0, 255).astype(np.uint8),
                    np.ones((scale, scale), dtype=np.uint8))
    start = (side - drawn.shape[0]) // 2
    pixels[start:start + drawn.shape[0], start:start + drawn.shape[1]] = drawn
    image = QImage(pixels.data, side, side, side, QImage.Format.Format_Grayscale8)
    return image.copy()  # own the pixels: the array goes away when this returns


def qr_svg(text: str, scale: int = 8) -> bytes:
    """The code as SVG, for a stage that draws vectors (or a handout)."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="svg", scale=scale,
                                                  border=QUIET_ZONE, xmldecl=False)
    return out.getvalue()
