"""Owns the editor's token rows as built and as the projector's stage shows them: each token's
name cell, their fonts, look and words, their places in the grid, which tokens are in view
on the stage (all of them where they fit, else the selected pair's: a stage never scrolls)
and the room the rows take."""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QBoxLayout,
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QWidget,
)

from app.i18n import tr
from app.ui.fonts import DISPLAY, READING, SMALL, emphasize
from app.ui.format import plain_tip
from app.ui.look import SELECTION_COLOUR, Look
from app.ui.panels.editor.charts import (
    FINE_DECIMALS,
    ROLES,
    SNAP,
    VectorChart,
    stacked_width,
)
from app.ui.panels.editor.title import LESSON_D
from app.ui.qt_known import layout_of


def token_cell(token: int, name: str, colour: str, groups: dict[str, QButtonGroup],
               ) -> tuple[QWidget, QLabel, QLabel, dict[str, QPushButton]]:
    """A token's name, its English gloss (hidden in Chinese) and its q and k buttons."""
    cell = QWidget()
    layout = QBoxLayout(QBoxLayout.Direction.TopToBottom, cell)
    layout.setContentsMargins(0, 0, 0, 0)
    label = QLabel(name, objectName=f"editor_name_{token}")  # type: ignore[call-overload]
    label.setStyleSheet(f"color: {colour};")
    label.setTextFormat(Qt.TextFormat.PlainText)  # a token name from data, never markup
    layout.addWidget(label)
    gloss = QLabel(objectName=f"editor_gloss_{token}")  # type: ignore[call-overload]  # English only: "(gave)"
    gloss.setTextFormat(Qt.TextFormat.PlainText)
    layout.addWidget(gloss)
    row = QHBoxLayout()
    buttons = {}
    for role in ROLES:
        button = QPushButton(role, objectName=f"editor_pick_{role}_{token}", checkable=True)  # type: ignore[call-overload]
        groups[role].addButton(button, token)
        buttons[role] = button
        row.addWidget(button)
    layout.addLayout(row)
    layout.addStretch(1)
    return cell, label, gloss, buttons


def word_tokens(tokens: tuple[str, ...], glosses: dict[str, str], gloss_labels: list[QLabel],
                pick_buttons: dict[tuple[str, int], QPushButton],
                charts: dict[tuple[str, int], VectorChart]) -> None:
    """Each token's English gloss (none in Chinese) and the tooltips of its buttons, charts
    and entry boxes (tooltips are rich text: the names are escaped)."""
    for token, label in enumerate(gloss_labels):
        gloss = glosses.get(tokens[token])
        label.setText(f"({gloss})" if gloss else "")
        label.setVisible(bool(gloss))
    tips = {"q": "editor.pick_query_tip", "k": "editor.pick_key_tip"}
    for (role, token), button in pick_buttons.items():
        button.setToolTip(plain_tip(tr(tips[role], name=tokens[token])))
    steps = {"snap": f"{SNAP:g}", "fine": f"{10 ** -FINE_DECIMALS:g}"}
    for (role, token), chart in charts.items():
        nudge = f"{chart.boxes[0].singleStep():g}"
        chart.plot.setToolTip(plain_tip(tr("editor.chart_tip", role=role, name=tokens[token],
                                           step=nudge, **steps)))
        for dim, box in enumerate(chart.boxes):
            box.setToolTip(plain_tip(tr("editor.entry_tip", role=role, name=tokens[token],
                                        dim=dim + 1, step=nudge)))


def clear_rows(grid: QGridLayout, groups: dict[str, QButtonGroup],
               buttons: dict[tuple[str, int], QPushButton], widgets: list[QWidget]) -> None:
    """Take the rows' widgets out of the grid and their buttons out of the groups."""
    for (role, _token), button in buttons.items():
        groups[role].removeButton(button)
    for widget in widgets:
        grid.removeWidget(widget)
        widget.hide()
        widget.deleteLater()


def emphasize_rows(dims: int, names: list[QLabel], marks: list[QWidget],
                   charts: dict[tuple[str, int], VectorChart]) -> None:
    """Token names, pick buttons, the q/k marks and the numbers typed stand out from the
    inherited font; the muted gloss and help line follow it through their style sheets."""
    for label in names:
        emphasize(label, DISPLAY, bold=True)
    for widget in marks:
        emphasize(widget, READING, bold=True)
    for chart in charts.values():
        for box in chart.boxes:
            emphasize(box, READING if dims <= LESSON_D else SMALL)  # 8 fit a row


def style_rows(look: Look, glosses: list[QLabel],
               buttons: dict[tuple[str, int], QPushButton],
               charts: dict[tuple[str, int], VectorChart]) -> None:
    """The look's colours and sizes on every token's gloss, buttons and chart. The entry
    boxes size themselves: each is as wide as the widest number it holds in its own font."""
    theme = look.theme
    for gloss in glosses:
        gloss.setStyleSheet(f"color: {theme.muted};")
    for button in buttons.values():
        button.setMinimumWidth(int(look.px(34)))
        button.setStyleSheet(
            f"QPushButton:checked {{ background: {SELECTION_COLOUR}; color: white; }}")
    for chart in charts.values():
        chart.plot.setBackground(theme.background)
        chart.plot.setFixedHeight(int(look.px(50)))
        chart.bars.set_edge_width(look.px(2.5))


def lay_out_rows(grid: QGridLayout, headers: dict[str, QLabel],
                 marks: dict[tuple[str, int], QLabel], cells: list[QWidget],
                 charts: dict[tuple[str, int], VectorChart], narrow: bool) -> None:
    """Put every token's cell and charts in the grid: the charts side by side beside the
    cell under the role headers, or (narrow) the cell across above the charts, each chart
    marked with its role."""
    rows = 3 if narrow else 1
    for widget in (*headers.values(), *marks.values(), *cells,
                   *(chart.widget for chart in charts.values())):
        grid.removeWidget(widget)
        widget.setVisible(widget not in marks.values() or narrow)
    if not narrow:
        grid.addWidget(headers["q"], 0, 2)
        grid.addWidget(headers["k"], 0, 3)
    for token, cell in enumerate(cells):
        top = 1 + rows * token
        grid.addWidget(cell, top, 0, 1, 3 if narrow else 1)
        cast(QBoxLayout, layout_of(cell)).setDirection(  # a token cell's is a box layout
            QBoxLayout.Direction.LeftToRight if narrow else QBoxLayout.Direction.TopToBottom)
        for index, role in enumerate(ROLES):
            row, column = (top + 1 + index, 2) if narrow else (top, 2 + index)
            if narrow:
                grid.addWidget(marks[(role, token)], row, 1)
            grid.addWidget(charts[(role, token)].widget, row, column)
    for header in headers.values():
        header.setVisible(not narrow)
    grid.setColumnStretch(2, 1)
    grid.setColumnStretch(3, 0 if narrow else 1)


def wide_width(cells: list[QWidget], names: list[QLabel], chart: QWidget, spacing: int,
               stage: bool) -> int:
    """The grid's least width with two charts per token beside its name: on the stage, the
    names as shown now ("▶ 苹果"), measured afresh rather than from the cells' cached sizes."""
    widest = max(stacked_width(cell) for cell in cells)
    if stage:
        widest = max(widest, *(label.minimumSizeHint().width() for label in names
                               if not label.isHidden()))
    return widest + 2 * chart.minimumSizeHint().width() + 2 * spacing + 4


def narrow_width(cells: list[QWidget], marks: list[QLabel], chart: QWidget,
                 spacing: int) -> int:
    """The grid's least width with k under q: each token's name, gloss and buttons in a row
    above its charts, each chart beside its role mark. Measured from the parts, whichever
    arrangement is laid out now, as `wide_width` is."""
    widest = max(lined_width(cell) for cell in cells)
    mark = max(label.minimumSizeHint().width() for label in marks)
    return max(widest, mark + spacing + chart.minimumSizeHint().width()) + 2 * spacing + 4


def lined_width(cell: QWidget) -> int:
    """A token cell's width in the narrow layout (name, gloss and buttons in a row)."""
    layout = layout_of(cell)
    margins = layout.contentsMargins()
    items = [item for i in range(layout.count()) if (item := layout.itemAt(i)) is not None]
    shown = [item.minimumSize().width() for item in items if not item.isEmpty()]
    return sum(shown) + layout.spacing() * max(len(shown) - 1, 0) + (
        margins.left() + margins.right())


def rows_height(grid: QGridLayout, headers: dict[str, QLabel], narrow: bool,
                rows: list[tuple[QWidget, list[VectorChart]]]) -> int:
    """The height the grid takes with these token rows: each token's cell beside its charts
    (under the role headers), or (narrow) its cell above its charts one under the other."""
    spacing = grid.verticalSpacing()
    margins = grid.contentsMargins()
    total = margins.top() + margins.bottom()
    if not narrow:
        total += max(h.sizeHint().height() for h in headers.values()) + spacing
    for cell, charts in rows:
        chart = max(c.widget.minimumSizeHint().height() for c in charts)
        if narrow:
            total += cell.minimumSizeHint().height() + len(charts) * (chart + spacing) + spacing
        else:
            total += max(cell.minimumSizeHint().height(), chart) + spacing
    return total


def show_rows(shown: tuple[int, ...], cells: list[QWidget],
              charts: dict[tuple[str, int], VectorChart],
              marks: dict[tuple[str, int], QLabel], narrow: bool) -> None:
    """Show the rows of the tokens `shown` and hide the others' (a role mark only when
    narrow, where it heads each chart)."""
    for token, cell in enumerate(cells):
        on = token in shown
        cell.setVisible(on)
        for role in ROLES:
            charts[(role, token)].widget.setVisible(on)
            marks[(role, token)].setVisible(on and narrow)


def stage_tokens(count: int, pair: tuple[int, int], fits_all: bool) -> tuple[int, ...]:
    """The tokens the stage shows: every one if they all fit, else the query's and the
    key's (once, in token order, if they are the same)."""
    if fits_all:
        return tuple(range(count))
    return tuple(sorted({token for token in pair if 0 <= token < count}))
