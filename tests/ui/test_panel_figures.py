"""Each data panel exports its figure, not its controls: the PNG and SVG written through
`save_image` hold the plot's names and numbers as text, no button or hint, and librsvg draws
the SVG as the PNG shows it."""

from __future__ import annotations

import re

import pytest

from app.ui.panels.expansion.panel import ExpansionPanel
from tests.ui.exported import check_figure

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def test_term_by_term_exports_its_bars_with_values_and_names(open_panel, tmp_path) -> None:
    panel = open_panel(ExpansionPanel, (480, 460))
    texts = check_figure(panel, tmp_path, [panel.polar.text(), panel.dominant.text()])
    shown = re.search(r"= (\S+?),", panel.dominant.text())
    assert shown is not None, panel.dominant.text()
    assert shown.group(1) in texts, "the largest term's value, as the panel prints it"
    labels = [name for _x, name in panel._tick_labels]
    assert labels and set(labels) <= set(texts), "every term's name"
    assert panel.heading.text() in texts, "the heading names the pair"
