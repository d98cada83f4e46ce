"""Owns the document's intents that reshape the 4-D teaching world: add, remove and rename a
token, change the width d. Each is one undo step; bad input is refused with a notice and
changes nothing. The rules themselves are the model's (app/model/reshape.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.model import reshape
from app.model.lesson.data import MAX_TOKENS
from app.model.state import LabState
from app.state.notice import Notice, scorer_term

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from app.model.lesson.data import LessonData

NAME_NOTICES = {
    "empty": "notice.token_name.empty",
    "spaces": "notice.token_name.spaces",
    "too_long": "notice.token_name.too_long",
    "control": "notice.token_name.control",
    "taken": "notice.token_name.taken",
}
"""Why a name is refused → the message (full keys, so the string-table test sees them)."""
COUNT_NOTICES = {"too_few": "notice.tokens.too_few", "too_many": "notice.tokens.too_many"}


def name_notice(problem: str, name: str) -> Notice:
    """Why a token name is refused (the editor shows it beside its box)."""
    return Notice.of(NAME_NOTICES[problem], name=name, limit=reshape.MAX_NAME)


def count_notice(problem: str) -> Notice:
    return Notice.of(COUNT_NOTICES[problem], low=reshape.MIN_TOKENS, high=MAX_TOKENS)


class ReshapeIntents:
    """Mixed into `Document`: it provides `data`, `state`, `notice` and `push`."""

    data: LessonData
    notice: SignalInstance

    if TYPE_CHECKING:
        @property
        def state(self) -> LabState: ...

        def push(self, state: LabState, text: str, merge: int = -1) -> bool: ...

    def teaching_tokens(self) -> tuple[str, ...]:
        """The 4-D world's token names as they are now."""
        return reshape.tokens_of(self.state, self.data)

    def _token_index(self, index: object) -> int | None:
        tokens = self.teaching_tokens()
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index < len(tokens)):
            self.notice.emit(Notice.of("notice.no_token", index=index))
            return None
        return index

    def _name_refused(self, name: object, ignore: int | None = None) -> bool:
        problem = reshape.name_problem(name, self.teaching_tokens(), ignore)
        if problem is not None:
            self.notice.emit(name_notice(problem, str(name)))
        return problem is not None

    def add_token(self, name: str | None = None, stem: str = "token") -> bool:
        """Append a token (named `stem` N, in the interface's words, when no name is given),
        its q and k at zero."""
        tokens = self.teaching_tokens()
        problem = reshape.count_problem(len(tokens) + 1)
        if problem is not None:
            self.notice.emit(count_notice(problem))
            return False
        if name is None:
            name = reshape.new_name(tokens, stem)
        if self._name_refused(name):
            return False
        return self.push(reshape.add_token(self.state, self.data, name), "add token")

    def remove_token(self, index: int) -> bool:
        """Remove a token and its q and k; a selected token falls back to the lesson's pair."""
        if self._token_index(index) is None:
            return False
        problem = reshape.count_problem(len(self.teaching_tokens()) - 1)
        if problem is not None:
            self.notice.emit(count_notice(problem))
            return False
        return self.push(reshape.remove_token(self.state, self.data, index), "remove token")

    def rename_token(self, index: int, name: str) -> bool:
        if self._token_index(index) is None or self._name_refused(name, ignore=index):
            return False
        return self.push(reshape.rename_token(self.state, self.data, index, name),
                         "rename token")

    def set_dimension(self, d: int) -> bool:
        """Change the teaching world's width d (zeros added, columns dropped), one undo step.
        Says so when the change also puts the scorer back on the dot product or the heads
        back to one."""
        if isinstance(d, bool) or not isinstance(d, int) or not (
                reshape.MIN_DIM <= d <= reshape.MAX_DIM):
            self.notice.emit(Notice.of("notice.dimension.range", d=d, low=reshape.MIN_DIM,
                                high=reshape.MAX_DIM))
            return False
        before = self.state
        after = reshape.with_dimension(before, self.data, d)
        if before.teaching_q.shape[1] == d:
            return False
        if after.scorer != before.scorer:
            self.notice.emit(Notice.of("notice.dimension.scorer",
                                       scorer=scorer_term(before.scorer),
                                       d=self.data.teaching.W_Q.shape[1]))
        if after.options.heads != before.options.heads:
            self.notice.emit(Notice.of("notice.dimension.heads", d=d))
        return self.push(after, "dimension")
