"""The report's own pages from their templates: index.html (autoescaped, one static page, the plots
and badges inlined; each claim's row has the id claim-<claim ID> and each figure's fig-<figure ID>,
which the chapter view's marks link to), claims.md (the counts, the accountings, the claim table)
and errata.md, every value escaped there."""
from __future__ import annotations

from textcheck.report.assembly.tables_plots import data_uri
from textcheck.report.views.pages import environment, markdown_environment
from textcheck.report.views.tables import TITLE as TABLES_TITLE
from textcheck.report.views.wording import SMOKE, accounting_line, sentences_line

CSS = """body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:4px;font-size:13px;vertical-align:top}tr.holds{background:#e9f7ea}
tr.refuted{background:#fdf1dc}tr.stale{background:#eee8f5}tr.fails{background:#fbe0e0}tr.not-run,tr.not-encoded{color:#777}
tr.section th{background:#eef;text-align:left}tr.figure td{font-size:12px;color:#333}
td.figure-name{padding-left:1.5em}figure{display:inline-block;margin:1em}figure img{max-width:640px}img.badge{margin:2px}"""


def render_html(r, svgs: dict[str, str]) -> str:
    badges = [{"label": b.label, "uri": data_uri(svgs[b.name].encode(), "image/svg+xml")}
              for b in r.badges if b.name in svgs]
    return environment().get_template("index.html").render(
        r=r, css=CSS, smoke=SMOKE, badges=badges, tables_title=TABLES_TITLE,
        accounting=accounting_line(r.accounting, r.figure_summary), sentences=sentences_line(r.sentences))


def render_markdown(r) -> str:
    return markdown_environment().get_template("claims.md").render(
        r=r, smoke=SMOKE, accounting=accounting_line(r.accounting, r.figure_summary), sentences=sentences_line(r.sentences))


def render_errata(entries, home: str = "the text's errata") -> str:
    return markdown_environment().get_template("errata.md").render(entries=entries, home=home)
