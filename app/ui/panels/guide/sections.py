"""Owns the guide's text sections as rich text: the story, misconception, evidence, gap, Q&A.

Each section is (object name, heading key, body) built from string keys and the lesson
values (numbers already formatted from `lesson_figures()` and made bold).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

from app.i18n import tr


@dataclass(frozen=True)
class Section:
    """One block of the guide; `body` takes the bold values and returns HTML."""

    name: str
    heading_key: str | None
    body: Callable[[dict[str, str]], str]


def _paragraph(key: str) -> Callable[[dict[str, str]], str]:
    return lambda values: f"<p>{tr(key, **values)}</p>"


def _myth(values: dict[str, str]) -> str:
    claim = html.escape(tr("guide.myth.claim"))
    return f"<p><b><i>{claim}</i></b></p><p>{tr('guide.myth.body', **values)}</p>"


def _evidence(values: dict[str, str]) -> str:
    items = (tr("guide.evidence.math", **values), tr("guide.evidence.efficiency", **values),
             tr("guide.evidence.results", **values))
    return "<ol>" + "".join(f"<li>{item}</li>" for item in items) + "</ol>"


def _summary(values: dict[str, str]) -> str:
    return f"<p style='font-size:large'><b>{tr('guide.summary.body', **values)}</b></p>"


def _faq(values: dict[str, str]) -> str:
    pairs = (("guide.faq.cosine.q", "guide.faq.cosine.a"),
             ("guide.faq.additive.q", "guide.faq.additive.a"),
             ("guide.faq.sum.q", "guide.faq.sum.a"))
    return "".join(
        f"<p><b>{html.escape(tr(q))}</b></p><p style='margin-left:12px'>{tr(a, **values)}</p>"
        for q, a in pairs)


BEFORE_MEASURE: tuple[Section, ...] = (
    Section("guide_intro", None, _paragraph("guide.intro")),
    Section("guide_step1", "guide.step1.title", _paragraph("guide.step1.body")),
    Section("guide_step2", "guide.step2.title", _paragraph("guide.step2.body")),
)
"""The story up to "where it fails"; the measurement box follows right after."""

AFTER_MEASURE: tuple[Section, ...] = (
    Section("guide_step3", "guide.step3.title", _paragraph("guide.step3.body")),
)
"""The improved scorer; the checklist follows it, as in the lesson."""

CLOSING: tuple[Section, ...] = (
    Section("guide_myth", "guide.myth.title", _myth),
    Section("guide_evidence", "guide.evidence.title", _evidence),
    Section("guide_summary", "guide.summary.title", _summary),
    Section("guide_next", "guide.next.title", _paragraph("guide.next.body")),
    Section("guide_faq", "guide.faq.title", _faq),
)
"""Misconception, evidence, summary, the next gap and the answered questions."""


def section_html(section: Section, values: dict[str, str]) -> str:
    """Heading (if any) and body of one section."""
    heading = (f"<h3>{html.escape(tr(section.heading_key))}</h3>"
               if section.heading_key else "")
    return heading + section.body(values)
