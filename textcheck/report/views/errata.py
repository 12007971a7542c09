"""report/errata.md from its template (index.html's section of them is its own template's)."""
from __future__ import annotations

from textcheck.report.views.pages import markdown_environment


def render(entries: list[dict], home: str = "the text's errata") -> str:
    return markdown_environment().get_template("errata.md").render(entries=entries, home=home)
