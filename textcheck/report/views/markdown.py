"""report/claims.md, a rendering of the report model (textcheck/report/assembly/report.py): the
counts, the accountings, then by section a row per claim and a row per figure it checks (the claim
table, textcheck/report/assembly/claim_rows.py)."""
from __future__ import annotations

from textcheck.report.views.pages import markdown_environment
from textcheck.report.views.wording import SMOKE, accounting_line, sentences_line


def render_markdown(r) -> str:
    """`r`: the report model (textcheck/report/assembly/report.py Report); from templates/claims.md,
    every value written by md_line."""
    return markdown_environment().get_template("claims.md").render(
        r=r, smoke=SMOKE, accounting=accounting_line(r.accounting, r.figure_summary), sentences=sentences_line(r.sentences))
