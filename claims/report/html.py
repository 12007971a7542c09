"""report/index.html, a rendering of the report model (claims/report/model.py): one static page,
the plots and badges inlined, readable from file://.  Each claim's row has the id claim-<claim
ID> and each figure's fig-<figure ID>: the chapter view's marks link to them."""
from __future__ import annotations

from html import escape

from claimcheck.formats import cell
from claimcheck.verdicts import summary_text
from claims.report import errata, tables
from claims.report.page_parts import badge_imgs, css_class, smoke_html
from claims.report.wording import accounting_line, sentences_line

CSS = """body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:4px;font-size:13px;vertical-align:top}tr.holds{background:#e9f7ea}
tr.refuted{background:#fdf1dc}tr.stale{background:#eee8f5}tr.fails{background:#fbe0e0}tr.not-run,tr.not-encoded{color:#777}
tr.section th{background:#eef;text-align:left}tr.figure td{font-size:12px;color:#333}
td.figure-name{padding-left:1.5em}figure{display:inline-block;margin:1em}figure img{max-width:640px}img.badge{margin:2px}"""


def _claim_rows(r) -> str:
    """The claim table: a header row per section, a row per claim, a row per figure it checks."""
    rows = []
    for s in r.sections:
        rows.append(f"<tr class='section'><th colspan='6'>{escape(s.title)}</th></tr>")
        for c in s.claims:
            rows.append(f"<tr class='{css_class(c.verdict)}' id='claim-{escape(c.id)}'><td><code>{escape(c.id)}</code>"
                        f"<br>{escape(c.statement)}</td><td>{escape(c.stated)}</td><td>{escape(c.measured)}</td>"
                        f"<td>{escape(c.tolerance)}</td><td><b>{escape(c.label)}</b> {escape(c.why)}</td>"
                        f"<td>{escape(c.source)}</td></tr>")
            rows += [f"<tr class='figure {escape(t.kind)}' data-claim='{escape(c.id)}'><td class='figure-name'>&#8627; "
                     f"{escape(t.name)}</td><td>{escape(t.stated)}</td><td>{escape(t.measured)}</td>"
                     f"<td>{escape(t.tolerance)}</td><td><b>{escape(t.outcome)}</b> {escape(t.why)}</td>"
                     f"<td>{escape(t.source)}</td></tr>" for t in c.tests]
    return "".join(rows)


def _figures_table(figures: list[dict]) -> str:
    """One row per figure of the chapter, id="fig-<figure ID>" (the chapter view's marks link here)."""
    if not figures:
        return ""
    body = "".join(
        f"<tr class='{css_class(f['label'].split(':')[0])}' id='fig-{escape(f['id'])}'>"
        f"<td><code>{escape(f['id'])}</code></td><td><code>{escape(f['claim'])}</code></td>"
        f"<td>{escape(f['printed'])}</td><td>{escape(cell(f.get('measured')))}</td>"
        f"<td>{escape(cell(f.get('tolerance')))}</td><td><b>{escape(f['label'])}</b></td>"
        f"<td>{escape((f.get('test') or '').split('::')[-1])}</td></tr>" for f in figures)
    return (f"<h2 id='figures'>The chapter's figures, one row each ({len(figures)})</h2>"
            "<table class='figures'><tr><th>figure</th><th>claim</th><th>the chapter</th><th>measured</th>"
            "<th>tolerance</th><th>verdict</th><th>test</th></tr>" + body + "</table>")


def _view_line(r) -> str:
    if r.chapter is None:
        return "The chapter view was not built: " + escape(r.chapter_missing)
    return ("<a href='chapter.html'>Read the chapter with every figure marked in place</a> (its verdict, our "
            "measurement on hover; each sentence that asserts a claim, with its verdict); "
            "<a href='#figures'>the figures, one row each</a>.")


def render_html(r, svgs: dict[str, str]) -> str:
    """`r`: the report model (claims/report/model.py Report); `svgs`: its badges' SVGs, by name."""
    plots = "".join(f"<figure><img alt='{escape(p.stem)}' src='{p.uri}'>"
                    f"<figcaption>{escape(p.name)}</figcaption></figure>" for p in r.plots)
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>attention-claims report</title>
<style>{CSS}</style></head><body>
<h1>Which of the chapter's claims hold</h1>
{smoke_html(r.smoke)}
<p id="summary">{escape(summary_text(r.summary))}.</p>
<p id="accounting">{escape(accounting_line(r.accounting, r.figure_summary))}</p>
<p id="sentences">{escape(sentences_line(r.sentences))}</p>
{badge_imgs(r.badges, svgs)}
<p id="chapter-view">{_view_line(r)}</p>
<table id="claims"><tr><th>claim</th><th>the chapter</th><th>measured</th><th>tolerance</th><th>verdict</th><th>source</th></tr>
{_claim_rows(r)}</table>
{_figures_table(r.figures)}<h2>Plots</h2>{plots or '<p>No plots yet: run the slow or gpu tier.</p>'}
{tables.render_html(r.tables)}
{errata.render_html(r.errata)}</body></html>"""
