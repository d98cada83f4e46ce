"""The match table of a large import: a cell's text is made when it is first read, and the
columns are measured a part per event-loop turn, to the widths that measuring every text at
once gives (sizes and texts as a lesson's five rows have them; timings: the benchmark)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from app.model.capture import capture_from_arrays
from app.ui.format import format_score
from app.ui.panels.match.model import COLUMNS, SORT_ROLE
from app.ui.panels.match.panel import MatchTablePanel

T = 3000


def _imported(panel: MatchTablePanel) -> None:
    rng = np.random.default_rng(11)
    arrays = {"q": rng.standard_normal((T, 8)).astype(np.float32),
              "k": rng.standard_normal((T, 8)).astype(np.float32)}
    document = panel.document
    document.import_capture(capture_from_arrays(arrays, [f"w{i}" for i in range(T)]))
    document.finish_import()
    document.flush()


def _every_width(panel: MatchTablePanel) -> tuple[int, ...]:
    """Each column's widest text measured the plain way: every row, both name modes."""
    model = panel.model
    bold = model.data(model.index(0, 0), Qt.ItemDataRole.FontRole)  # the key column's
    fonts = [QFontMetrics(model.font), QFontMetrics(bold)]
    widths = []
    for column in range(len(COLUMNS)):
        texts = [(column == 0 or row in model.rows.flagged, model.index(row, column).data())
                 for row in range(model.rowCount())]
        if column == 0:
            texts += [(True, name) for name in (*model.rows.names, *model.rows.short_names)]
        widths.append(max(fonts[bold].horizontalAdvance(text) for bold, text in texts))
    return tuple(widths)


def test_a_large_import_is_measured_over_turns_to_the_widths_of_every_text(qtbot, open_panel):
    panel = open_panel(MatchTablePanel, (1200, 420))
    _imported(panel)
    assert panel.model.rowCount() == T
    assert panel._measurer.isActive(), "measured in later turns"
    qtbot.waitUntil(lambda: not panel._measurer.isActive() and panel._fitted is not None)
    assert panel.model.widest() == _every_width(panel)
    assert panel.table.maximumWidth() >= sum(panel.model.widest()[c] for c in range(
        len(COLUMNS)) if not panel.table.isColumnHidden(c))


def test_a_large_import_formats_the_cells_it_shows_when_they_are_read(qtbot, open_panel):
    panel = open_panel(MatchTablePanel, (1200, 420))
    _imported(panel)
    model, view = panel.model, panel.document.view
    column = COLUMNS.index("dot")
    made = sum(text is not None for text in model._texts[column])
    assert made < T, "not every row's text is made when the import lands"
    last = T - 1
    assert model.index(last, column).data() == format_score(float(view.row_scores["dot"][last]))


def _shown_keys(panel: MatchTablePanel) -> list[int]:
    proxy = panel.proxy
    return [proxy.mapToSource(proxy.index(row, 0)).row() for row in range(proxy.rowCount())]


def _compared_order(panel: MatchTablePanel, column: str, descending: bool) -> list[int]:
    """The rows as a comparison sort of the column's numbers puts them: stable (ties in key
    order), the undefined cells last in either direction."""
    model = panel.model
    cells = [(model.index(row, COLUMNS.index(column)).data(SORT_ROLE), row)
             for row in range(model.rowCount())]
    defined = sorted(((value, row) for value, row in cells if value is not None),
                     key=lambda cell: -cell[0] if descending else cell[0])
    return [row for _, row in defined] + [row for value, row in cells if value is None]


def test_a_large_import_sorts_every_row_by_number_with_the_undefined_last(qtbot, open_panel):
    panel = open_panel(MatchTablePanel, (1200, 420))
    _imported(panel)
    document = panel.document
    keys = document.state.vectors[1]
    document.set_vector("k", 5, np.zeros(keys.shape[1]))  # its cosine is undefined
    document.set_vector("k", 9, keys[3])  # a tie with key 3 under every scorer
    document.flush()
    assert panel.model.index(5, COLUMNS.index("cosine")).data(SORT_ROLE) is None
    for column in ("dot", "cosine", "cosine_rank", "norm", "key"):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            panel.table.sortByColumn(COLUMNS.index(column), order)
            descending = order == Qt.SortOrder.DescendingOrder
            assert _shown_keys(panel) == _compared_order(panel, column, descending), column


def test_a_sorted_large_import_moves_an_edited_key_to_its_place_and_keeps_it_current(
        qtbot, open_panel):
    panel = open_panel(MatchTablePanel, (1200, 420))
    _imported(panel)
    document = panel.document
    document.select(key=7)
    document.flush()
    panel.table.sortByColumn(COLUMNS.index("dot"), Qt.SortOrder.DescendingOrder)
    assert _shown_keys(panel)[0] != 7
    query = document.view.q[document.state.query]
    document.set_vector("k", 7, query * 50)  # the largest q·k of the row
    document.flush()
    assert _shown_keys(panel) == _compared_order(panel, "dot", descending=True)
    assert _shown_keys(panel)[0] == 7
    current = panel.proxy.mapToSource(panel.table.currentIndex()).row()
    assert current == 7
