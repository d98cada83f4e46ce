"""Owns the editor's reshaping controls: which token, a name box, Rename / Remove / Add
token, and the width d. Each control calls one document intent (one undo step); a name or
count the model's rules refuse is reported through `refused` and nothing changes."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import tr
from app.model import reshape
from app.model.lesson.data import MAX_TOKENS
from app.state.document import Document
from app.state.reshaping import count_notice, name_notice
from app.ui.format import plain_tip
from app.ui.notices import word
from app.ui.widgets.number_box import WholeBox


class ReshapeBar(QWidget):
    """Two rows under the charts: token · Remove · d, then a name · Rename · Add token."""

    refused = Signal(str)
    """A translated message: the input was refused and the world is unchanged."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("editor_reshape")
        self.token_label = QLabel()
        self.token_combo = QComboBox(objectName="editor_reshape_token")  # type: ignore[call-arg]
        self.token_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.name_edit = QLineEdit(objectName="editor_reshape_name")  # type: ignore[call-overload]
        self.name_edit.setMaxLength(reshape.MAX_NAME * 2)  # longer text is refused by name
        self.rename_button = QPushButton(objectName="editor_reshape_rename")  # type: ignore[call-overload]
        self.remove_button = QPushButton(objectName="editor_reshape_remove")  # type: ignore[call-overload]
        self.add_button = QPushButton(objectName="editor_reshape_add")  # type: ignore[call-overload]
        self.dim_label = QLabel()
        self.dim_spin = WholeBox()
        self.dim_spin.setObjectName("editor_reshape_dim")
        self.dim_spin.setRange(reshape.MIN_DIM, reshape.MAX_DIM)
        self.token_label.setBuddy(self.token_combo)
        self.dim_label.setBuddy(self.dim_spin)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(4)
        top, bottom = QHBoxLayout(), QHBoxLayout()
        for widget in (self.token_label, self.token_combo, self.remove_button):
            top.addWidget(widget)
        top.addStretch(1)
        top.addWidget(self.dim_label)
        top.addWidget(self.dim_spin)
        bottom.addWidget(self.name_edit, 1)
        bottom.addWidget(self.rename_button)
        bottom.addWidget(self.add_button)
        rows.addLayout(top)
        rows.addLayout(bottom)
        self.rename_button.clicked.connect(self.rename)
        self.name_edit.returnPressed.connect(self.rename)
        self.remove_button.clicked.connect(self.remove)
        self.add_button.clicked.connect(self.add)
        self.dim_spin.valueChanged.connect(self._on_dim)
        self._choose: int | None = None  # the token to choose once the list next changes

    def retranslate(self) -> None:
        self.token_label.setText(tr("editor.reshape.token"))
        self.token_combo.setToolTip(tr("editor.reshape.token_tip"))
        self.name_edit.setPlaceholderText(tr("editor.reshape.name"))
        self.name_edit.setToolTip(tr("editor.reshape.name_tip", limit=reshape.MAX_NAME))
        self.rename_button.setText(tr("editor.reshape.rename"))
        self.rename_button.setToolTip(tr("editor.reshape.rename_tip"))
        self.remove_button.setText(tr("editor.reshape.remove"))
        self.remove_button.setToolTip(tr("editor.reshape.remove_tip"))
        self.add_button.setText(tr("editor.reshape.add"))
        self.add_button.setToolTip(plain_tip(tr("editor.reshape.add_tip")))
        self.dim_label.setText(tr("editor.reshape.dim"))
        self.dim_spin.setToolTip(tr("editor.reshape.dim_tip", low=reshape.MIN_DIM,
                                    high=reshape.MAX_DIM))

    def show_world(self, tokens: tuple[str, ...], d: int) -> None:
        """Follow the document: the token list (keeping the chosen one when it is still
        there) and the width, without echoing back as edits."""
        combo = self.token_combo
        current = combo.currentIndex()
        if tuple(combo.itemText(i) for i in range(combo.count())) != tokens:
            with QSignalBlocker(combo):
                combo.clear()
                combo.addItems(list(tokens))
                chosen = current if self._choose is None else self._choose
                combo.setCurrentIndex(min(max(chosen, 0), len(tokens) - 1))
        self._choose = None
        if self.dim_spin.value() != d:
            with QSignalBlocker(self.dim_spin):
                self.dim_spin.setValue(d)
        self.add_button.setEnabled(len(tokens) < MAX_TOKENS)
        self.remove_button.setEnabled(len(tokens) > reshape.MIN_TOKENS)

    # --- the intents ---------------------------------------------------------------------

    def _checked_name(self, ignore: int | None = None) -> str | None:
        name = self.name_edit.text()
        problem = reshape.name_problem(name, self.document.teaching_tokens(), ignore)
        if problem is not None:
            self.refused.emit(word(name_notice(problem, name)))
            return None
        return name

    def rename(self) -> None:
        index = self.token_combo.currentIndex()
        name = self._checked_name(ignore=index)
        if name is not None and self.document.rename_token(index, name):
            self.name_edit.clear()

    def add(self) -> None:
        tokens = self.document.teaching_tokens()
        problem = reshape.count_problem(len(tokens) + 1)
        if problem is not None:
            self.refused.emit(word(count_notice(problem)))
            return
        name = self._checked_name() if self.name_edit.text() else None
        if self.name_edit.text() and name is None:
            return
        if self.document.add_token(name, stem=tr("reshape.new_stem")):
            self.name_edit.clear()
            self._choose = len(tokens)  # the new token, once the list shows it

    def remove(self) -> None:
        problem = reshape.count_problem(len(self.document.teaching_tokens()) - 1)
        if problem is not None:
            self.refused.emit(word(count_notice(problem)))
            return
        self.document.remove_token(self.token_combo.currentIndex())

    def _on_dim(self, d: int) -> None:
        self.document.set_dimension(d)
