"""report/errata.md, a rendering of the report model's errata (one entry per refuted,
underspecified or undecided claim: its figures, the quote, cause, readings and suggested sentence,
built by the text's errata) from its template (templates/errata.md, every value escaped there);
index.html's section of them is its template's (templates/index.html), with the same heads
(wording.py figures_head, suggested_head)."""
from __future__ import annotations

from textcheck.report.views.pages import markdown_environment


def render(entries: list[dict], home: str = "the text's errata") -> str:
    """report/errata.md; `home`: where the errata's prose is written."""
    return markdown_environment().get_template("errata.md").render(entries=entries, home=home)
