"""Owns the heatmap's two lesson choices: which matrix the teaching world shows (projected
Q·Kᵀ or the embeddings' own cosine E·Eᵀ) and, in weights mode, how long q is.

Both are undoable `Options` fields, so they go through the document like every other edit;
the widgets here only mirror the state, with their signals held while they do.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.lesson.scenes import load_scenes
from app.model.scoring import SCORERS
from app.model.state import HEATMAP_SOURCES, Q_SCALES, LabState
from app.model.view import View
from app.state.document import Document
from app.ui.fonts import restrain
from app.ui.format import format_number, pair_formula, pair_symbol, shown_name
from app.ui.widgets.tips import set_tip


@cache
def weights_lesson(data_dir: Path) -> int:
    """The course lesson that teaches softmax, from the lesson file (never typed in here)."""
    return load_scenes(data_dir).lesson_numbers["weights"]


def scale_text(scale: float) -> str:
    """×0.25 … ×4, as the control and the formula print a length of q."""
    return f"×{scale:g}"


def scaled_query(formula: str, query_symbol: str, scale: float) -> str:
    """The formula with q lengthened: "q_给了·k_j" at ×4 → "4q_给了·k_j", so the class sees
    the 4 cancel in cosine's quotient and survive in the dot product."""
    if scale == 1.0:
        return formula
    factor = scale_text(scale)[1:]
    return formula.replace(query_symbol, f"{factor}{query_symbol}")


def weights_formula(state: LabState, query: str, key: str) -> str:
    """softmax over the row of the selected scorer, at the chosen length of q."""
    each = scaled_query(pair_formula(SCORERS[state.scorer].formula, query, "j"),
                        pair_symbol("q", query), state.options.q_scale)
    return f"softmax_j({each})[{key}]"


def lesson_info(state: LabState, view: View, embeddings: bool, value: str) -> str:
    """The size line, plus, in the teaching world, which matrix is on screen and where the
    highlighted cell (its score printed as `value`) ranks on its row: the caption speaks of
    the pair the class is looking at. On the query's own cell: first among the embeddings,
    last after the projections."""
    rows, cols = len(view.query_names), len(view.key_names)
    # digits grouped in both languages: the app writes counts in 亿 only from 10⁸, and an
    # import stops at 4,096 × 4,096 = 16,777,216
    text = tr("heatmap.lesson_info", rows=format_number(rows), cols=format_number(cols),
              pairs=format_number(rows * cols))
    if view.embeddings is None or (state.options.heatmap_mode == "weights" and not embeddings):
        return text
    row = state.query
    own = view.embeddings.row_ranks if embeddings else view.row_ranks.get(state.scorer)
    if own is None or row >= len(own):
        return text
    shown = tr("heatmap.shows_e") if embeddings else tr(
        "heatmap.shows_qk", scorer=tr(f"scorer.{state.scorer}"))
    token, key = view.query_names[row], view.key_names[state.key]
    if key == token:
        return tr("heatmap.self_rank", shows=shown, token=shown_name(token),
                  rank=int(own[state.key]), count=len(own))
    return tr("heatmap.cell_rank", shows=shown, token=shown_name(token), key=shown_name(key),
              value=value, rank=int(own[state.key]), count=len(own))


class HeatmapChoices:
    """The source toggle (teaching world: pressed, the embeddings' cosine; released, the
    projected Q·Kᵀ) and the q-length slider with its one-line note."""

    def __init__(self, document: Document, parent: QWidget) -> None:
        self.document = document
        self.e_button = QPushButton(parent, objectName="heatmap_source_e", checkable=True)  # type: ignore[call-overload]
        self.e_button.toggled.connect(
            lambda on: document.set_options(heatmap_source=HEATMAP_SOURCES[int(on)]))
        self.length_label = QLabel(parent)
        self.slider = QSlider(Qt.Orientation.Horizontal, parent, objectName="heatmap_q_scale")  # type: ignore[call-overload]
        self.slider.setRange(0, len(Q_SCALES) - 1)
        self.slider.setPageStep(1)
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.slider.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.slider.valueChanged.connect(
            lambda i: document.set_options(q_scale=Q_SCALES[i]))
        self.value_label = QLabel(parent, objectName="heatmap_q_scale_value")  # type: ignore[call-overload]
        self.note = QLabel(parent, objectName="heatmap_weights_note")  # type: ignore[call-overload]
        self.note.setWordWrap(True)
        for widget in (self.e_button, self.length_label, self.value_label):
            restrain(widget)
        length = QHBoxLayout()
        length.addWidget(self.length_label)
        length.addWidget(self.slider, 1)
        length.addWidget(self.value_label)
        self.length_row = QVBoxLayout()
        self.length_row.addLayout(length)
        self.length_row.addWidget(self.note)

    # --- what the state asks for -----------------------------------------------------------

    @staticmethod
    def shows_embeddings(state: LabState, view: View) -> bool:
        """The embeddings' cosine is on screen: chosen, and this world has the E it needs."""
        return (state.options.heatmap_source == "embeddings" and view.embeddings is not None
                and not state.options.scale_mode)

    def sync(self, state: LabState, view: View, stage: bool = False) -> None:
        """Mirror the state; the source row only where there are embeddings to compare, the
        length row only where weights are shown, and neither on the stage (the scene chose)."""
        options = state.options
        embeddings = self.shows_embeddings(state, view)
        teaching = state.world == "teaching" and not options.scale_mode
        self.e_button.setVisible(teaching and not stage)
        self.e_button.setEnabled(view.embeddings is not None)
        set_tip(self.e_button, tr("heatmap.source_tip") if view.embeddings is not None
                else tr("heatmap.source_reshaped"))
        with QSignalBlocker(self.e_button):
            self.e_button.setChecked(embeddings)
        weights = options.heatmap_mode == "weights" and not embeddings and not options.scale_mode
        for widget in (self.length_label, self.slider, self.value_label, self.note):
            widget.setVisible(weights and not stage)
        with QSignalBlocker(self.slider):
            self.slider.setValue(Q_SCALES.index(options.q_scale))
        self.value_label.setText(scale_text(options.q_scale))

    def retranslate(self) -> None:
        self.e_button.setText(tr("heatmap.source_e"))
        self.length_label.setText(tr("heatmap.q_length"))
        self.slider.setToolTip(tr("heatmap.q_length_tip", low=scale_text(Q_SCALES[0]),
                                  high=scale_text(Q_SCALES[-1])))
        self.note.setText(tr("heatmap.weights_note",
                             lesson=weights_lesson(self.document.data.data_dir)))
