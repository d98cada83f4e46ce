"""Owns the playground's numbers: q and |q|, a row per key (q·k, |k|, cos θ, θ, the active
score) and the identity q·k = |q| × |k|cos θ for the selected key, all from the view."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QTextDocument, QTextOption
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from app.i18n import tr
from app.model.scoring import SCORERS, Undefined
from app.model.scoring.worked import pair_work
from app.model.view import View
from app.ui.fonts import READING, STRONG, emphasize
from app.ui.format import UNDEFINED_TEXT, format_score, shown_name, with_gloss
from app.ui.look import Look
from app.ui.panels.playground.identity import identity_text, vector_text
from app.ui.qt_known import layout_of
from app.ui.widgets.sizes import QWIDGETSIZE_MAX
from app.ui.widgets.stage_text import unbroken
from app.ui.widgets.tips import set_tip

COLUMNS = ("key", "vector", "dot", "norm", "cos", "angle", "active")
HEADED = ("key", "vector", "dot", "norm", "cos", "angle")
"""The columns with a header (the last one only shows which key is active)."""


def rope_note(view: View) -> str | None:
    """With RoPE turning the pair, the table's q·k are the rotated ones: the note gives each
    key's RoPE-off q·k beside them, so a turn is not read as a change of match."""
    if view.baseline is None or view.baseline is view.scores:
        return None
    off = view.baseline["dot"][0]
    return tr("playground.rope_note",
              scores=tr("timeline.sep").join(format_score(float(v)) for v in off))


def _cells(row: np.ma.MaskedArray) -> list[float | None]:
    """A row's values as floats, None where masked (undefined): read once, since each
    element read from a masked array builds a masked scalar."""
    values, masked = np.ma.getdata(row).tolist(), np.ma.getmaskarray(row).tolist()
    return [None if hidden else value for value, hidden in zip(values, masked, strict=True)]


def _unpin(label: QLabel) -> None:
    """Give a label its own size again. QLabel keeps the hint it measured while pinned
    (grown to the fixed size) until its text changes; `setIndent` has it measured anew."""
    label.setMinimumSize(0, 0)
    label.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)
    label.setIndent(label.indent())


class PlaneReadouts(QWidget):
    """The table under (or beside) the plane.

    `relaid` says when its layout has settled on new texts or fonts (style sheets apply only
    once shown), so the panel can give it the height it needs.
    """

    relaid = Signal()

    def __init__(self, key_count: int, colours: list[str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # while held: each fixed text's hint before it was pinned, and the text last measured
        self._pinned: dict[QLabel, tuple[QSize, str]] = {}
        self._holding = False
        self._rows_shown: dict[int, tuple[object, ...]] = {}
        """Each key's row as last written (texts, colours, what they were made from)."""
        self._colours = colours
        self._look = Look()
        self.glosses: dict[str, str] = {}  # token → English gloss, shown beside it in English
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.query_line = QLabel(objectName="playground_query")  # type: ignore[call-overload]
        layout.addWidget(self.query_line)
        grid = self._grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(2)
        self.headers = {name: QLabel() for name in COLUMNS}
        for column, name in enumerate(COLUMNS):
            self.headers[name].setAlignment(Qt.AlignmentFlag.AlignLeft
                                            | Qt.AlignmentFlag.AlignBottom)  # beside 2 lines
            grid.addWidget(self.headers[name], 0, column)
        self.cells: list[dict[str, QLabel]] = []
        for j in range(key_count):
            row = {name: QLabel(objectName=f"playground_{name}_{j}") for name in COLUMNS}  # type: ignore[call-overload]
            for column, name in enumerate(COLUMNS):
                side = Qt.AlignmentFlag.AlignLeft if column < 2 else Qt.AlignmentFlag.AlignRight
                row[name].setAlignment(side | Qt.AlignmentFlag.AlignVCenter)
                row[name].setTextFormat(Qt.TextFormat.PlainText)  # token names, never markup
                grid.addWidget(row[name], j + 1, column)
            self.cells.append(row)
        grid.setColumnStretch(len(COLUMNS), 1)
        layout.addLayout(grid)
        self.identity = QLabel(objectName="playground_identity")  # type: ignore[call-overload]
        self.help_line = QLabel(objectName="playground_help")  # type: ignore[call-overload]
        for label in (self.identity, self.help_line):
            label.setWordWrap(True)
        for label in (self.query_line, self.identity):
            label.setTextFormat(Qt.TextFormat.PlainText)  # they name tokens: never markup
            # wrapped prose takes the width the table leaves; it must not widen the column
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            layout.addWidget(label)
        layout.addStretch(1)
        self._emphasize()

    def _emphasize(self) -> None:
        """The query line, the identity and each key's name and q·k stand out; the style
        sheets that colour the rest would freeze their fonts at a zoom, so they follow too."""
        for widget in (self.query_line, self.identity):
            emphasize(widget, STRONG, bold=True)
        for label in (*self.headers.values(), self.help_line):
            emphasize(label)
        for row in self.cells:
            for name, label in row.items():
                emphasize(label, STRONG if name in ("key", "dot") else READING,
                          bold=name in ("key", "dot", "active"))

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest:
            self.relaid.emit()
        elif event.type() == QEvent.Type.Show:
            layout_of(self).invalidate()  # fonts set while hidden (start in presentation mode)
        return handled

    def hold(self, on: bool) -> None:
        """While on (a drag), each `paint` pins every shown text to the size it has, so that
        a new number asks no layout of the table (Qt lays out nothing for a widget of fixed
        size): the table's layout pass was a tenth of a stage drag step. A text that needs
        more room than it had is let go (`_let_grown_go`), and the panel gives it room as
        before; off, every text takes its own size again."""
        self._holding = on
        if not on:
            for label in self._pinned:
                _unpin(label)
            self._pinned.clear()

    def _texts(self) -> tuple[QLabel, ...]:
        return (self.query_line, self.identity, self.help_line, *self.headers.values(),
                *(label for row in self.cells for label in row.values()))

    def _pin_shown(self) -> None:
        """Pin each shown text that has the room it needs (one that has not, after a new
        zoom or language, is laid out first and pinned at a later step)."""
        for label in self._texts():
            if label in self._pinned or label.isHidden() or label.width() <= 0:
                continue
            need = self._needed(label)
            if need.width() <= label.width() and need.height() <= label.height():
                self._pinned[label] = (label.sizeHint(), label.text())
                label.setFixedSize(label.size())

    @staticmethod
    def _needed(label: QLabel) -> QSize:
        """The room the label's text asks for: its height at its width when it wraps."""
        if label.wordWrap():
            return QSize(0, label.heightForWidth(label.width()))
        return label.sizeHint()

    def _let_grown_go(self) -> None:
        """A pinned text that now needs more room than it has is let go, so the table lays
        it out again (and the panel widens its room, see `relaid`); it is pinned again at
        its new size by the next step."""
        for label, (hint, measured) in list(self._pinned.items()):
            text = label.text()
            if text == measured:  # measuring a wrapped text is a layout of its own
                continue
            self._pinned[label] = (hint, text)
            need = self._needed(label)
            if need.width() > label.width() or need.height() > label.height():
                del self._pinned[label]
                _unpin(label)

    def cell_sizes(self) -> tuple[tuple[bool, int, int], ...]:
        """Every text's size as laid out now (hidden or not, width, height)."""
        return tuple((label.isHidden(), hint.width(), hint.height())
                     for label in self.findChildren(QLabel) for hint in (self._hint(label),))

    def _hint(self, label: QLabel) -> QSize:
        """A pinned text's hint grows to its fixed size (and a wrapped one's follows its
        maximum width): the hint it had before it was pinned stands for it, since a pinned
        text has the room it needs."""
        pinned = self._pinned.get(label)
        return label.sizeHint() if pinned is None else pinned[0]

    def full_width(self) -> int:
        """The table's width with every column shown (the coordinates too)."""
        return self.table_width(())

    def table_width(self, hidden: tuple[str, ...]) -> int:
        """The table's width with the `hidden` columns left out and every other shown (the
        score column only while it has a scorer other than the dot product to show), from
        the cells' own widths, whatever is shown now."""
        names = [name for name in HEADED if name not in hidden]
        if not self.headers["active"].isHidden():
            names.append("active")
        widths = [max(label.sizeHint().width()
                      for label in (self.headers[name], *(row[name] for row in self.cells)))
                  for name in names]
        return sum(widths) + self._grid.horizontalSpacing() * (len(widths) - 1)

    def line_width(self) -> int:
        """The widest piece of the query line and the identity that may not break (a
        formula held together by no-break spaces): the readouts are never narrower."""
        widest = 0.0
        for label in (self.query_line, self.identity):
            document = QTextDocument()
            document.setDefaultFont(label.font())
            document.setDocumentMargin(0)
            document.setDefaultTextOption(QTextOption(Qt.AlignmentFlag.AlignLeft))  # words whole
            document.setPlainText(label.text())
            document.setTextWidth(1)
            widest = max(widest, document.idealWidth())
        return math.ceil(widest) + 2

    def show_coordinates(self, on: bool) -> None:
        """The coordinates column gives way first in a narrow dock: the plane draws each
        key where it is, and every score column stays whole."""
        self.show_columns(() if on else ("vector",))

    def hidden_columns(self) -> tuple[str, ...]:
        """The headed columns left out now (see `show_columns`)."""
        return tuple(name for name in HEADED if self.headers[name].isHidden())

    def show_columns(self, hidden: tuple[str, ...]) -> None:
        """Every column but the `hidden` ones (the score column only under a scorer other
        than the dot product)."""
        for name in HEADED:
            on = name not in hidden
            for label in (self.headers[name], *(row[name] for row in self.cells)):
                if label.isHidden() == on:
                    label.setVisible(on)

    def needed_height(self, width: int) -> int:
        layout = layout_of(self)
        if layout.hasHeightForWidth():
            return layout.totalHeightForWidth(width)
        return self.sizeHint().height()

    def apply_look(self, look: Look) -> None:
        self.hold(False)  # new fonts: every text is measured again before it is pinned
        self._look = look
        self._grid.setHorizontalSpacing(round(look.px(8)))  # columns apart at every zoom
        muted = f"color: {look.theme.muted};"
        for label in (*self.headers.values(), self.help_line):
            label.setStyleSheet(muted)

    def retranslate(self) -> None:
        self.hold(False)
        for name in HEADED:
            self.headers[name].setText(tr(f"playground.col_{name}"))
        self.help_line.setText(tr("playground.help"))

    def paint(self, view: View, key: int, spotlight: bool = False) -> None:
        """Every key's row from the view; with the spotlight on, only the selected one is
        in full colour."""
        if self._holding:
            self._pin_shown()
        plane = view.plane
        assert plane is not None  # painted for the 2-D world only, which has a plane
        self.query_line.setText(unbroken(tr(  # "|q| = 3.61" on one line
            "playground.query_line", name=with_gloss(view.query_names[0], self.glosses),
            vector=vector_text(view.q[0]), norm=format_score(plane.norm_q))))
        show_active = view.scorer != "dot"
        self.headers["active"].setVisible(show_active)
        # the formula whole: never "vᵀtanh(" over "W₁q+W₂k)", the column takes its width
        self.headers["active"].setText(SCORERS[view.scorer].formula)
        why = tr("playground.cos_undefined")
        dots = np.ma.getdata(view.scores["dot"][0]).tolist()
        cosines, active = (_cells(matrix[0]) for matrix in (view.scores["cosine"], view.active))
        for j, row in enumerate(self.cells):
            name = tr("playground.k_label", number=j + 1,
                      name=with_gloss(view.key_names[j], self.glosses))
            dim = spotlight and j != key
            shown = (name, j == key, dim, self._look, self._colours[j], why, show_active,
                     view.k[j].tobytes(), dots[j], float(plane.norm_k[j]),
                     float(plane.angle_deg[j]), cosines[j], active[j])
            if shown == self._rows_shown.get(j):
                continue  # a drag step moves one key: the other rows say what they said
            self._rows_shown[j] = shown
            row["key"].setText(("▶ " if j == key else "   ") + name)
            colour = self._look.faded(self._colours[j]) if dim else self._colours[j]
            style = f"color: {colour};" + (" font-weight: bold;" if j == key else "")
            faded = f"color: {self._look.faded(self._look.theme.foreground)};" if dim else ""
            for column, label in row.items():
                wanted = style if column == "key" else faded
                if label.styleSheet() != wanted:  # restyling is costly; most drags keep it
                    label.setStyleSheet(wanted)
            row["vector"].setText(vector_text(view.k[j]))
            row["dot"].setText(format_score(dots[j]))
            row["norm"].setText(format_score(float(plane.norm_k[j])))
            angle = float(plane.angle_deg[j])
            values = {
                "cos": None if cosines[j] is None else format_score(cosines[j]),
                "angle": None if np.isnan(angle) else f"{format_score(angle, 1)}°",
                "active": None if active[j] is None else format_score(active[j]),
            }
            for column, text in values.items():
                row[column].setText(UNDEFINED_TEXT if text is None else text)
                set_tip(row[column], why if text is None else "")
            row["active"].setVisible(show_active)
        work = pair_work(view, 0, key)
        self.identity.setText(identity_text(work, shown_name(view.key_names[key]), plane))
        set_tip(self.identity, why if work is None or isinstance(work.total, Undefined)
                or isinstance(plane.projection, Undefined) else "")
        self.help_line.setText(rope_note(view) or tr("playground.help"))
        if self._holding:
            self._let_grown_go()
