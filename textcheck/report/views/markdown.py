"""report/claims.md from its template: the counts, the accountings, then the claim table."""
from __future__ import annotations

from textcheck.report.views.pages import markdown_environment
from textcheck.report.views.wording import SMOKE, accounting_line, sentences_line


def render_markdown(r) -> str:
    return markdown_environment().get_template("claims.md").render(
        r=r, smoke=SMOKE, accounting=accounting_line(r.accounting, r.figure_summary), sentences=sentences_line(r.sentences))
