"""Owns the question a start asks when the lesson was left past its first scene on another
day: a new class usually starts at the beginning, so "start again" is the default, and the
teacher who stopped mid-lesson yesterday can still go on where the class stopped."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import QMessageBox, QWidget

from app.i18n import tr


def asks_where_to_start(saved_day: object, today: date, index: int) -> bool:
    """Whether to ask: the lesson was left at scene `index` (0-based) past the first, on a
    day that is not `today` (or on a day the settings do not say: an older file)."""
    if index <= 0:
        return False
    try:
        return date.fromisoformat(str(saved_day)) != today
    except ValueError:
        return True


def continues(parent: QWidget | None, number: int, count: int) -> bool:
    """Ask whether to go on at scene `number` (1-based) of `count`; True to go on. Enter and
    Esc start again: the class's state stays one Ctrl+Z away either way."""
    box = QMessageBox(parent)
    box.setObjectName("resume_question")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(tr("resume.title"))
    box.setText(tr("resume.text", number=number, count=count))
    box.setInformativeText(tr("resume.detail"))
    again = box.addButton(tr("resume.start_again"), QMessageBox.ButtonRole.AcceptRole)
    again.setObjectName("resume_start_again")
    go_on = box.addButton(tr("resume.continue", number=number), QMessageBox.ButtonRole.RejectRole)
    go_on.setObjectName("resume_continue")
    box.setDefaultButton(again)
    box.setEscapeButton(again)
    box.exec()
    return box.clickedButton() is go_on
