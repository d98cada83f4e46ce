"""Owns the heatmap's picture item: pyqtgraph's image, which on a new picture that differs
from the one shown in one strip (a drag step on a large import) colours only that strip, with
pyqtgraph's own colouring, into the picture already made, instead of the whole picture."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from pyqtgraph import functions_qimage
from pyqtgraph.functions import ndarray_from_qimage
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage

PATCH_SHARE = 0.25
"""A change covering more of the picture than this is coloured in full (as fast, simpler)."""


def changed_box(old: np.ndarray, new: np.ndarray) -> tuple[slice, slice] | None:
    """The rows and columns bounding every cell where `new` differs from `old` (NaN equals
    NaN), or None when nothing changed."""
    differs = (old != new) & ~(np.isnan(old) & np.isnan(new))
    rows, cols = np.flatnonzero(differs.any(axis=1)), np.flatnonzero(differs.any(axis=0))
    if rows.size == 0:
        return None
    return slice(int(rows[0]), int(rows[-1]) + 1), slice(int(cols[0]), int(cols[-1]) + 1)


class StripImage(pg.ImageItem):
    """A row-major float image whose new pictures may be coloured strip by strip."""

    def show_picture(self, image: np.ndarray, levels: tuple[float, float]) -> None:
        """Show `image` at `levels`: only its changed strip is coloured when the picture
        shown has the same size, type, levels, colours and kind of blanks (NaN)."""
        box = self._patchable(image, levels)
        if box is None:
            self.setImage(image, autoLevels=False, levels=levels)
            return
        rows, cols = box
        strip = image[rows, cols]
        if strip.size:
            coloured = self._coloured(strip)
            if coloured is None:
                self.setImage(image, autoLevels=False, levels=levels)
                return
            ndarray_from_qimage(self.qimage)[rows, cols] = coloured
            self.update(QRectF(cols.start, rows.start, cols.stop - cols.start,
                               rows.stop - rows.start))
        self.image = image
        self._imageNanLocations = None

    def _coloured(self, strip: np.ndarray) -> np.ndarray | None:
        """`strip`'s pixels as the picture shown stores them (None: in another format). A
        picture without blanks stores colour indices: they are computed without building
        the colour table again, which pyqtgraph does for every picture (a millisecond)."""
        if not self._imageHasNans and self.qimage.format() == QImage.Format.Format_Indexed8:
            indices, _ = functions_qimage._rescale_and_lookup_float(
                np, strip, self.levels, self.lut, forceApplyLut=False)
            return indices if indices.dtype == np.uint8 else None
        blanks = np.isnan(strip).nonzero() if self._imageHasNans else None
        coloured = functions_qimage.try_make_qimage(
            strip, levels=self.levels, lut=self.lut, transparentLocations=blanks)
        if coloured is None or coloured.format() != self.qimage.format():
            return None
        return ndarray_from_qimage(coloured)

    def _patchable(self, image: np.ndarray,
                   levels: tuple[float, float]) -> tuple[slice, slice] | None:
        """The strip to colour (empty: nothing changed), or None when the picture must be
        coloured whole."""
        old = self.image
        if (old is None or self.qimage is None or self._renderRequired or self.autoDownsample
                or self.axisOrder != "row-major" or old.ndim != 2 or old.shape != image.shape
                or old.dtype != image.dtype or image.dtype.kind != "f"
                or self.levels is None or not np.array_equal(self.levels, levels)
                or not isinstance(self.lut, np.ndarray)):
            return None
        if bool(np.isnan(image.min())) != bool(self._imageHasNans):
            return None
        box = changed_box(old, image)
        if box is None:
            return slice(0, 0), slice(0, 0)
        rows, cols = box
        share = (rows.stop - rows.start) * (cols.stop - cols.start) / image.size
        return box if share <= PATCH_SHARE else None
