"""Owns the status bar's words about the document: the selected pair and its score, always
there, each notice the document gives (refused or clamped input) for a few seconds, and
"Importing N tokens…" with a busy cursor while an import is computed off the UI thread."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QSizePolicy, QStatusBar

from app.i18n import tr
from app.state.document import Document
from app.state.notice import Notice
from app.ui.format import format_score, name_tip, shown_name
from app.ui.notices import word
from app.ui.widgets.live_label import LiveLabel
from app.ui.widgets.tips import set_tip

NOTICE_MS = 6000


class StatusLine(QObject):
    """The pair line in `bar`, kept up to date with the document and the language."""

    def __init__(self, document: Document, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.document = document
        self.bar = bar
        self.label = LiveLabel("status_pair", wrap=False)  # new text at every drag step
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # names tokens: never markup
        self.label.holder.setSizePolicy(QSizePolicy.Policy.Ignored,
                                        QSizePolicy.Policy.Preferred)
        bar.addPermanentWidget(self.label.holder, 1)
        bar.setAutoFillBackground(True)  # opaque: a new line does not repaint the window too
        self.label.installEventFilter(self)  # a new language: the line in its words
        document.changed.connect(self.update)
        document.notice.connect(self.show_notice)
        document.importing.connect(self.show_importing)
        self._busy = ""
        """The import message on show, while the busy cursor is set ("" when not)."""
        cursor = self._cursor = [False]  # not self: read while the C++ objects go away
        # a slot without the argument: PySide would wrap the half-destroyed bar for it
        bar.destroyed.connect(lambda: _release(cursor))
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.label and event.type() == QEvent.Type.LanguageChange:
            self.update()
            if self._busy:
                self.show_importing(self.document.importing_tokens)
        return False

    def update(self) -> None:
        state, view = self.document.state, self.document.view
        query, key = view.query_names[state.query], view.key_names[state.key]
        self.label.setText(tr("status.pair", query=shown_name(query), key=shown_name(key),
                              scorer=tr(f"scorer.{state.scorer}"),
                              score=format_score(view.selected_score)))
        set_tip(self.label, name_tip(query, key))

    def show_notice(self, notice: Notice | str) -> None:
        self.bar.showMessage(word(notice), NOTICE_MS)

    def show_importing(self, tokens: int) -> None:
        """Say an import is being computed (the window answers meanwhile), until it ends; a
        message shown since (a notice, the import's own summary) is left alone."""
        if tokens and not self._cursor[0]:
            QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
            self._cursor[0] = True
        elif not tokens and self._busy:
            _release(self._cursor)
            if self.bar.currentMessage() == self._busy:
                self.bar.clearMessage()
        self._busy = tr("status.importing", tokens=f"{tokens:,}") if tokens else ""
        if tokens:
            self.bar.showMessage(self._busy)


def _release(cursor: list[bool]) -> None:
    """Take the busy cursor back if it is still set (the import ended, or the window closed
    while it ran)."""
    if cursor[0]:
        cursor[0] = False
        QApplication.restoreOverrideCursor()
