"""report/claims.md: a row per claim, then a row per figure it checks (stated, measured, tolerance,
verdict, source); and how a cell writes a value."""
from __future__ import annotations

import html
import re

from claims import registry
from claims.formats import cell
from claims.verdicts import DECIDED, is_smoke, outcome_label, summary_text, verdict_label

NOT_RECORDED = "(not recorded)"


def md(text) -> str:
    """A string from a file (a run's report, the committed evidence, the registry) as Markdown
    text: its <, > and & written as entities, so that it cannot open HTML."""
    return html.escape(str(text), quote=False)


def md_line(text) -> str:
    """A string from a file as Markdown text that stays in its table cell or line: escaped
    (md), its pipes escaped and its line breaks made spaces."""
    return re.sub(r"\r\n|\r|\n", " ", md(text)).replace("|", "\\|")


def md_code(text) -> str:
    """A string from a file as a code span (`id`); one a code span cannot hold as it is (a
    backtick or a backslash would end it or its escape early, a pipe or a line break its table
    cell) is written as escaped text instead (md_line)."""
    text = str(text)
    return md_line(text) if re.search(r"[`\\|\r\n]", text) else f"`{text}`"


def md_fence(text: str) -> str:
    """`text` as a fenced code block, its fence longer than any run of backticks in it, so that
    no line of it closes the block early (what follows would be Markdown, HTML and all)."""
    fence = "`" * max(3, 1 + max(map(len, re.findall(r"`+", text)), default=0))
    return f"{fence}\n{text}\n{fence}"


def md_cell(x) -> str:
    """Any recorded value as an escaped cell of a Markdown table."""
    return md_line(cell(x))


def figure_name(t: dict) -> str:
    """What a test checks, in the words its record gives ('figure'), else its test id."""
    rec = t["records"][0] if t.get("records") else {}
    return str(rec.get("figure") or t["nodeid"].split("::", 1)[-1])


def accounting_text(acc: dict, fs: dict) -> str:
    rest = ", ".join(f"{k} {v}" for k, v in sorted(acc["by kind"].items(), key=lambda kv: -kv[1]) if k != "figure")
    return (f"{acc['numbers']} numbers in the chapter; {acc['figures']} asserted figures ({fs.get('holds', 0)} hold, "
            f"{fs.get('refuted', 0)} refuted, {fs.get('fails', 0)} fail, {fs.get('not run', 0)} not run, of which "
            f"{fs.get('device-specific', 0)} device-specific readings; {acc['by kind'].get('figure', 0)} of them "
            f"printed as digits, the rest as words); the other numbers by reason: {rest}")


def accounting_line(report: dict) -> str:
    """The accounting as the report states it, or why there is none (no chapter text)."""
    acc = report.get("accounting") or {}
    if "numbers" not in acc:
        return "The numbers of the chapter are not accounted here: " + (acc.get("not built") or "no chapter text")
    return accounting_text(acc, report.get("figure_summary") or {}) + "."


def render_markdown(report: dict) -> str:
    s = report["summary"]
    smoke = [("**Smoke scale**: every trained recipe ran a handful of steps; these verdicts check that "
              "the tests run, and say nothing about the chapter."), ""] if is_smoke(report) else []
    lines = ["# Which of the chapter's claims hold", "", *smoke,
             f"**{md(summary_text(s))}**.", "", md(accounting_line(report)), ""]
    by_section: dict[str, list] = {}
    for c in report["claims"]:
        by_section.setdefault(c["section"], []).append(c)
    for section, claims in by_section.items():
        lines += [f"## {md(registry.SECTIONS.get(section, section))}", "",
                  "| claim | the chapter | measured | tolerance | verdict | source |",
                  "|---|---|---|---|---|---|"]
        for c in claims:
            note = f" — {c['reason']}" if c.get("reason") and c["verdict"] != "holds" else ""
            src = ""
            if c["verdict"] in DECIDED:
                src = (f"{c.get('source')}: {c.get('tier')}, {c.get('device')}, "
                       f"seeds {c.get('seeds')}, {str(c.get('timestamp'))[:10]}")
            esc = md_cell
            lines.append(f"| {md_code(c['id'])} {esc(c['statement'])} | {esc(c['stated'])} "
                         f"| {esc(c['measured'])} | {esc(c['tolerance'])} "
                         f"| **{esc(verdict_label(c))}**{esc(note)} | {esc(src)} |")
            # then one row per figure (per test): the chapter's number, ours, the tolerance, its verdict
            for t in sorted(c.get("tests", []), key=lambda t: t["nodeid"]):
                rec = t["records"][0] if t.get("records") else {}
                outcome = outcome_label(t)
                why = f" — {t['reason']}" if t.get("reason") and outcome != "holds" else ""
                lines.append(f"| &nbsp;&nbsp;↳ {esc(figure_name(t))} | {esc(rec.get('stated', NOT_RECORDED))} "
                             f"| {esc(rec.get('measured', NOT_RECORDED))} "
                             f"| {esc(rec.get('tolerance', NOT_RECORDED))} | {esc(outcome)}{esc(why)} "
                             f"| {esc(str(t.get('source')) + ', ' + str(t.get('timestamp'))[:10])} |")
        lines.append("")
    return "\n".join(lines)
