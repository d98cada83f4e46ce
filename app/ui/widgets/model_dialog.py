"""Owns asking what to run an opened model on: the sentence, the layer and the head, with the
model's own ranges (the last layer and the first head unless the user picks others)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from app.i18n import tr


class ModelDialog(QDialog):
    """"Sentence / Layer / Head" for one model; `choice()` reads them once accepted."""

    def __init__(self, model: str, family: str, layers: int, heads: int, text: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("model_dialog")
        self.setWindowTitle(tr("model_folder.dialog.title"))
        about = QLabel(tr("model_folder.dialog.about", model=model, family=family, layers=layers,
                          heads=heads))
        about.setWordWrap(True)
        self.text = QLineEdit(text or tr("model_folder.default_text"))
        self.text.setObjectName("model_text")
        self.layer, self.head = QSpinBox(), QSpinBox()
        self.layer.setObjectName("model_layer")
        self.head.setObjectName("model_head")
        self.layer.setRange(0, layers - 1)
        self.layer.setValue(layers - 1)
        self.head.setRange(0, heads - 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.text.textChanged.connect(lambda text: buttons.button(
            QDialogButtonBox.StandardButton.Ok).setEnabled(bool(text.strip())))
        form = QFormLayout(self)
        form.addRow(about)
        form.addRow(tr("model_folder.dialog.text"), self.text)
        form.addRow(tr("model_folder.dialog.layer"), self.layer)
        form.addRow(tr("model_folder.dialog.head"), self.head)
        form.addRow(buttons)
        self.text.setMinimumWidth(self.text.fontMetrics().averageCharWidth() * 40)

    def choice(self) -> tuple[str, int, int]:
        """(sentence, layer, head) as the user left them."""
        return self.text.text(), self.layer.value(), self.head.value()
