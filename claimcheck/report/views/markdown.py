"""report/claims.md, a rendering of the report model (claimcheck/report/model/report.py): the
counts, the accountings, then by section a row per claim and a row per figure it checks (the claim
table, claimcheck/report/model/claim_rows.py)."""
from __future__ import annotations

from claimcheck.report.views.escape import md, md_code, md_line
from claimcheck.report.views.wording import SMOKE, accounting_line, sentences_line


def render_markdown(r) -> str:
    """`r`: the report model (claimcheck/report/model/report.py Report)."""
    smoke = [f"**Smoke scale**: {md(SMOKE)}", ""] if r.smoke else []
    lines = ["# Which of the chapter's claims hold", "", *smoke, f"**{md(r.summary_line)}**.", "",
             md(accounting_line(r.accounting, r.figure_summary)), "", md(sentences_line(r.sentences)), ""]
    for s in r.sections:
        lines += [f"## {md(s.title)}", "", "| claim | the chapter | measured | tolerance | verdict | source |",
                  "|---|---|---|---|---|---|"]
        for c in s.claims:
            note = f" — {c.why}" if c.why else ""
            lines.append(f"| {md_code(c.id)} {md_line(c.statement)} | {md_line(c.stated)} | {md_line(c.measured)} "
                         f"| {md_line(c.tolerance)} | **{md_line(c.label)}**{md_line(note)} | {md_line(c.source)} |")
            # then one row per figure (per test): the chapter's number, ours, the tolerance, its verdict
            for t in c.tests:
                why = f" — {t.why}" if t.why else ""
                lines.append(f"| &nbsp;&nbsp;↳ {md_line(t.name)} | {md_line(t.stated)} | {md_line(t.measured)} "
                             f"| {md_line(t.tolerance)} | {md_line(t.outcome)}{md_line(why)} | {md_line(t.source)} |")
        lines.append("")
    return "\n".join(lines)
