"""Owns wording the state layer's notices in the language on screen."""

from __future__ import annotations

from app.i18n import tr
from app.state.notice import Notice, Term


def word(message: Notice | str) -> str:
    """The notice's text now; a plain string (a system's own error text) passes as it is."""
    if isinstance(message, str):
        return message
    values = {name: tr(value.key) if isinstance(value, Term) else value
              for name, value in message.params.items()}
    return tr(message.key, **values)
