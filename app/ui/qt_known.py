"""Owns the Qt getters that are typed as optional where the interface knows the object is
there: the running QApplication (`gui_app`), a widget's own layout (`layout_of`) and the
widget a layout holds at an index (`widget_at`).

`QApplication.instance()` is typed as an optional QCoreApplication, `QWidget.layout()` as
an optional QLayout; the interface always runs inside the QApplication that `app.startup`
(or a test) made first, and asks only widgets that set a layout in their constructor.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QLayout, QWidget

__all__ = ["gui_app", "layout_of", "widget_at"]


def gui_app() -> QApplication:
    """The running QApplication; RuntimeError when there is none (a bug in the caller)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        raise RuntimeError("the interface needs a running QApplication")
    return app


def layout_of(widget: QWidget | None) -> QLayout:
    """`widget`'s layout (a scroll area's page, say); RuntimeError when there is no widget
    or it has no layout (a bug in the caller)."""
    layout = widget.layout() if widget is not None else None
    if layout is None:
        raise RuntimeError(f"{type(widget).__name__} has no layout")
    return layout


def widget_at(layout: QLayout, index: int) -> QWidget:
    """The widget of `layout`'s item `index`; RuntimeError when there is none there."""
    item = layout.itemAt(index)
    widget = item.widget() if item is not None else None
    if widget is None:
        raise RuntimeError(f"{type(layout).__name__} holds no widget at {index}")
    return widget
