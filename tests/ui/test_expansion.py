"""The term-by-term panel through real widgets: the written-out sum, its bars and dominant
term, |q|·|k|·cos θ, and updates when the pair or the vectors change."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPixmap, QTextDocument
from PySide6.QtWidgets import QApplication

from app.ui.format import format_score, pair_symbol
from app.ui.look import Look
from app.ui.panels.expansion.panel import ExpansionPanel
from app.ui.panels.expansion.written import number, operand


@pytest.fixture
def panel(open_panel):
    return open_panel(ExpansionPanel, (480, 460))


def plain(html: str) -> str:
    text = QTextDocument()
    text.setHtml(html)
    return text.toPlainText().replace("\u2060", "")  # the word joiners that keep |q| whole


def test_number_formatting_is_what_a_class_writes():
    assert number(2.0) == "2"
    assert number(-1.5) == "−1.5"
    assert number(0.25) == "0.25"
    assert number(10.0) == "10"
    assert operand(-0.5) == "(−0.5)"
    assert operand(3.0) == "3"
    assert number(-0.00123) == "−0.0012"
    assert number(0.0) == "0"


def test_the_sum_is_written_out_with_the_real_numbers(panel):
    view, state = panel.document.view, panel.document.state
    q, k = view.q[state.query], view.k[state.key]
    text = plain(panel.equation.text())
    terms = " + ".join(f"{operand(a)}×{operand(b)}" for a, b in zip(q, k, strict=True))
    products = " + ".join(operand(p) for p in view.pair.products)
    assert f"q·k = {terms}" in text
    assert f"= {products} = {number(float(np.dot(q, k)))}" in text
    assert view.query_names[state.query] in panel.heading.text()
    assert view.key_names[state.key] in panel.heading.text()


def test_negative_numbers_are_parenthesised_and_the_dominant_term_marked(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("q", document.state.query, [-1.5, 0.5, 2.0, -0.25])
    view = document.view
    text = plain(panel.equation.text())
    assert "(−1.5)×" in text and "(−0.25)×" in text
    dominant = view.pair.dominant
    assert dominant == int(np.argmax(np.abs(view.pair.products)))
    pens = panel.bars.pens
    widths = [pen.widthF() for pen in pens]
    assert widths[dominant] > max(w for i, w in enumerate(widths) if i != dominant)
    assert np.allclose(panel.bars.heights, view.pair.products)
    assert number(float(view.pair.products[dominant])) in panel.dominant.text()


def test_polar_form_gives_the_same_sum(panel):
    pair = panel.document.view.pair
    text = panel.polar.text()
    assert f"= {number(pair.norm_q)} × {number(pair.norm_k)} ×" in text
    assert text.split("(")[0].rstrip().endswith(f"= {number(pair.total)}")
    assert pair.norm_q * pair.norm_k * pair.cos == pytest.approx(pair.total)


def test_a_negative_cosine_is_a_bracketed_factor_as_the_terms_are(qtbot, panel):
    """汽车 points away from q: "× −0.992" read as a subtraction beside the sum's
    "(−0.5)"; the polar form brackets a negative factor as the sum does its operands."""
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.set_world("dialogue")
    view = panel.document.view
    car = int(np.argmin(view.k @ view.q[panel.document.state.query]))
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.select(key=car)
    pair = panel.document.view.pair
    assert pair.cos < 0
    text = panel.polar.text()
    assert f"× ({format_score(pair.cos, 3)}) =" in text and "× −" not in text


def test_selecting_another_pair_updates_everything(qtbot, panel):
    document = panel.document
    before = panel.equation.text()
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.select(query=0, key=1)
    view = document.view
    assert panel.equation.text() != before
    pair = f"{pair_symbol('q', view.query_names[0])} · {pair_symbol('k', view.key_names[1])}"
    assert panel.heading.text().startswith(pair) and "_" not in panel.heading.text()
    assert np.allclose(panel.bars.heights, view.q[0] * view.k[1])


def test_two_d_world_writes_two_terms(qtbot, panel):
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.set_world("dialogue")
    view = panel.document.view
    q, k = view.q[0], view.k[0]
    text = plain(panel.equation.text())
    assert f"q·k = {operand(q[0])}×{operand(k[0])} + {operand(q[1])}×{operand(k[1])}" in text
    assert len(panel.bars.heights) == 2


def test_zero_vector_says_the_angle_is_undefined(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_vector("k", document.state.key, [0.0, 0.0, 0.0, 0.0])
    assert "θ" in panel.polar.text() and "0" in panel.polar.text()
    assert panel.dominant.text() == ""


def test_the_scaled_dot_product_divides_the_sum_by_root_d(qtbot, panel):
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.set_scorer("scaled_dot")
    view, state = panel.document.view, panel.document.state
    text = plain(panel.equation.text())
    dot = float(view.scores["dot"][state.query, state.key])
    score = float(view.active[state.query, state.key])
    assert f"q·k / √d = {number(dot)} / √{view.q.shape[1]} = {number(score)}" in text
    assert text.endswith(f"= {number(score)}") and number(score) != number(dot)


def test_presentation_scale_enlarges_the_equation(panel, present):
    before = panel.equation.font().pointSizeF()
    present(panel, Look(scale=2.0))
    assert panel.equation.font().pointSizeF() == pytest.approx(2 * before)
    assert panel.equation.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse


def test_term_labels_fit_under_the_bars_on_a_high_dpi_screen(qtbot, panel, monkeypatch):
    """Points are more pixels at a higher logical DPI (a desktop that scales by DPI, say
    Xft.dpi 192): simulated by a tick font twice as large, the q₁k₁ labels must still lie
    inside the axis that draws them (a fixed pixel height cut them off)."""
    import app.ui.panels.expansion.panel as module

    real = module.scaled_font

    def large(size=None):
        font = real() if size is None else real(size)
        font.setPointSizeF(font.pointSizeF() * 2.0)
        return font

    monkeypatch.setattr(module, "scaled_font", large)
    panel.apply_look()
    panel.refresh()
    QApplication.processEvents()  # the plot lays its axes out again
    axis = panel.bars_plot.getPlotItem().getAxis("bottom")
    device = QPixmap(8, 8)  # measures text as the screen does
    painter = QPainter(device)
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    assert [text for _rect, _flags, text in texts] == ["q₁k₁", "q₂k₂", "q₃k₃", "q₄k₄"]
    inside = axis.boundingRect()
    for rect, _flags, text in texts:
        assert inside.contains(rect), f"{text} clipped: {rect} outside {inside}"


# --- the additive scorer's own steps -----------------------------------------------------


def additive_panel(qtbot, panel):
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.set_scorer("additive")
    return panel.document.view, panel.document.state


def test_additive_steps_are_numpys_and_end_on_the_heatmaps_cell(qtbot, panel):
    """W₁q, W₂k, their sum, tanh and v·t written out are NumPy's own, and the total is the
    very cell the heatmap shows for this pair (one number path), not the dot product's sum."""
    from app.ui.panels.heatmap.panel import HeatmapPanel

    heatmap = HeatmapPanel(panel.document)
    qtbot.addWidget(heatmap)
    heatmap.resize(520, 560)
    heatmap.show()
    view, state = additive_panel(qtbot, panel)
    w = panel.document.data.teaching.additive
    q, k = view.q[state.query], view.k[state.key]
    w1q, w2k = w.W1 @ q, w.W2 @ k
    t = np.tanh(w1q + w2k)
    text = plain(panel.equation.text())

    def vector(values):
        return "(" + ", ".join(number(x) for x in values) + ")"

    assert f"W₁q = {vector(w1q)}" in text
    assert f"W₂k = {vector(w2k)}" in text
    assert f"W₁q + W₂k = {vector(w1q + w2k)}" in text
    assert f"tanh(W₁q + W₂k) = {vector(t)}" in text
    written = " + ".join(f"{operand(a)}×{operand(b)}" for a, b in zip(w.v, t, strict=True))
    assert f"v·t = {written}" in text
    cell = float(view.scores["additive"][state.query, state.key])
    assert cell == pytest.approx(float(w.v @ t), abs=1e-12)
    assert text.endswith(f"= {number(cell)}")
    assert heatmap.cells.grid.labels[state.query][state.key] == format_score(cell)
    assert np.allclose(panel.bars.heights, w.v * t)
    assert len(panel.bars.heights) == w.d_a
    heatmap.worker.shutdown()


def test_tanh_count_for_this_world_and_the_lesson_scale(qtbot, panel):
    from app.model.lesson.figures import EXAMPLE
    from app.ui.format import format_number

    view, _ = additive_panel(qtbot, panel)
    d_a = panel.document.data.teaching.additive.d_a
    tq, tk = len(view.q), len(view.k)
    text = panel.polar.text()
    assert f"{tq} × {tk} × {d_a} = {format_number(tq * tk * d_a)}" in text
    length, width = EXAMPLE["rnn_T"], EXAMPLE["additive_d_a"]
    assert format_number(length * length * width) in text  # English groups the digits
    assert f"T = {length}" in text and f"dₐ = {width}" in text


def test_tanh_count_reads_in_yi_in_chinese(qtbot, panel):
    from app.model.lesson.figures import EXAMPLE
    from app.ui.format import format_in_words
    from app.ui.language import apply_language

    additive_panel(qtbot, panel)
    apply_language("zh")
    qtbot.waitUntil(lambda: "tanh" in panel.polar.text() and "次" in panel.polar.text())
    length, width = EXAMPLE["rnn_T"], EXAMPLE["additive_d_a"]
    lesson = format_in_words(length * length * width, 2)
    assert lesson.endswith("亿") and f"{lesson} 次" in panel.polar.text()


def test_additive_ranking_is_called_untrained_and_names_its_top_key(qtbot, panel):
    view, state = additive_panel(qtbot, panel)
    top = view.key_names[int(np.argmin(view.row_ranks["additive"]))]
    assert top in panel.dominant.text() and "not trained" in panel.dominant.text()
    assert top == view.query_names[state.query]  # the teaching world's weights pick 给了 itself
    with qtbot.waitSignal(panel.document.changed, timeout=2000):
        panel.document.set_scorer("dot")
    assert plain(panel.equation.text()).startswith("q·k = ")
    assert "trained" not in panel.dominant.text()


def test_a_tall_panel_gives_the_longer_additive_steps_their_full_height(qtbot, open_panel):
    """Switching q·k (two lines) to the additive steps (six) relays the panel: the equation
    gets the height its text needs, not the share a shorter text left it."""
    tall = open_panel(ExpansionPanel, (480, 1000))
    additive_panel(qtbot, tall)
    for _ in range(3):
        QApplication.processEvents()
    holder = tall.equation.holder
    assert holder.height() >= tall.equation.heightForWidth(holder.width())


# --- each scorer's own calculation -------------------------------------------------------

OWN_STEPS = {
    "dot": ("q·k = ",),
    "scaled_dot": ("q·k = ", "q·k / √d = "),
    "cosine": ("q·k = ", "cos θ = q·k ÷ |q| ÷ |k| = "),
    "neg_euclidean": ("q − k = ", "|q − k|² = ", "−|q − k| = −√"),
    "additive": ("W₁q = ", "t = tanh(W₁q + W₂k) = ", "v·t = "),
    "qk_norm": ("q′ = g ⊙ q ÷ rms(q)", "q′·k′ = "),
}
"""The steps each scorer's page must write (its own operations, not q·k's beside them)."""


@pytest.mark.parametrize("world", ["teaching", "dialogue"])
@pytest.mark.parametrize("scorer", list(OWN_STEPS))
def test_every_scorer_writes_its_own_calculation_ending_on_its_score(qtbot, panel, scorer,
                                                                   world):
    """The page under each scorer writes that scorer's steps with the model's numbers and
    ends on the very cell of its matrix; the bars are the terms of its own sum."""
    from app.model.scoring import SCORERS
    from app.model.scoring.worked import pair_work

    assert set(OWN_STEPS) == set(SCORERS)  # a new scorer needs its own page
    document = panel.document
    if document.state.world != world:
        with qtbot.waitSignal(document.changed, timeout=2000):
            document.set_world(world)
    if document.state.scorer != scorer:
        with qtbot.waitSignal(document.changed, timeout=2000):
            document.set_scorer(scorer)
    view, state = document.view, document.state
    text = plain(panel.equation.text())
    for step in OWN_STEPS[scorer]:
        assert step in text, (scorer, step, text)
    if scorer not in ("dot", "scaled_dot", "cosine"):
        assert "q·k =" not in text  # no dot product beside another scorer's score
    score = float(view.active[state.query, state.key])
    assert text.endswith(f"= {number(score)}"), text
    assert f"<b>{number(score)}</b>" in panel.equation.text()
    work = pair_work(view, state.query, state.key)
    assert work.total == score and work.reached == pytest.approx(score, abs=1e-12)
    assert np.allclose(panel.bars.heights, work.terms)
    assert "_" not in panel.heading.text()
    names = (view.query_names[state.query], view.key_names[state.key])
    assert panel.heading.text().startswith(
        f"{pair_symbol('q', names[0])} · {pair_symbol('k', names[1])}")


def test_qk_norm_writes_the_normalised_vectors_and_the_gain(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_world("dialogue")
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_scorer("qk_norm")
    view, state = document.view, document.state
    norm = document.data.dialogue.qk_norm
    q, k = view.q[0], view.k[state.key]
    rms = [np.sqrt(np.mean(x * x) + norm.eps) for x in (q, k)]
    q_hat, k_hat = norm.gain * q / rms[0], norm.gain * k / rms[1]
    text = plain(panel.equation.text())
    gain = number(norm.gain[0])  # the dialogue's gain is one number for every dimension

    def vector(values):  # no-break spaces read as spaces in the plain text
        return "(" + ", ".join(number(x) for x in values) + ")"

    assert f"q′ = {gain} × {vector(q)} ÷ {number(rms[0])} = {vector(q_hat)}" in text
    assert f"k′ = {gain} × {vector(k)} ÷ {number(rms[1])} = {vector(k_hat)}" in text
    assert float(q_hat @ k_hat) == pytest.approx(float(view.active[0, state.key]))
    assert number(float(np.hypot(*q_hat))) in panel.polar.text()


def test_negative_distance_writes_the_difference_and_its_length(qtbot, panel):
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=2000):
        document.set_scorer("neg_euclidean")
    view, state = document.view, document.state
    diff = view.q[state.query] - view.k[state.key]
    text = plain(panel.equation.text())
    assert "(" + ", ".join(number(x) for x in diff) + ")" in text
    assert ",\u00a0" in panel.equation.text()  # a vector never wraps inside
    assert f"= {number(float(diff @ diff))}\n−|q − k| = −√{number(float(diff @ diff))}" in text
    assert np.allclose(panel.bars.heights, diff * diff)


def test_a_drag_step_keeps_the_bars_fills_and_outlines_unless_a_sign_or_the_lead_moves(panel):
    """New heights alone redraw the bars with the fills and outlines they had; a bar that
    changes sign gets its other fill, and the outlines follow the dominant term."""
    document = panel.document
    document.set_world("teaching")
    document.flush()
    key = document.state.key
    base = np.asarray(document.state.teaching_k[key], dtype=np.float64)
    document.begin_drag()
    document.set_vector("k", key, base * 1.01)
    document.flush()
    brushes, pens = panel.bars.brushes, panel.bars.pens
    document.set_vector("k", key, base * 1.02)
    document.flush()
    assert panel.bars.brushes is brushes and panel.bars.pens is pens
    assert panel.bars.heights.tolist() == panel._shown[1].tolist()
    flipped = base * 1.02
    lead = int(np.argmax(np.abs(panel._shown[1])))
    flipped[lead] = -flipped[lead]  # the dominant term changes sign
    document.set_vector("k", key, flipped)
    document.flush()
    document.end_drag()
    fills = [brush.color().name() for brush in panel.bars.brushes]
    rising, falling = (fill.name() for fill in panel._fills)
    assert fills == [rising if h >= 0 else falling for h in panel.bars.heights.tolist()]
    widths = [pen.widthF() for pen in panel.bars.pens]
    dominant = int(np.argmax(np.abs(panel.bars.heights)))
    assert widths[dominant] == max(widths) > min(widths)
