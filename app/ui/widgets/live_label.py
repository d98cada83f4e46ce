"""Owns the label for text that changes at every drag step (a score, a sum, a formula).

Each new text makes a QLabel ask for a new layout, and that request climbs through the
panel, the dock and the main window, which then lays out every dock again: measured, a third
of a drag step's frame. A live label sits in a holder that passes the request on only when
the label's height for the holder's width really changed (its width comes from the layout it
stretches in), and it remembers its height per width, since a layout pass asks several times.

Rich text (and selectable plain text) is measured and painted from the label's own
QTextDocument, laid out as QLabel lays out its own. A QLabel keeps such text in a text
control that lays the document out again for every size it is asked about and repaints after
each: three paints of the term-by-term sum per drag step, measured, against one. A selection
(the sum and the match table's reasons can be copied) is QLabel's to paint.

The label fills its own background (the window's colour, as the panels behind it do), so a
new text repaints the label alone: transparent, it repainted its holder and the panel or
status bar under it too, a paint event each for pixels that do not change.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import QLabel, QWidget

_SELECTABLE = (Qt.TextInteractionFlag.TextSelectableByMouse
               | Qt.TextInteractionFlag.TextSelectableByKeyboard)


class LiveLabel(QLabel):
    """A word-wrapped label; put `holder` in layouts, and use the label as any QLabel."""

    def __init__(self, object_name: str, wrap: bool = True) -> None:
        super().__init__()
        self._heights: dict[int, int] = {}
        self._page = QTextDocument()  # the rich text, parsed once per text
        self._page.setDocumentMargin(0)
        self._parsed = False
        self._styled: tuple[object, ...] | None = None
        """The font, alignment and wrapping the page was given (each lays it out again)."""
        self._paged: bool | None = None
        """Whether the text is drawn from the page (None: not yet asked since the format
        or the interaction flags changed; a new text changes neither)."""
        self.setObjectName(object_name)
        self.setAutoFillBackground(True)
        self.setWordWrap(wrap)
        self.holder = _Holder(self)

    def setText(self, text: str) -> None:
        if text != self.text():
            self._forget()
            super().setText(text)

    def setTextFormat(self, text_format: Qt.TextFormat) -> None:
        self._forget()
        self._paged = None
        super().setTextFormat(text_format)

    def setAlignment(self, alignment: Qt.AlignmentFlag) -> None:
        self._forget()
        super().setAlignment(alignment)

    def setWordWrap(self, on: bool) -> None:
        self._forget()
        super().setWordWrap(on)

    def setVisible(self, visible: bool) -> None:
        """The holder shows and hides with the label (`hide()` and `show()` come here too):
        an event filter on the label did it, and ran Python for every event the label
        got, a paint at each drag step among them."""
        super().setVisible(visible)
        self.holder.setVisible(visible)

    def setTextInteractionFlags(self, flags: Qt.TextInteractionFlag) -> None:
        self._forget()
        self._paged = None
        super().setTextInteractionFlags(flags)

    def _forget(self) -> None:
        self._heights.clear()
        self._parsed = False

    def _document(self) -> QTextDocument | None:
        """The text as QLabel's text control lays it out (no margin, its font, its
        horizontal alignment, wrapped at word boundaries or not at all): rich text, and
        plain text that can be selected; None for the plain text QLabel draws itself."""
        if self._paged is None:
            text_format = self.textFormat()
            selectable = bool(self.textInteractionFlags() & _SELECTABLE)
            self._paged = text_format == Qt.TextFormat.RichText or (
                text_format == Qt.TextFormat.PlainText and selectable)
        if not self._paged:
            return None
        page = self._page
        if not self._parsed:
            rich = self.textFormat() == Qt.TextFormat.RichText
            self._style(page)
            (page.setHtml if rich else page.setPlainText)(self.text())
            self._parsed = True
        return page

    def _style(self, page: QTextDocument) -> None:
        """Give the page the label's font, alignment and wrapping, only if they changed:
        each one set lays the page's old text out again, before the new text replaces it
        (three layouts of the sum per drag step, where one is needed)."""
        style = (self.font(), self.alignment() & Qt.AlignmentFlag.AlignHorizontal_Mask,
                 self.wordWrap())
        if style == self._styled:
            return
        self._styled = style
        page.clear()  # nothing to lay out again as the style changes
        font, alignment, wrap = style
        page.setDefaultFont(font)
        option = QTextOption(alignment)
        option.setWrapMode(QTextOption.WrapMode.WordWrap if wrap
                           else QTextOption.WrapMode.ManualWrap)
        page.setDefaultTextOption(option)

    def _text_width(self, width: int) -> int:
        margins = self.contentsMargins()
        return max(0, width - margins.left() - margins.right() - 2 * self.margin())

    def heightForWidth(self, width: int) -> int:
        if width not in self._heights:
            page = self._document()
            if page is None:
                self._heights[width] = super().heightForWidth(width)
            else:
                _set_text_width(page, self._text_width(width))
                margins = self.contentsMargins()
                height = (math.ceil(page.size().height()) + 2 * self.margin()
                          + margins.top() + margins.bottom())
                self._heights[width] = max(height, self.minimumHeight())
        return self._heights[width]

    def paintEvent(self, event: QPaintEvent) -> None:
        page = self._document()
        if page is None or self.hasSelectedText():
            super().paintEvent(event)
            return
        room = QRectF(self.contentsRect()).adjusted(*(self.margin() * s for s in (1, 1, -1, -1)))
        _set_text_width(page, room.width())
        height = page.size().height()
        offset = 0.0  # vertically as QLabel places its document
        if self.alignment() & Qt.AlignmentFlag.AlignVCenter:
            offset = max(0.0, (room.height() - height) / 2)
        elif self.alignment() & Qt.AlignmentFlag.AlignBottom:
            offset = max(0.0, room.height() - height)
        placed = QRectF(room.left(), room.top() + offset, room.width(), room.height())
        placed_at = placed.toAlignedRect()  # whole pixels, as QLabel draws it
        painter = QPainter(self)
        painter.translate(placed_at.topLeft())
        painter.setClipRect(0, 0, placed_at.width(), placed_at.height())
        context = QAbstractTextDocumentLayout.PaintContext()
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Text, palette.color(self.foregroundRole()))
        context.palette = palette
        page.documentLayout().draw(painter, context)
        painter.end()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._forget()
        super().changeEvent(event)


def _set_text_width(page: QTextDocument, width: float) -> None:
    """Qt lays the whole document out again at every `setTextWidth`, the same width too:
    measuring a new text and then painting it would lay it out twice."""
    if page.textWidth() != width:
        page.setTextWidth(width)


class _Holder(QWidget):
    """Lays its one label over its whole rectangle, shows and hides with it (the label's
    `setVisible`), and stops the label's layout requests that would not change the
    holder's height."""

    def __init__(self, label: LiveLabel) -> None:
        super().__init__()
        self.setObjectName(f"{label.objectName()}_holder")
        self._label = label
        label.setParent(self)
        policy = label.sizePolicy()
        policy.setHeightForWidth(label.wordWrap())
        self.setSizePolicy(policy)
        self._height = self._label_height()
        self._holding = False
        self._tallest = 0  # while holding: the most room the label has had

    def hold(self, on: bool) -> None:
        """While on (a drag), keep the tallest room the label has had: a text that loses a
        line leaves its room as it is instead of laying the panel out again, and one that
        gains a line still gets it; off, the label asks for its own height again."""
        if on == self._holding:
            return
        self._holding = on
        self._tallest = self._height if on else 0
        if not on and self._label_height() != self._height:
            self._height = self._label_height()
            self.updateGeometry()

    def _label_height(self) -> int:
        """The one hint a new text can change for a label stretched across its layout (the
        minimum size of wrapped rich text costs a layout of its own, and is not needed)."""
        label = self._label
        return (label.heightForWidth(self.width()) if label.wordWrap()
                else label.sizeHint().height())

    def hasHeightForWidth(self) -> bool:
        return self._label.wordWrap()

    def heightForWidth(self, width: int) -> int:
        height = self._label.heightForWidth(width)
        return max(height, self._tallest) if self._holding else height

    def sizeHint(self) -> QSize:
        return self._label.sizeHint()

    def minimumSizeHint(self) -> QSize:
        return self._label.minimumSizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._label.setGeometry(self.rect())
        self._height = self._label_height()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            height = self._label_height()
            if self._holding and height <= self._tallest:
                return True  # fits the room it holds
            if height != self._height:
                self._height = height
                self._tallest = max(self._tallest, height)
                self.updateGeometry()
            return True
        return super().event(event)
