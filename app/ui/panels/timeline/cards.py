"""Owns the words and numbers of timeline cards and guide sections, and the keyboard stage strip.

Every number is a `Figure.value` from `lesson_figures()` or a field of the loaded data,
printed at the precision the lesson prints it (`decimals_of(published)`); nothing is typed.
"""

from __future__ import annotations

import html
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QToolButton, QWidget

from app.i18n import tr
from app.model.breakdown import breakdown
from app.model.data import LessonData
from app.model.figures import EXAMPLE, Figure, decimals_of
from app.model.modelconfig import Claim
from app.model.timeline import STAGES, TRACKS, Stage, stage
from app.ui.fonts import ui_font
from app.ui.look import OKABE_ITO, Look

STAGE_KEYS: dict[str, tuple[str, str, str, str]] = {
    "rnn": ("timeline.rnn.chip", "timeline.rnn.name", "timeline.rnn.solved",
            "timeline.rnn.stuck"),
    "additive": ("timeline.additive.chip", "timeline.additive.name",
                 "timeline.additive.solved", "timeline.additive.stuck"),
    "self_attention": ("timeline.self_attention.chip", "timeline.self_attention.name",
                       "timeline.self_attention.solved", "timeline.self_attention.stuck"),
    "scaled_softmax": ("timeline.scaled_softmax.chip", "timeline.scaled_softmax.name",
                       "timeline.scaled_softmax.solved", "timeline.scaled_softmax.stuck"),
    "causal": ("timeline.causal.chip", "timeline.causal.name", "timeline.causal.solved",
               "timeline.causal.stuck"),
    "rope": ("timeline.rope.chip", "timeline.rope.name", "timeline.rope.solved",
             "timeline.rope.stuck"),
    "multi_head": ("timeline.multi_head.chip", "timeline.multi_head.name",
                   "timeline.multi_head.solved", "timeline.multi_head.stuck"),
    "sink": ("timeline.sink.chip", "timeline.sink.name", "timeline.sink.solved",
             "timeline.sink.stuck"),
    "kv_cache": ("timeline.kv_cache.chip", "timeline.kv_cache.name",
                 "timeline.kv_cache.solved", "timeline.kv_cache.stuck"),
    "mqa": ("timeline.mqa.chip", "timeline.mqa.name", "timeline.mqa.solved",
            "timeline.mqa.stuck"),
    "gqa": ("timeline.gqa.chip", "timeline.gqa.name", "timeline.gqa.solved",
            "timeline.gqa.stuck"),
    "mla": ("timeline.mla.chip", "timeline.mla.name", "timeline.mla.solved",
            "timeline.mla.stuck"),
    "linear": ("timeline.linear.chip", "timeline.linear.name", "timeline.linear.solved",
               "timeline.linear.stuck"),
}
"""(chip, name, solved, stuck) string keys per stage id, written out so every key is a literal."""

TRACK_KEYS = {"training": ("timeline.track.training_short", "timeline.track.training"),
              "generation": ("timeline.track.generation_short", "timeline.track.generation")}
SIZE_UNITS = ("KiB", "MiB", "GiB")
HERE_COLOUR = OKABE_ITO[1]


def rich_label(name: str, selectable: bool = False) -> QLabel:
    """A wrapping rich-text label aligned top-left, as the cards and the guide's page use;
    `selectable` lets students copy the guide's prose (not the live readouts)."""
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _rounded(value: float, places: int) -> str:
    """Half-up rounding of the shortest decimal form, as a reader rounds what they see."""
    step = Decimal(1).scaleb(-places)
    text = str(Decimal(repr(float(value))).quantize(step, rounding=ROUND_HALF_UP))
    if text.startswith("-") and Decimal(text) == 0:
        text = text[1:]
    return text


def format_number(value: float, places: int = 0) -> str:
    """Fixed decimals, thousands separators, a real minus sign."""
    text = _rounded(value, places)
    whole, _, fraction = text.lstrip("-").partition(".")
    grouped = f"{int(whole):,}" + (f".{fraction}" if fraction else "")
    return ("−" if text.startswith("-") else "") + grouped


def _scientific(value: float, places: int) -> str:
    mantissa, exponent = f"{value:.{places}e}".split("e")
    mantissa = mantissa.replace("-", "−")
    if int(exponent) < 0:  # the bundled font has no superscript minus
        return f"{mantissa}e−{-int(exponent)}"
    superscript = str(int(exponent)).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mantissa} × 10{superscript}"


def _one(value: float, published: str, unit: str) -> str:
    places, scientific = decimals_of(published)
    if scientific:
        return _scientific(float(value), places)
    finer = Decimal(_rounded(value, places + 2))
    if unit in SIZE_UNITS and Decimal(_rounded(value, places)) != finer:
        places += 2  # the data changed: keep the precision the new value needs
    text = format_number(float(value), places)
    if unit == "pct":
        return f"{text} %"
    if unit in (*SIZE_UNITS, "B"):
        return f"{text} {unit}"
    return text


def format_figure(figure: Figure) -> str:
    """A figure as the lesson prints it, from its computed value."""
    value, published = figure.value, figure.published
    if figure.comparison in ("set", "order"):
        return tr("timeline.sep").join(str(name) for name in value)  # type: ignore[union-attr]
    if isinstance(published, tuple):
        values = tuple(value)  # type: ignore[arg-type]
        shown = [_one(v, p, "") for v, p in zip(values, published, strict=False)]
        suffix = " %" if figure.unit == "pct" else ""
        return " / ".join(f"{s}{suffix}" for s in shown) if suffix else ", ".join(shown)
    return _one(value, published, figure.unit)  # type: ignore[arg-type]


def format_claim(claim: Claim) -> str:
    """A reported value with its unit, at the precision it was reported."""
    text = repr(float(claim.value))
    places = len(text.split(".")[1]) if "." in text and not text.endswith(".0") else 0
    number = format_number(claim.value, places)
    if claim.unit == "pct":
        return f"{number} %"
    if claim.unit in ("B", "s"):
        return f"{number} {claim.unit}"
    return number


def _vector(values: np.ndarray) -> str:
    return "[" + ", ".join(format_number(v, 2).rstrip("0").rstrip(".") for v in values) + "]"


def _plain(value: float) -> str:
    return format_number(value, 2).rstrip("0").rstrip(".")


def lesson_values(figures: dict[str, Figure], data: LessonData) -> dict[str, str]:
    """Every placeholder of the timeline and guide texts: figures, claims and data fields."""
    values = {key: format_figure(figure) for key, figure in figures.items()}
    values.update({claim.id: format_claim(claim) for claim in data.frontier.claims})
    anchor, models, teaching = data.anchor, data.frontier.models, data.teaching
    dialogue = data.dialogue
    ds67b, dsv2, dsv3, glm = (models[k] for k in ("deepseek-llm-67b", "deepseek-v2",
                                                  "deepseek-v3", "glm-5.3"))
    match, car = dialogue.key_index("match"), dialogue.key_index("opposite")
    pair = breakdown(dialogue.q, dialogue.keys[match])
    car_score = float(np.dot(dialogue.q, dialogue.keys[car]))
    counts = {
        "example_t": EXAMPLE["rnn_T"], "example_d_a": EXAMPLE["additive_d_a"],
        "exp_gap": EXAMPLE["exp_gap"], "prompt": EXAMPLE["prompt"],
        "generate": EXAMPLE["generate"], "long_context": EXAMPLE["long_context"],
        "anchor_context": anchor.max_position_embeddings, "dtype_bytes": anchor.dtype_bytes,
        "anchor_layers": anchor.num_hidden_layers,
        "heads_per_group": (anchor.num_attention_heads or 0)
        // max(anchor.num_key_value_heads or 1, 1),
        "ds67b_kv_heads": ds67b.num_key_value_heads, "kv_lora_rank": dsv2.kv_lora_rank,
        "qk_rope_head_dim": dsv2.qk_rope_head_dim, "dsv2_layers": dsv2.num_hidden_layers,
        "dsv3_layers": dsv3.num_hidden_layers, "glm53_layers": glm.num_hidden_layers,
        "glm53_context": glm.max_position_embeddings, "d": teaching.E.shape[1],
    }
    values.update({key: format_number(value or 0) for key, value in counts.items()})
    values.update({
        "anchor_name": anchor.display_name, "ds67b_name": ds67b.display_name,
        "dsv2_name": dsv2.display_name, "dsv3_name": dsv3.display_name,
        "glm53_name": glm.display_name,
        "gate": tr("timeline.on") if anchor.attn_output_gate else tr("timeline.off"),
        "query": teaching.tokens[teaching.index("query")],
        "object": teaching.tokens[teaching.index("object")],
        "giver": teaching.tokens[teaching.index("giver")],
        "answer": teaching.tokens[teaching.index("answer")],
        "car": dialogue.key_tokens[car], "match": dialogue.key_tokens[match],
        "q_vec": _vector(dialogue.q), "k_vec": _vector(dialogue.keys[match]),
        "expansion": " + ".join(f"{_plain(a)}×{_plain(b)}"
                                for a, b in zip(dialogue.q, dialogue.keys[match], strict=True)),
        "top_score": _plain(pair.total), "car_score": _plain(car_score),
    })
    values["additive_year"] = str(stage("additive").year)
    return values


def bold_values(values: dict[str, str]) -> dict[str, str]:
    """The same values, HTML-escaped and bold, for rich-text paragraphs."""
    return {key: f"<b>{html.escape(text)}</b>" for key, text in values.items()}


def card_html(chosen: Stage, values: dict[str, str]) -> str:
    """The expanded card: name, source and year, what it solved, where it got stuck."""
    _, name_key, solved_key, stuck_key = STAGE_KEYS[chosen.id]
    bold = bold_values(values)
    here = (f" <span style='color:{HERE_COLOUR}'>★ {html.escape(tr('timeline.here'))}</span>"
            if chosen.here else "")
    return (
        f"<p style='font-size:large'><b>{html.escape(tr(name_key))}</b>{here}</p>"
        f"<p><i>{html.escape(chosen.source)}</i></p>"
        f"<p><b>{html.escape(tr('timeline.solved'))}:</b> {tr(solved_key, **bold)}</p>"
        f"<p><b>{html.escape(tr('timeline.stuck'))}:</b> {tr(stuck_key, **bold)}</p>"
    )


class StageStrip(QWidget):
    """Two rows of stage chips; ←/→ move, ↑/↓ switch track, Enter or a click expands."""

    expanded = Signal(str)
    """A stage id the user asked to open (click or Enter)."""
    moved = Signal(object)
    """The keyboard moved the current chip (the chip widget, so a scroll area can follow)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timeline_strip")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.order = [s.id for s in STAGES]
        self.current = 0
        self.track_labels: dict[str, QLabel] = {}
        self.chips: dict[str, QToolButton] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(4)
        for row, track in enumerate(TRACKS):
            label = QLabel()
            self.track_labels[track] = label
            grid.addWidget(label, row, 0)
            for column, item in enumerate((s for s in STAGES if s.track == track), start=1):
                chip = QToolButton()
                chip.setObjectName(f"timeline_chip_{item.id}")
                chip.setCheckable(True)
                chip.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                chip.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
                chip.clicked.connect(lambda _=False, sid=item.id: self._on_clicked(sid))
                self.chips[item.id] = chip
                grid.addWidget(chip, row, column)

    def _on_clicked(self, stage_id: str) -> None:
        self.current = self.order.index(stage_id)
        self.expanded.emit(stage_id)

    def show_expanded(self, stage_id: str | None) -> None:
        """Check the document's stage (if any) without emitting anything."""
        for sid, chip in self.chips.items():
            chip.setChecked(sid == stage_id)
        if stage_id in self.chips:
            self.current = self.order.index(stage_id)
        self._mark_current()

    def _mark_current(self) -> None:
        for index, sid in enumerate(self.order):
            chip = self.chips[sid]
            chip.setProperty("current", index == self.current)
            chip.style().unpolish(chip)
            chip.style().polish(chip)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        here = STAGES[self.current]
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            step = -1 if key == Qt.Key.Key_Left else 1
            self.current = min(max(self.current + step, 0), len(self.order) - 1)
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            track = TRACKS[0] if key == Qt.Key.Key_Up else TRACKS[-1]
            if track != here.track:
                self.current = next(i for i, s in enumerate(STAGES) if s.track == track)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.expanded.emit(self.order[self.current])
        else:
            super().keyPressEvent(event)
            return
        self._mark_current()
        self.moved.emit(self.chips[self.order[self.current]])
        event.accept()

    def retranslate(self) -> None:
        for track, label in self.track_labels.items():
            short, full = TRACK_KEYS[track]
            label.setText(tr(short))
            label.setToolTip(tr(full))
        for item in STAGES:
            chip_key = STAGE_KEYS[item.id][0]
            year = f" · {item.year}" if item.year else ""
            star = "★ " if item.here else ""
            self.chips[item.id].setText(f"{star}{tr(chip_key)}{year}")
            self.chips[item.id].setToolTip(tr("timeline.here") if item.here else "")

    def apply_look(self, look: Look) -> None:
        for label in self.track_labels.values():
            label.setFont(ui_font(look.pt(11), bold=True))
        theme = look.theme
        self.setStyleSheet(
            f"QToolButton {{ border: {look.px(1):.0f}px solid {theme.grid}; border-radius: 4px;"
            f" padding: {look.px(2):.0f}px {look.px(4):.0f}px; }}"
            f"QToolButton:checked {{ background: #DCEAF7; color: #000000;"
            f" border: {look.px(2):.0f}px solid {OKABE_ITO[0]}; }}"
            f"QToolButton[current=\"true\"] {{ border: {look.px(3):.0f}px solid {HERE_COLOUR}; }}"
        )
        for item in STAGES:
            self.chips[item.id].setFont(ui_font(look.pt(11), bold=item.here))
