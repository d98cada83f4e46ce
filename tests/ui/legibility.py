"""Measures what a widget tree really shows a class: every text, its size in device pixels,
where it is and whether it is cut; which texts overlap, which scroll bars show, which numbers
and token names wrap inside themselves. The stage's legibility tests use it.

Three sources, because Qt draws text three ways:
- widgets (labels, buttons, headers, cells …) draw in C++: read from the widget, its font and
  its text's box;
- Python paint code (`paintEvent`, a QGraphicsItem's `paint`, pyqtgraph's axes) calls
  `QPainter.drawText` / `drawStaticText`: recorded while `top` is rendered, with the
  painter's font and device transform;
- QGraphicsView scenes: text items, from their font and the item-to-device transform.

Known limits: text Qt draws in C++ is measured from the widget (its font, its text laid out
as the widget lays it out), not intercepted; a QStyle subclass or delegate that paints in
Python is seen as painted text only through drawText/drawStaticText; items cached in a
pixmap (QGraphicsItem.DeviceCoordinateCache; axes are drawn uncached for the probe) or text
painted into an offscreen image are not seen; QTextEdit-like views are not read; a widget
hidden under a sibling counts as shown.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from types import FrameType

import pyqtgraph as pg
from PySide6 import QtGui
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPicture,
    QStaticText,
    QTextDocument,
    QTextOption,
    QTransform,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QGraphicsItem,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QMenuBar,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollBar,
    QStatusBar,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionButton,
    QStyleOptionComboBox,
    QStyleOptionGroupBox,
    QTabBar,
    QTableView,
    QToolButton,
    QTreeView,
    QWidget,
)

from app.ui.fonts import STAGE_MIN_PX

__all__ = ["NUMBER", "Break", "Seen", "broken_inside", "clipped", "describe", "font_px",
           "overlapping", "report", "scroll_bars_showing", "seen_texts", "too_small"]

SCRIPT_SCALE = 2 / 3
"""Qt lays sub- and superscripts out at two thirds of their font's pixel size."""
EDGE_PX = 1.5
"""Rounding between Qt's layout and these boxes (ink rectangles come in whole pixels): a
text this close to its room still fits."""
MOST_ROWS = 2000
"""Item views' rows read at most (a large model's off-screen rows are not seen anyway)."""
NUMBER = re.compile(r"[−+\-]?\d(?:[\d,.]*\d)?(?:[ \u00a0\u202f]?(?:%|‰|[KMGTP]i?B|B)(?![A-Za-z]))?")
"""A number with its sign and unit, which must never wrap inside: "−1.26", "4,096", "56.5 %",
"8.0 GiB"."""
Align = Qt.AlignmentFlag


@dataclass(frozen=True)
class Seen:
    """One piece of text as a viewer sees it; rectangles are in `top`'s coordinates."""

    text: str
    """What reads (rich text as plain text, mnemonics removed); never blank."""
    px: float
    """Its letters' size in device pixels (the smallest of its ordinary letters)."""
    rect: QRectF
    """Where its letters are laid out, whole (line boxes)."""
    ink: QRectF
    """Where its letters' ink is (one line; a wrapped or rich text: its line boxes)."""
    view: QRectF
    """The part of `top` it can show through: its widget, every ancestor, its own room."""
    source: str
    """"widget", "painted" or "item"."""
    where: str
    script_px: float | None = None
    """Its sub- and superscripts' size, if it has any."""
    owner: object = field(default=None, repr=False, compare=False)
    """The widget or graphics item it belongs to, for a test to look at."""

    @property
    def shown(self) -> QRectF:
        """The ink in view: what overlaps are judged on (line boxes touch in any stack)."""
        return self.ink & self.view

    @property
    def visible(self) -> bool:
        return not self.shown.isEmpty()

    @property
    def clipped(self) -> bool:
        return not self.view.adjusted(-EDGE_PX, -EDGE_PX, EDGE_PX, EDGE_PX).contains(self.ink)


@dataclass(frozen=True)
class Break:
    """A number or token name a word-wrapped label splits across lines."""

    piece: str
    lines: tuple[str, ...]
    text: str
    where: str


# ---- sizes and layouts ------------------------------------------------------------------

def font_px(font: QFont, dpi: float) -> float:
    """A font's pixel size (logical): set in pixels, or points at `dpi` (what QFontInfo's
    pixelSize rounds)."""
    return float(font.pixelSize()) if font.pixelSize() > 0 else font.pointSizeF() * dpi / 72


def _scale(transform: QTransform) -> float:
    """How much `transform` enlarges a letter's height (rotation and flips aside)."""
    return math.hypot(transform.m21(), transform.m22())


def _document_sizes(document: QTextDocument, dpi: float) -> tuple[float, float | None]:
    """The smallest ordinary and smallest sub/superscript letter size of a laid-out text."""
    normal: list[float] = []
    scripts: list[float] = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            if fragment.text().strip():
                char = fragment.charFormat()
                px = font_px(char.font(), dpi)
                if char.verticalAlignment() in (char.VerticalAlignment.AlignSubScript,
                                                char.VerticalAlignment.AlignSuperScript):
                    scripts.append(px * SCRIPT_SCALE)
                else:
                    normal.append(px)
            fragments += 1
        block = block.next()
    least = min(normal or scripts or [font_px(document.defaultFont(), dpi)])
    return least, min(scripts) if scripts else None


@dataclass(frozen=True)
class _Layout:
    """A text laid out as a QLabel lays it out."""

    document: QTextDocument
    plain: str
    px: float
    script_px: float | None


def _font_key(font: QFont) -> tuple[str, ...]:
    """What a font is, for the caches (toString alone forgets the fallback families)."""
    return font.toString(), *font.families()


MOST_CACHED = 4000
"""Layouts kept (each holds a QTextDocument): a lesson's walks need a few hundred."""
_layouts: dict[tuple[object, ...], _Layout] = {}
_tights: dict[tuple[object, ...], tuple[QRectF, float, float]] = {}
"""Cached across walks: a scene's labels repeat at every size, zoom and reveal."""


def _laid_out(text: str, rich: bool, font: QFont, width: float, dpi: float) -> _Layout:
    key = (text, rich, _font_key(font), width, dpi)
    if key not in _layouts:
        if len(_layouts) > MOST_CACHED:
            _layouts.clear()
        _layouts[key] = _layout(text, rich, font, width, dpi)
    return _layouts[key]


def _layout(text: str, rich: bool, font: QFont, width: float, dpi: float) -> _Layout:
    document = QTextDocument()
    document.setDefaultFont(font)
    document.setDocumentMargin(0)  # as QLabel's
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap if width > 0
                       else QTextOption.WrapMode.ManualWrap)
    document.setDefaultTextOption(option)
    (document.setHtml if rich else document.setPlainText)(text)
    document.setTextWidth(width)
    document.size()  # lays it out now: its lines are read from the blocks' layouts
    px, script_px = _document_sizes(document, dpi) if rich else (font_px(font, dpi), None)
    return _Layout(document, document.toPlainText(), px, script_px)


def _is_rich(text: str, text_format: Qt.TextFormat) -> bool:
    return text_format == Qt.TextFormat.RichText or (
        text_format == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text))


def _no_mnemonic(text: str) -> str:
    return re.sub(r"&(.)", r"\1", text)


def _ink(text: str, font: QFont, box: QRectF) -> QRectF:
    """The ink of a one-line text laid out in `box` (its advance wide, a line tall);
    several lines keep their box."""
    if "\n" in text:
        return box
    key = (text, _font_key(font))
    if key not in _tights:
        if len(_tights) > MOST_CACHED:
            _tights.clear()
        metrics = QFontMetricsF(font)
        _tights[key] = metrics.tightBoundingRect(text), metrics.ascent(), metrics.height()
    tight, ascent, height = _tights[key]
    if box.height() > 1.5 * height:
        return box
    return tight.translated(box.left(), box.top() + ascent)


# ---- texts widgets draw -----------------------------------------------------------------

@dataclass(frozen=True)
class _Piece:
    """A widget's text in the coordinates of `on` (the widget, or its viewport)."""

    text: str
    px: float  # logical pixels
    box: QRectF
    ink: QRectF
    on: QWidget
    room: QRectF | None = None  # the cell, tab or section it must stay inside
    script_px: float | None = None


def _boxed(widget: QWidget, text: str, font: QFont, room: QRectF, flags: int, dpi: float,
           on: QWidget | None = None, clip_to_room: bool = True) -> _Piece:
    box = QFontMetricsF(font).boundingRect(room, flags | Qt.TextFlag.TextShowMnemonic, text)
    text = _no_mnemonic(text)
    return _Piece(text, font_px(font, dpi), box, _ink(text, font, box), on or widget,
                  room if clip_to_room else None)


def _label(label: QLabel, dpi: float) -> Iterator[_Piece]:
    text = label.text()
    if not text.strip() or not label.pixmap().isNull():
        return
    room = QRectF(label.contentsRect()).adjusted(*(label.margin() * s for s in (1, 1, -1, -1)))
    rich = _is_rich(text, label.textFormat())
    align = label.alignment()
    if rich:
        laid = _laid_out(text, True, label.font(), room.width() if label.wordWrap() else -1,
                         dpi)
        size = laid.document.size()
        size.setWidth(min(laid.document.idealWidth(), size.width()))
        box = QRectF(QStyle.alignedRect(label.layoutDirection(), align, size.toSize(),
                                        room.toRect()))
        yield _Piece(laid.plain, laid.px, box, box, label, None, laid.script_px)
    else:
        wrap = int(Qt.TextFlag.TextWordWrap) if label.wordWrap() else 0
        yield _boxed(label, text, label.font(), room, int(align) | wrap, dpi,
                     clip_to_room=False)


def _button(button: QAbstractButton, dpi: float) -> Iterator[_Piece]:
    text = button.text()
    if not text.strip():
        return
    if isinstance(button, QToolButton) and not button.icon().isNull():
        style = button.toolButtonStyle()
        if style == Qt.ToolButtonStyle.ToolButtonFollowStyle:
            style = Qt.ToolButtonStyle(button.style().styleHint(
                QStyle.StyleHint.SH_ToolButtonStyle, None, button))
        if style == Qt.ToolButtonStyle.ToolButtonIconOnly:
            return
    room, align = QRectF(button.rect()), Align.AlignCenter
    element = {QCheckBox: QStyle.SubElement.SE_CheckBoxContents,
               QRadioButton: QStyle.SubElement.SE_RadioButtonContents,
               QPushButton: QStyle.SubElement.SE_PushButtonContents}
    for kind, sub in element.items():
        if isinstance(button, kind):
            option = QStyleOptionButton()
            option.initFrom(button)
            option.text = text
            room = QRectF(button.style().subElementRect(sub, option, button))
            if kind is not QPushButton:
                align = Align.AlignLeft | Align.AlignVCenter
            break
    yield _boxed(button, text, button.font(), room, int(align), dpi, clip_to_room=False)


def _combo(combo: QComboBox, dpi: float) -> Iterator[_Piece]:
    if combo.isEditable() or not combo.currentText().strip():
        return  # an editable box's text is its QLineEdit child's
    option = QStyleOptionComboBox()
    option.initFrom(combo)
    option.currentText = combo.currentText()
    room = QRectF(combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                               QStyle.SubControl.SC_ComboBoxEditField, combo))
    yield _boxed(combo, combo.currentText(), combo.font(), room,
                 int(Align.AlignLeft | Align.AlignVCenter), dpi)


def _line_edit(edit: QLineEdit, dpi: float) -> Iterator[_Piece]:
    text = edit.displayText() or edit.placeholderText()
    if text.strip():
        margins = edit.textMargins()
        room = QRectF(edit.contentsRect()).adjusted(margins.left() + 2, margins.top(),
                                                    -margins.right() - 2, -margins.bottom())
        yield _boxed(edit, text, edit.font(), room, int(edit.alignment()), dpi)


def _group_box(box: QGroupBox, dpi: float) -> Iterator[_Piece]:
    if not box.title().strip():
        return
    option = QStyleOptionGroupBox()
    option.initFrom(box)
    option.text = box.title()
    option.lineWidth = 1
    option.textAlignment = box.alignment()
    option.subControls = (QStyle.SubControl.SC_GroupBoxFrame
                          | QStyle.SubControl.SC_GroupBoxLabel)
    room = QRectF(box.style().subControlRect(QStyle.ComplexControl.CC_GroupBox, option,
                                             QStyle.SubControl.SC_GroupBoxLabel, box))
    yield _boxed(box, box.title(), box.font(), room, int(Align.AlignCenter), dpi)


def _tab_bar(bar: QTabBar, dpi: float) -> Iterator[_Piece]:
    for index in range(bar.count()):
        if bar.isTabVisible(index) and bar.tabText(index).strip():
            yield _boxed(bar, bar.tabText(index), bar.font(), QRectF(bar.tabRect(index)),
                         int(Align.AlignCenter), dpi)


def _dock(dock: QDockWidget, dpi: float) -> Iterator[_Piece]:
    if dock.isFloating() or dock.titleBarWidget() is not None or not dock.windowTitle():
        return
    content = dock.widget()
    height = content.y() if content is not None and content.y() > 0 else dock.fontMetrics(
    ).height() + 4
    room = QRectF(4, 0, dock.width() - 8, height)
    yield _boxed(dock, dock.windowTitle(), dock.font(), room,
                 int(Align.AlignLeft | Align.AlignVCenter), dpi)


def _menu_bar(bar: QMenuBar, dpi: float) -> Iterator[_Piece]:
    for action in bar.actions():
        room = QRectF(bar.actionGeometry(action))
        if action.isVisible() and action.text().strip() and not room.isEmpty():
            yield _boxed(bar, action.text(), bar.font(), room, int(Align.AlignCenter), dpi)


def _status_bar(bar: QStatusBar, dpi: float) -> Iterator[_Piece]:
    if bar.currentMessage().strip():
        yield _boxed(bar, bar.currentMessage(), bar.font(), QRectF(bar.rect()).adjusted(
            6, 0, -6, 0), int(Align.AlignLeft | Align.AlignVCenter), dpi)


def _progress(bar: QProgressBar, dpi: float) -> Iterator[_Piece]:
    if bar.isTextVisible() and bar.text().strip():
        yield _boxed(bar, bar.text(), bar.font(), QRectF(bar.rect()),
                     int(Align.AlignCenter), dpi)


@functools.cache
def _delegate() -> QStyledItemDelegate:
    """Formats a model's value the way a view's default delegate shows it."""
    return QStyledItemDelegate()


def _header(header: QHeaderView, dpi: float) -> Iterator[_Piece]:
    model, port = header.model(), header.viewport()
    if model is None:
        return
    horizontal = header.orientation() == Qt.Orientation.Horizontal
    extent = port.width() if horizontal else port.height()
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    for section in range(header.count()):
        start, size = header.sectionViewportPosition(section), header.sectionSize(section)
        if header.isSectionHidden(section) or start + size <= 0 or start >= extent:
            continue
        text = model.headerData(section, header.orientation(), Qt.ItemDataRole.DisplayRole)
        if text is None or not str(text).strip():
            continue
        font = model.headerData(section, header.orientation(), Qt.ItemDataRole.FontRole)
        align = model.headerData(section, header.orientation(),
                                 Qt.ItemDataRole.TextAlignmentRole)
        room = QRectF(start, 0, size, port.height()) if horizontal else QRectF(
            0, start, port.width(), size)
        piece = _boxed(header, str(text), font if isinstance(font, QFont) else header.font(),
                       room.adjusted(margin, 0, -margin, 0),
                       int(align if align is not None else header.defaultAlignment()), dpi,
                       on=port)
        yield replace(piece, room=room)


def _cells(view: QAbstractItemView, dpi: float) -> Iterator[_Piece]:
    """The cells in the viewport (a tree's expanded rows too) with their model fonts."""
    model, port = view.model(), view.viewport()
    if model is None:
        return
    seen_rect = QRectF(port.rect())
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    wraps = isinstance(view, QTableView | QTreeView | QListView) and view.wordWrap()
    wrap = int(Qt.TextFlag.TextWordWrap) if wraps else 0
    pending, rows = [view.rootIndex()], 0
    while pending and rows < MOST_ROWS:
        parent = pending.pop()
        for row in range(model.rowCount(parent)):
            rows += 1
            for column in range(model.columnCount(parent)):
                index = model.index(row, column, parent)
                if column == 0 and isinstance(view, QTreeView) and view.isExpanded(index):
                    pending.append(index)
                room = QRectF(view.visualRect(index))
                if room.isEmpty() or not room.intersects(seen_rect) or (
                        isinstance(view, QTableView) and (view.isRowHidden(row)
                                                          or view.isColumnHidden(column))):
                    continue
                value = model.data(index, Qt.ItemDataRole.DisplayRole)
                text = "" if value is None else _delegate().displayText(value, view.locale())
                if not text.strip():
                    continue
                font = model.data(index, Qt.ItemDataRole.FontRole)
                align = model.data(index, Qt.ItemDataRole.TextAlignmentRole)
                flags = int(align if align is not None else Align.AlignLeft | Align.AlignVCenter)
                piece = _boxed(view, text, font if isinstance(font, QFont) else view.font(),
                               room.adjusted(margin, 0, -margin, 0), flags | wrap, dpi, on=port)
                yield replace(piece, room=room)


READERS: dict[type, Callable[[QWidget, float], Iterator[_Piece]]] = {
    QLabel: _label, QAbstractButton: _button, QComboBox: _combo, QLineEdit: _line_edit,
    QGroupBox: _group_box, QTabBar: _tab_bar, QDockWidget: _dock, QMenuBar: _menu_bar,
    QStatusBar: _status_bar, QProgressBar: _progress, QHeaderView: _header,
}
"""How each kind of widget's C++ paint code lays its text out (item views: `_cells`)."""


@functools.cache
def _reader(kind: type) -> Callable[[QWidget, float], Iterator[_Piece]] | None:
    for base, read in READERS.items():
        if issubclass(kind, base):
            return read
    return _cells if issubclass(kind, QAbstractItemView) else None


@functools.cache
def _paints_in_python(kind: type) -> bool:
    return issubclass(kind, QGraphicsView) or any(
        "paintEvent" in vars(k) for k in kind.__mro__ if not k.__module__.startswith("PySide6"))


# ---- texts Python paint code draws ------------------------------------------------------

@dataclass(frozen=True)
class _Stroke:
    """One drawText/drawStaticText call, in device pixels of the render target (or of a
    QPicture, until it is played)."""

    text: str
    px: float  # device pixels
    box: QRectF
    ink: QRectF
    clips: tuple[QRectF, ...]
    owner: str
    script_px: float | None = None
    device: QWidget | None = None
    to_top: QTransform = field(default_factory=QTransform)


def _call(args: Sequence[object]) -> tuple[str, QRectF | None, QPointF, int] | None:
    """(text, room or None, baseline point, flags) of any drawText overload."""
    at = next((i for i, a in enumerate(args) if isinstance(a, str)), None)
    if at is None:
        return None
    text, head = args[at], args[:at]
    if isinstance(head[0], QRect | QRectF):
        room = QRectF(head[0])
        extra = head[1] if at == 2 else (args[at + 1] if len(args) > at + 1 else None)
        if isinstance(extra, QTextOption):
            flags = int(extra.alignment().value) | (
                0 if extra.wrapMode() in (QTextOption.WrapMode.NoWrap,
                                          QTextOption.WrapMode.ManualWrap)
                else int(Qt.TextFlag.TextWordWrap))
        else:
            flags = int(getattr(extra, "value", extra or 0))
        return text, room, QPointF(), flags
    if at == 5:
        x, y, w, h, flags = head
        return text, QRectF(x, y, w, h), QPointF(), int(getattr(flags, "value", flags))
    first = head[0]
    if at == 2:
        point = QPointF(float(first), float(head[1]))
    elif isinstance(first, QPoint | QPointF):
        point = QPointF(first)
    else:  # a QPainterPath.Element
        point = QPointF(first.x, first.y)
    return text, None, point, 0


def _owner(frame: FrameType | None) -> str:
    """The class whose paint code called the painter (pyqtgraph's axes with their side)."""
    for _ in range(6):
        if frame is None:
            break
        me = frame.f_locals.get("self")
        if me is not None and not isinstance(me, QPainter):
            side = getattr(me, "orientation", None)
            return type(me).__name__ + (f"({side})" if isinstance(side, str) else "")
        frame = frame.f_back
    return "a function"


class _Recorder:
    """Collects what Python paint code draws while `top` renders."""

    def __init__(self) -> None:
        self.strokes: list[_Stroke] = []
        self.pictures: dict[int, tuple[QPicture, list[_Stroke]]] = {}
        self.to_top = QTransform()
        self.failure: BaseException | None = None

    def text(self, painter: QPainter, args: Sequence[object], frame: FrameType | None) -> None:
        call = _call(args)
        if call is None or not call[0].strip():
            return
        text, room, point, flags = call
        font, device = painter.font(), painter.device()
        metrics = QFontMetricsF(font, device)
        if room is not None:
            box = metrics.boundingRect(room, flags, text)
            own = None if flags & int(Qt.TextFlag.TextDontClip) else room
        else:
            box = QRectF(point.x(), point.y() - metrics.ascent(),
                         metrics.horizontalAdvance(text), metrics.ascent() + metrics.descent())
            own = None
        if flags & int(Qt.TextFlag.TextShowMnemonic):
            text = _no_mnemonic(text)
        self._add(painter, _Stroke(text, font_px(font, device.logicalDpiY()), box,
                                   _ink(text, font, box), (own,) if own is not None else (),
                                   _owner(frame)))

    def static_text(self, painter: QPainter, args: Sequence[object],
                    frame: FrameType | None) -> None:
        *where, static = args
        if not isinstance(static, QStaticText) or not static.text().strip():
            return
        point = QPointF(*where) if len(where) == 2 else QPointF(where[0])
        dpi = painter.device().logicalDpiY()
        laid = _laid_out(static.text(), _is_rich(static.text(), static.textFormat()),
                         painter.font(), static.textWidth(), dpi)
        if laid.plain.strip():
            box = QRectF(point, static.size())
            self._add(painter, _Stroke(laid.plain, laid.px, box, box, (), _owner(frame),
                                       laid.script_px))

    def _add(self, painter: QPainter, stroke: _Stroke) -> None:
        """Into device pixels; a QPicture's strokes wait until the picture is played."""
        transform = painter.deviceTransform()
        clips = [*stroke.clips, *([painter.clipBoundingRect()] if painter.hasClipping() else [])]
        scale = _scale(transform)
        stroke = replace(stroke, px=stroke.px * scale, box=transform.mapRect(stroke.box),
                         ink=transform.mapRect(stroke.ink),
                         clips=tuple(transform.mapRect(c) for c in clips),
                         script_px=None if stroke.script_px is None else stroke.script_px * scale)
        device = painter.device()
        if isinstance(device, QPicture):
            self.pictures.setdefault(id(device), (device, []))[1].append(stroke)
        elif isinstance(device, QWidget):
            self.strokes.append(replace(stroke, device=device, to_top=self.to_top))

    def play(self, picture: QPicture, painter: QPainter) -> None:
        """A picture's coordinates are the playing painter's: its strokes map on from there."""
        _, strokes = self.pictures.get(id(picture), (None, []))
        for stroke in strokes:
            self._add(painter, stroke)


@contextmanager
def _recording(recorder: _Recorder) -> Iterator[None]:
    """Wraps the painter's text entry points (and QPicture.play, which replays pyqtgraph's
    cached axes) for the duration; the originals come back even on error."""
    originals = (QPainter.drawText, QPainter.drawStaticText, QPicture.play)

    def draw_text(painter: QPainter, *args: object) -> object:
        try:
            recorder.text(painter, args, sys._getframe(1))
        except Exception as error:  # raised after the render, not inside Qt
            recorder.failure = recorder.failure or error
        return originals[0](painter, *args)

    def draw_static_text(painter: QPainter, *args: object) -> object:
        try:
            recorder.static_text(painter, args, sys._getframe(1))
        except Exception as error:
            recorder.failure = recorder.failure or error
        return originals[1](painter, *args)

    def play(picture: QPicture, painter: QPainter) -> bool:
        try:
            recorder.play(picture, painter)
        except Exception as error:
            recorder.failure = recorder.failure or error
        return originals[2](picture, painter)

    QPainter.drawText, QPainter.drawStaticText, QPicture.play = draw_text, draw_static_text, play
    try:
        yield
    finally:
        QPainter.drawText, QPainter.drawStaticText, QPicture.play = originals
    if recorder.failure is not None:
        raise recorder.failure


_images: dict[tuple[int, int, float], QImage] = {}


def _canvas(width: int, height: int, dpr: float) -> QImage:
    """A reused image per size (what is drawn on it is never read, only the calls)."""
    key = (max(width, 1), max(height, 1), dpr)
    if key not in _images:
        if len(_images) > 8:
            _images.clear()
        image = QImage(round(key[0] * dpr), round(key[1] * dpr),
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(dpr)
        _images[key] = image
    return _images[key]


# ---- the walk ---------------------------------------------------------------------------

class _Walk:
    """One look at `top`: its shown widgets, their places and views, cached for the walk."""

    def __init__(self, top: QWidget) -> None:
        self.top = top
        self.dpr = top.devicePixelRatioF()
        self.dpi = float(top.logicalDpiY())
        self._offsets: dict[int, QPointF | None] = {id(top): QPointF()}
        self._views: dict[int, QRectF] = {id(top): QRectF(top.rect())}
        self._away: dict[int, bool] = {id(top): False}
        self._all = top.findChildren(QWidget)  # held: the caches key on the wrappers' ids
        self.widgets = [w for w in self._all if w.isVisibleTo(top)
                        and self.offset(w) is not None and not self.put_away(w)]

    def offset(self, widget: QWidget) -> QPointF | None:
        """Where `widget` sits in `top`; None for another window (a floating dock, a popup)."""
        key = id(widget)
        if key not in self._offsets:
            parent = widget.parentWidget()
            base = None if widget.isWindow() or parent is None else self.offset(parent)
            self._offsets[key] = None if base is None else base + QPointF(widget.pos())
        return self._offsets[key]

    def put_away(self, widget: QWidget) -> bool:
        """In a dock QMainWindow parks outside itself, behind another dock's tab (only that:
        a label pushed wholly out of its panel is cut, and must be seen as cut)."""
        key = id(widget)
        if key not in self._away:
            parent = widget.parentWidget()
            self._away[key] = self.put_away(parent) or (
                isinstance(widget, QDockWidget) and isinstance(parent, QMainWindow)
                and not widget.geometry().intersects(parent.rect()))
        return self._away[key]

    def view(self, widget: QWidget) -> QRectF:
        """The part of `top` through which `widget` shows: its rectangle cut by every
        ancestor's (a scroll area's viewport, a parent too small)."""
        key = id(widget)
        if key not in self._views:
            offset = self.offset(widget) or QPointF()
            own = QRectF(offset, QPointF(offset.x() + widget.width(),
                                         offset.y() + widget.height()))
            self._views[key] = own & self.view(widget.parentWidget())
        return self._views[key]

    def place(self, widget: QWidget) -> QTransform:
        offset = self.offset(widget) or QPointF()
        return QTransform.fromTranslate(offset.x(), offset.y())

    def widget_texts(self) -> list[Seen]:
        """The texts shown widgets draw in C++, each read as its kind lays it out."""
        found = []
        for widget in self.widgets:
            read = _reader(type(widget))
            for piece in read(widget, self.dpi) if read is not None else ():
                place = self.place(piece.on)
                view = self.view(piece.on)
                if piece.room is not None:
                    view = view & place.mapRect(piece.room)
                found.append(Seen(piece.text, piece.px * self.dpr, place.mapRect(piece.box),
                                  place.mapRect(piece.ink), view, "widget", describe(widget),
                                  None if piece.script_px is None
                                  else piece.script_px * self.dpr, widget))
        return found

    def views(self) -> list[QGraphicsView]:
        return [w for w in self.widgets
                if isinstance(w, QGraphicsView) and w.scene() is not None]

    def painted(self) -> list[Seen]:
        """Renders `top` once (and any Python-painted widget wholly out of view on its own,
        which Qt would not paint) with the painter's text calls recorded."""
        axes = [item for view in self.views() for item in view.items()
                if isinstance(item, pg.AxisItem)]
        kept = [item.cacheMode() for item in axes]
        for item in axes:  # drawn afresh, so its tick texts are seen (the app keeps a pixmap)
            item.picture = None
            item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        recorder = _Recorder()
        try:
            self._render(recorder)
        finally:
            for item, mode in zip(axes, kept, strict=True):
                item.setCacheMode(mode)
        return self._strokes_seen(recorder)

    def _render(self, recorder: _Recorder) -> None:
        with _recording(recorder):
            recorder.to_top = QTransform.fromScale(1 / self.dpr, 1 / self.dpr)
            # QWidget's render: a QGraphicsView's own render() draws its scene instead
            QWidget.render(self.top, _canvas(self.top.width(), self.top.height(), self.dpr))
            done: list[QWidget] = []
            for widget in self.widgets:
                if (_paints_in_python(type(widget)) and self.view(widget).isEmpty()
                        and not widget.size().isEmpty()
                        and not any(d.isAncestorOf(widget) for d in done)):
                    done.append(widget)
                    recorder.to_top = QTransform.fromScale(1 / self.dpr, 1 / self.dpr) * \
                        self.place(widget)
                    QWidget.render(widget, _canvas(widget.width(), widget.height(), self.dpr))

    def _strokes_seen(self, recorder: _Recorder) -> list[Seen]:
        found = []
        for stroke in recorder.strokes:
            device = stroke.device
            if self.offset(device) is None:  # another window's painting
                continue
            view = self.view(device)
            for clip in stroke.clips:
                view = view & stroke.to_top.mapRect(clip)
            found.append(Seen(stroke.text, stroke.px, stroke.to_top.mapRect(stroke.box),
                              stroke.to_top.mapRect(stroke.ink), view, "painted",
                              f"painted by {stroke.owner} in {describe(device)}",
                              stroke.script_px, device))
        return found

    def items(self) -> list[Seen]:
        """Text items of every shown QGraphicsView, hidden ones and those outside the
        viewport left out."""
        found = []
        for view in self.views():
            port = view.viewport()
            place, seen_rect = self.place(port), QRectF(port.rect())
            to_port = view.viewportTransform()
            ratio = port.devicePixelRatioF()
            for item in view.items():
                if isinstance(item, QGraphicsTextItem):
                    text, margin = item.toPlainText(), item.document().documentMargin()
                    px, script_px = _document_sizes(item.document(), self.dpi)
                    font = _one_font(item.document())
                elif isinstance(item, QGraphicsSimpleTextItem):
                    text, margin, font = item.text(), 0.0, item.font()
                    px, script_px = font_px(font, self.dpi), None
                else:
                    continue
                if not text.strip() or not item.isVisible() or item.effectiveOpacity() <= 0:
                    continue
                transform = item.deviceTransform(to_port)
                local = item.boundingRect().adjusted(margin, margin, -margin, -margin)
                box = transform.mapRect(local)
                ink = local if font is None else _ink(text, font, local)
                if not box.intersects(seen_rect):
                    continue
                room = QRectF(seen_rect)
                parent: QGraphicsItem | None = item.parentItem()
                while parent is not None:
                    if parent.flags() & QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape:
                        room = room & parent.deviceTransform(to_port).mapRect(
                            parent.boundingRect())
                    parent = parent.parentItem()
                scale = _scale(transform) * ratio
                found.append(Seen(text, px * scale, place.mapRect(box),
                                  place.mapRect(transform.mapRect(ink)),
                                  self.view(port) & place.mapRect(room), "item",
                                  f"{_item_name(item)} in {describe(view)}",
                                  None if script_px is None else script_px * scale, item))
        return found


def _one_font(document: QTextDocument) -> QFont | None:
    """The font of a text in one font (as pyqtgraph's labels are); None for mixed ones."""
    fonts: dict[tuple[str, ...], QFont] = {}
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            font = fragments.fragment().charFormat().font()
            fonts[_font_key(font)] = font
            fragments += 1
        block = block.next()
    return next(iter(fonts.values())) if len(fonts) == 1 else None


def _item_name(item: QGraphicsItem) -> str:
    """The pyqtgraph item a Qt text item serves (TextItem, LabelItem, an axis's title)."""
    parent = item.parentItem()
    if isinstance(parent, pg.TextItem | pg.LabelItem):
        return type(parent).__name__
    if isinstance(parent, pg.AxisItem):
        return f"AxisItem({parent.orientation}) title"
    return type(item).__name__


def _is_viewport(widget: QWidget) -> bool:
    area = widget.parentWidget()
    return isinstance(area, QAbstractScrollArea) and area.viewport() is widget


def describe(widget: QWidget) -> str:
    """A widget as a test failure names it: class, object name, the nearest named ancestor."""
    if widget.parentWidget() is not None and (
            _is_viewport(widget) or widget.objectName().startswith("qt_")):
        return describe(widget.parentWidget())  # a scroll area's viewport, a container
    name = f"{type(widget).__name__} '{widget.objectName()}'" if widget.objectName() else (
        type(widget).__name__)
    parent = widget.parentWidget()
    while parent is not None and not widget.objectName():
        if parent.objectName() and not parent.objectName().startswith("qt_"):
            return f"{name} in {type(parent).__name__} '{parent.objectName()}'"
        parent = parent.parentWidget()
    return name


def _deduped(widgets: list[Seen], painted: list[Seen], items: list[Seen]) -> list[Seen]:
    """One record per thing seen: a widget that paints its own text in Python is measured
    where it paints; a text recorded twice in one place counts once."""
    painted_by = {(id(s.owner), s.text) for s in painted}
    kept, places = [], set()
    for seen in [*(w for w in widgets if (id(w.owner), w.text) not in painted_by), *painted,
                 *items]:
        place = (seen.text, *(round(v) for v in seen.rect.getRect()))
        if place not in places:
            places.add(place)
            kept.append(seen)
    return kept


# ---- the checks -------------------------------------------------------------------------

def seen_texts(top: QWidget) -> list[Seen]:
    """Every text a viewer sees inside `top` (shown widgets, their painted text, their
    scenes' text items), measured in device pixels; rectangles in `top`'s coordinates."""
    walk = _Walk(top)
    return _deduped(walk.widget_texts(), walk.painted(), walk.items())


def too_small(seen: Iterable[Seen], least_px: float = STAGE_MIN_PX,
              script_least_px: float | None = None) -> list[Seen]:
    """Texts whose letters are under `least_px` device pixels (their sub/superscripts under
    `script_least_px`, when given), scrolled away or not: the stage must not scroll."""
    return [s for s in seen if round(s.px, 2) < least_px or (
        script_least_px is not None and s.script_px is not None
        and round(s.script_px, 2) < script_least_px)]


def overlapping(seen: Iterable[Seen], tolerance_px: float = 1.0) -> list[tuple[Seen, Seen]]:
    """Pairs of shown texts whose visible parts cross by more than `tolerance_px` each way.
    The same text twice over itself (a widget and its own painting) is one thing, not two."""
    shown = sorted((s for s in seen if s.visible), key=lambda s: s.shown.left())
    pairs = []
    for i, first in enumerate(shown):
        a = first.shown
        for second in shown[i + 1:]:
            b = second.shown
            if b.left() >= a.right() - tolerance_px:
                break
            cross = a & b
            if cross.width() <= tolerance_px or cross.height() <= tolerance_px:
                continue
            smaller = min(a.width() * a.height(), b.width() * b.height())
            if first.text == second.text and cross.width() * cross.height() >= smaller / 2:
                continue
            pairs.append((first, second))
    return pairs


def clipped(seen: Iterable[Seen]) -> list[Seen]:
    """Texts not wholly in view: cut by their widget, an ancestor or their room, or
    scrolled away."""
    return [s for s in seen if s.clipped]


def scroll_bars_showing(top: QWidget) -> list[QWidget]:
    """Shown scroll bars, and scroll areas whose content is larger than their viewport with
    no bar to say so (a policy of ScrollBarAlwaysOff hides a cut)."""
    walk = _Walk(top)
    bars = [w for w in walk.widgets if isinstance(w, QScrollBar)
            and not walk.view(w).isEmpty()]
    hidden_cuts = [w for w in walk.widgets if isinstance(w, QAbstractScrollArea)
                   and not isinstance(w, QGraphicsView)  # pyqtgraph pans its own range
                   and any(b.maximum() > b.minimum() and b not in bars
                           for b in (w.horizontalScrollBar(), w.verticalScrollBar()))]
    return [*bars, *hidden_cuts]


def broken_inside(top: QWidget, tokens: Iterable[str] = ()) -> list[Break]:
    """Numbers (with their unit) and the given token names that a shown word-wrapped label
    splits across lines, laid out at the label's width as QLabel lays them out."""
    walk, names, found = _Walk(top), [t for t in tokens if t], []
    for label in walk.widgets:
        if not isinstance(label, QLabel) or not label.wordWrap() or not label.text().strip():
            continue
        width = label.contentsRect().width() - 2 * label.margin()
        laid = _laid_out(label.text(), _is_rich(label.text(), label.textFormat()),
                         label.font(), max(width, 1), walk.dpi)
        block = laid.document.begin()
        while block.isValid():
            layout, text = block.layout(), block.text()
            starts = [layout.lineAt(n).textStart() for n in range(1, layout.lineCount())]
            spans = [m.span() for m in NUMBER.finditer(text)] + [
                (at, at + len(name)) for name in names
                for at in (m.start() for m in re.finditer(re.escape(name), text))]
            for start, end in spans:
                cuts = [p for p in starts if start < p < end]
                if cuts:
                    edges = [start, *cuts, end]
                    found.append(Break(text[start:end], tuple(
                        text[a:b].strip() for a, b in itertools.pairwise(edges)),
                        laid.plain, describe(label)))
            block = block.next()
    return found


def report(problems: Iterable[object], title: str = "") -> str:
    """Failures as an assertion message: what, how large, where."""
    lines = [title] if title else []
    for problem in problems:
        if isinstance(problem, Seen):
            lines.append(_seen_line(problem))
        elif isinstance(problem, tuple):
            first, second = problem
            lines.append(f"{_seen_line(first)}\n    overlaps {_seen_line(second)}")
        elif isinstance(problem, Break):
            lines.append(f"{problem.piece!r} split as {' / '.join(problem.lines)} in "
                         f"{problem.where}: {problem.text[:60]!r}")
        elif isinstance(problem, QScrollBar | QAbstractScrollArea):
            lines.append(f"{describe(problem)} scrolls ({_ranges(problem)})")
        elif isinstance(problem, QWidget):
            lines.append(describe(problem))
        else:
            lines.append(repr(problem))
    return "\n".join(lines)


def _seen_line(seen: Seen) -> str:
    r = seen.rect
    script = f" (scripts {seen.script_px:.1f} px)" if seen.script_px is not None else ""
    state = "" if not seen.clipped else " clipped" if seen.visible else " out of view"
    return (f"{seen.px:5.1f} px{script} {seen.text[:50]!r} — {seen.where} at "
            f"({r.x():.0f}, {r.y():.0f}) {r.width():.0f}×{r.height():.0f}{state}")


def _ranges(widget: QWidget) -> str:
    if isinstance(widget, QScrollBar):
        return f"range {widget.minimum()}…{widget.maximum()}"
    bars = (widget.horizontalScrollBar(), widget.verticalScrollBar())
    return ", ".join(f"{side} {b.maximum() - b.minimum()} px hidden"
                     for side, b in zip(("across", "down"), bars, strict=True) if b.maximum())



def lesson_tokens(data: object) -> list[str]:
    """The lesson's token names (both worlds), longest first: never broken inside."""
    names = {data.dialogue.query_token, *data.dialogue.key_tokens,  # type: ignore[attr-defined]
             *data.teaching.tokens}  # type: ignore[attr-defined]
    return sorted(names, key=len, reverse=True)


def problems(top: QWidget, tokens: Iterable[str] = (), seen: list[Seen] | None = None,
               script_least_px: float | None = None) -> dict[str, list[object]]:
    """The stage's legibility contract on `top` as it is now, by kind of problem (only the
    kinds found): too small, on top of each other, cut off, scrolling, broken inside."""
    seen = seen_texts(top) if seen is None else seen
    found: dict[str, list[object]] = {
        "smaller than 18 px": list(too_small(seen, script_least_px=script_least_px)),
        "labels on top of each other": list(overlapping(seen)),
        "cut off or out of view": list(clipped(seen)),
        "scroll bars": list(scroll_bars_showing(top)),
        "broken inside a number or token": list(broken_inside(top, tokens)),
    }
    return {kind: items for kind, items in found.items() if items}
