"""Owns the dialog of earlier classes' answers, for the teacher: the classes, newest first,
and for the one chosen a table of its scenes and how many chose each answer, with a button
that exports every class as CSV. It opens only when the teacher asks; the stage never
shows it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model.answers.class_history import ClassRecord, shown_time
from app.state.class_history import ClassHistory
from app.ui.format import format_number
from app.ui.widgets.poll_bars import LETTERS

__all__ = ["AnswerHistory"]


class AnswerHistory(QDialog):
    """Every earlier class: choose one on the left, read its counts on the right."""

    def __init__(self, history: ClassHistory, export: Callable[[], object],
                 name_of: Callable[[str], str] = str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("answer_history")
        self.history = history
        self.name_of = name_of
        """A scene's name for the table, from its id (the lesson's number for it)."""
        self.classes = QListWidget(objectName="answer_history_classes")  # type: ignore[call-arg]
        self.table = QTableWidget(objectName="answer_history_table")  # type: ignore[call-overload]
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.empty = QLabel(objectName="answer_history_empty")  # type: ignore[call-overload]
        self.empty.setWordWrap(True)
        self.problem = QLabel(objectName="answer_history_problem")  # type: ignore[call-overload]
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.export_button = QPushButton(objectName="answer_history_export")  # type: ignore[call-overload]
        self.export_button.clicked.connect(export)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.export_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.classes, 0)
        row.addWidget(self.table, 1)
        column = QVBoxLayout(self)
        column.addWidget(self.problem)
        column.addWidget(self.empty)
        column.addLayout(row, 1)
        column.addWidget(buttons)
        self.classes.currentRowChanged.connect(self._show_class)
        history.changed.connect(self.refresh)
        history.troubled.connect(lambda *_: self.refresh())
        self.resize(760, 420)
        self.retranslate()

    @property
    def records(self) -> list[ClassRecord]:
        """The classes as listed: newest first."""
        return list(reversed(self.history.records()))

    def refresh(self) -> None:
        """List the classes again, keeping the one chosen when it is still there."""
        records = self.records
        chosen = self.classes.currentRow()
        self.classes.blockSignals(True)
        self.classes.clear()
        for record in records:
            item = QListWidgetItem(tr("answers.history.class", when=shown_time(record.when),
                                      count=format_number(record.total)))
            self.classes.addItem(item)
        self.classes.blockSignals(False)
        # each class's date and time whole, however large the type
        self.classes.setMinimumWidth(self.classes.sizeHintForColumn(0)
                                     + 2 * self.classes.frameWidth()
                                     + self.classes.verticalScrollBar().sizeHint().width())
        self.empty.setVisible(not records)
        self.problem.setVisible(self.history.problem is not None)
        self.problem.setText(tr("answers.history.problem", problem=self.history.problem or ""))
        self.export_button.setEnabled(bool(records))
        self.classes.setCurrentRow(min(max(chosen, 0), len(records) - 1))
        self._show_class(self.classes.currentRow())

    def _show_class(self, row: int) -> None:
        """The class's table: a row per scene, a column per choice, then the total."""
        records = self.records
        scenes = records[row].scenes if 0 <= row < len(records) else ()
        width = max((len(scene.choices) for scene in scenes), default=0)
        self.table.clear()
        self.table.setRowCount(len(scenes))
        self.table.setColumnCount(width + 2)
        self.table.setHorizontalHeaderLabels([tr("answers.history.scene"),
                                              *LETTERS[:width], tr("answers.history.total")])
        for r, scene in enumerate(scenes):
            self.table.setItem(r, 0, QTableWidgetItem(self.name_of(scene.scene)))
            for c, (text, count) in enumerate(zip(scene.choices, scene.counts, strict=True)):
                item = QTableWidgetItem(format_number(count))
                item.setToolTip(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, 1 + c, item)
            total = QTableWidgetItem(format_number(scene.total))
            total.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, width + 1, total)
        self.table.resizeColumnsToContents()

    def retranslate(self) -> None:
        self.setWindowTitle(tr("answers.history.title"))
        self.empty.setText(tr("answers.history.empty"))
        self.export_button.setText(tr("answers.history.export"))
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
