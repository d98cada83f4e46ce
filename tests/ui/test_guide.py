"""The lesson guide through real widgets: numbers from the figures, measuring off the UI thread
with cancel, the question log, and the checklist that ticks from document actions only."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.model import questions as questions_module
from app.model.lesson.figures import lesson_figures
from app.model.measure import MAX_D_A, MAX_T
from app.model.questions import LOG_NAME, read_questions
from app.paths import user_data_dir
from app.ui.format import format_figure
from app.ui.panels.guide.panel import GuidePanel
from app.ui.panels.timeline.panel import TimelinePanel

SIZE = (560, 640)


@pytest.fixture
def panel(open_panel):
    panel = open_panel(GuidePanel, SIZE)
    yield panel
    panel.measure.shutdown()


def test_story_numbers_come_from_the_figures(panel):
    figures = panel.figures
    step2 = panel.labels["guide_step2"].text()
    assert format_figure(figures["additive_intermediate_gib"]) in step2
    assert format_figure(figures["dot_scores_mib"]) in step2
    assert format_figure(figures["given_row_scaled"]) in panel.labels["guide_next"].text()
    assert format_figure(figures["sentence_pairs"]) in panel.labels["guide_intro"].text()
    myth = panel.labels["guide_myth"].text()
    assert format_figure(figures["anchor_head_dim"]) in myth
    assert panel.document.data.anchor.display_name in myth
    assert "{" not in "".join(label.text() for label in panel.labels.values())


def test_guide_numbers_follow_the_data_files(open_panel, data_dir, edit_data):
    edit_data("anchor-model.json", lambda anchor: anchor.__setitem__(
        "max_position_embeddings", anchor["max_position_embeddings"] // 2))
    changed = open_panel(GuidePanel, SIZE, data_dir)  # English: figures as English prints them
    new = format_figure(lesson_figures(data_dir)["anchor_pairs_per_head"])
    old = format_figure(lesson_figures()["anchor_pairs_per_head"])
    assert old != new
    intro = changed.labels["guide_intro"].text()
    assert new in intro and old not in intro


def test_measurement_runs_off_the_ui_thread_and_reports_both_scorers(qtbot, panel):
    box = panel.measure
    box.t_box.setValue(96)
    box.d_box.setValue(8)
    progress: list[int] = []
    box.progress.valueChanged.connect(progress.append)
    with qtbot.waitSignal(box.measured, timeout=60000) as blocker:
        qtbot.mouseClick(box.run_button, Qt.MouseButton.LeftButton)
        assert box.running and not box.run_button.isEnabled()  # returned before the result
    result = blocker.args[0]
    assert (result.T, result.d_a) == (96, 8)
    assert progress and progress[-1] == box.progress.maximum()
    text = box.status.text()
    assert "additive" in text and "dot product" in text and "×" in text
    assert box.run_button.isEnabled() and not box.cancel_button.isEnabled()


def test_measurement_can_be_cancelled_while_the_window_keeps_working(qtbot, panel):
    box = panel.measure
    box.t_box.setValue(MAX_T)
    box.d_box.setValue(MAX_D_A)
    with qtbot.waitSignal(box.progress.valueChanged, timeout=60000):
        qtbot.mouseClick(box.run_button, Qt.MouseButton.LeftButton)
    # The UI thread handled a progress update while the job runs: nothing is blocked.
    document = panel.document
    with qtbot.waitSignal(document.changed, timeout=5000):
        document.set_world("dialogue")
    with qtbot.waitSignal(box.stopped, timeout=60000):
        qtbot.mouseClick(box.cancel_button, Qt.MouseButton.LeftButton)
    assert box.result is None and "Cancelled" in box.status.text()
    assert box.run_button.isEnabled()


def test_a_question_is_appended_to_the_log_and_shown(qtbot, panel):
    ask = panel.ask
    assert ask.log == user_data_dir() / LOG_NAME
    assert "No questions recorded yet" in ask.listing.text()
    qtbot.keyClicks(ask.edit, "Why not cosine?")
    with qtbot.waitSignal(ask.recorded, timeout=2000):
        qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(ask.edit, "What is d_a?")
    qtbot.keyClick(ask.edit, Qt.Key.Key_Return)
    assert [q.text for q in read_questions(ask.log)] == ["Why not cosine?", "What is d_a?"]
    assert "Why not cosine?" in ask.listing.text() and "What is d_a?" in ask.listing.text()
    assert ask.edit.text() == ""


def test_empty_question_and_failed_write_change_nothing(qtbot, panel, monkeypatch):
    ask = panel.ask
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    assert ask.status.text() == "Type a question first." and not ask.log.exists()
    qtbot.keyClicks(ask.edit, "first")
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    kept = ask.log.read_bytes()

    def crash(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(questions_module.os, "fsync", crash)
    qtbot.keyClicks(ask.edit, "second")
    qtbot.mouseClick(ask.button, Qt.MouseButton.LeftButton)
    assert "No space left on device" in ask.status.text()
    assert ask.edit.text() == "second"  # the student's text is not lost either
    assert ask.log.read_bytes() == kept
    assert [p.name for p in ask.log.parent.iterdir() if p.name.startswith(".")] == []


def test_a_log_that_is_not_utf8_is_kept_and_the_user_is_told_where_questions_went(qtbot, panel):
    ask = panel.ask
    gbk = "## 2025-01-01 08:00:00\n\n> 为什么？\n".encode("gbk")
    ask.log.write_bytes(gbk)
    qtbot.keyClicks(ask.edit, "Why scale by sqrt(d)?")
    with qtbot.waitSignal(ask.recorded, timeout=2000):
        qtbot.keyClick(ask.edit, Qt.Key.Key_Return)
    sibling = ask.log.with_name("C3-L2.utf8.md")
    assert ask.log.read_bytes() == gbk
    assert [q.text for q in read_questions(sibling)] == ["Why scale by sqrt(d)?"]
    status = ask.status.text()
    assert str(ask.log) in status and str(sibling) in status and "not UTF-8" in status
    assert "Why scale by sqrt(d)?" in ask.listing.text()


def test_an_impossible_date_in_the_log_is_a_note_not_a_crash(qtbot, panel):
    ask = panel.ask
    ask.log.write_text("## 2026-13-45 99:00:00\n\n> broken\n\n"
                       "## 2025-01-01 08:00:00\n\n> kept\n", encoding="utf-8")
    ask.show_questions()
    listing = ask.listing.text()
    assert "kept" in listing and "2026-13-45 99:00:00" in listing
    assert "could not be read" in listing and str(ask.log) in listing


def test_checklist_ticks_from_the_students_choices_only(qtbot, panel):
    document, checklist = panel.document, panel.checklist
    dialogue, teaching = document.data.dialogue, document.data.teaching
    ticks: list[int] = []
    checklist.ticked.connect(ticks.append)
    assert checklist.done == [False, False, False]  # the start-up selection does not count
    for scene in panel.run.lesson.scenes:  # nor does any scene's setup
        document.apply_scene(scene)
        document.flush()
    document.set_world("dialogue")
    document.set_world("teaching")  # lands on 给了 against 苹果: not the student's doing
    document.flush()
    assert checklist.done == [False, False, False] and ticks == []
    document.set_world("dialogue")
    document.select(key=dialogue.key_index("opposite"))
    assert checklist.done[0] is True
    document.set_world("teaching")
    document.select(query=teaching.index("query"), key=teaching.index("object"))
    assert checklist.done[1] is True
    swapped = sorted({k for s in document.view.swaps for k in (s.key_a, s.key_b)})
    assert swapped, "the teaching world must have a dot/cosine disagreement on this row"
    document.select(key=swapped[0])
    assert checklist.done == [True, True, True] and ticks == [0, 1, 2]
    assert "done" in panel.checklist.marks[2].text()


def test_checklist_progress_is_kept_for_the_user(qtbot, panel, open_panel):
    dialogue = panel.document.data.dialogue
    panel.document.set_world("dialogue")
    panel.document.select(key=dialogue.key_index("opposite"))
    again = open_panel(GuidePanel, SIZE)
    assert again.checklist.done == [True, False, False]
    assert "done" in again.checklist.marks[0].text()
    again.measure.shutdown()


def test_the_wheel_over_an_unfocused_size_box_scrolls_instead_of_changing_it(qtbot, panel):
    box = panel.measure.t_box
    before = box.value()
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    event = QWheelEvent(QPointF(5, 5), QPointF(box.mapToGlobal(QPoint(5, 5))), QPoint(0, 0),
                        QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(box, event)
    assert box.value() == before
    box.setFocus()
    qtbot.waitUntil(box.hasFocus, timeout=2000)
    QApplication.sendEvent(box, QWheelEvent(
        QPointF(5, 5), QPointF(box.mapToGlobal(QPoint(5, 5))), QPoint(0, 0), QPoint(0, 120),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
        False))
    assert box.value() != before  # a box the student clicked into still takes the wheel


def test_run_keeps_the_guide_on_its_progress_bar(qtbot, panel):
    measure_scene = next(i for i, s in enumerate(panel.run.lesson.scenes)
                         if "measure" in s.blocks)
    panel.run.go(measure_scene)
    box = panel.measure
    box.t_box.setValue(96)
    box.d_box.setValue(8)
    bar = panel.scroll.verticalScrollBar()
    panel.scroll.ensureWidgetVisible(box.run_button)
    where = bar.value()
    box.run_button.setFocus()
    with qtbot.waitSignal(box.measured, timeout=60000):
        qtbot.mouseClick(box.run_button, Qt.MouseButton.LeftButton)
        assert bar.value() == where
    assert bar.value() == where


def test_a_timeline_stage_that_lands_on_the_pair_is_not_the_students_tick(qtbot, panel):
    document = panel.document
    timeline = TimelinePanel(document)
    qtbot.addWidget(timeline)
    document.set_world("dialogue")
    with qtbot.waitSignal(document.changed, timeout=2000):
        timeline.choose_stage("causal")  # switches back to 给了 against 苹果 for the student
    assert (document.state.query, document.state.key) == panel.checklist.tracker.pair
    assert panel.checklist.done[1] is False
