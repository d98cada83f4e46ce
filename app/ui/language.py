"""Owns switching the interface language: the app's string table, Qt's own translations and
the stored choice, announced the way Qt announces it (`QEvent.LanguageChange`).

Every widget that shows text retranslates itself in `changeEvent` when that event reaches it;
docks behind a tab do it when they are next shown. Qt's translations make its own dialogs
(file dialogs, standard buttons) speak the same language as the app.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QTranslator

from app import i18n
from app.ui import settings as keys
from app.ui.settings import settings

_translator: QTranslator | None = None


def stored_language() -> str:
    """The language chosen last time, else the system's (Chinese on a Chinese system)."""
    chosen = str(settings().value(keys.LANGUAGE, ""))
    if chosen in i18n.languages():
        return chosen
    return i18n.default_language(QLocale.system().name())


def _install_qt_translations(lang: str) -> bool:
    """Swap Qt's own catalogue; True when that already told every widget (LanguageChange)."""
    global _translator
    app = QCoreApplication.instance()
    if app is None:
        return False
    changed = False
    if _translator is not None:
        app.removeTranslator(_translator)
        _translator, changed = None, True
    catalogue = i18n.get(lang).qt_catalogue  # Qt's own, shipped inside PySide6
    if catalogue:
        translator = QTranslator(app)
        folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if translator.load(catalogue, folder):
            app.installTranslator(translator)
            _translator, changed = translator, True
    return changed


def apply_language(lang: str) -> None:
    """Use `lang` everywhere now: the string table, Qt's dialogs, and every open widget.

    Raises ValueError (from the string table) for a language it does not have."""
    if lang == i18n.language() and (_translator is not None) == bool(
            i18n.get(lang).qt_catalogue):
        return
    i18n.set_language(lang)
    app = QCoreApplication.instance()
    if not _install_qt_translations(lang) and app is not None:
        QCoreApplication.postEvent(app, QEvent(QEvent.Type.LanguageChange))
    if app is not None:
        # Qt delivers LanguageChange in two hops: the application's event posts one to every
        # top-level window. Deliver both now, so every widget is retranslated on return.
        for _hop in range(2):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)


def choose_language(lang: str) -> None:
    """The user picked a language: use it and remember it for the next start."""
    apply_language(lang)
    store = settings()
    store.setValue(keys.LANGUAGE, lang)
    store.sync()
