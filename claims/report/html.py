"""report/index.html: one static page, the plots and badges inlined, readable from file://."""
from __future__ import annotations

from pathlib import Path

from claims import registry
from claims.formats import cell
from claims.report.markdown import NOT_RECORDED, accounting_line, figure_name
from claims.verdicts import DECIDED, is_smoke, outcome_label, summary_text, verdict_label


def render_html(report: dict, plots: list[Path], badge_dir: Path | None = None, tables_html: str = "",
                chapter_view: str | None = None, chapter_missing: str = "") -> str:
    """One static page, the plots inlined, readable from file:// without a server; it links to
    the chapter view (chapter.html) or says why that was not built."""
    import html
    s = report["summary"]
    rows, section = [], None
    for c in report["claims"]:
        if c["section"] != section:
            section = c["section"]
            rows.append(f"<tr class='section'><th colspan='6'>{html.escape(registry.SECTIONS.get(section, section))}</th></tr>")
        cls = html.escape(c["verdict"].replace(" ", "-"))
        rows.append(f"<tr class='{cls}'><td><code>{html.escape(c['id'])}</code><br>{html.escape(c['statement'])}</td>"
                    f"<td>{html.escape(cell(c['stated']))}</td><td>{html.escape(cell(c['measured']))}</td>"
                    f"<td>{html.escape(cell(c['tolerance']))}</td><td><b>{html.escape(verdict_label(c))}</b> "
                    f"{html.escape(c.get('reason') or '') if c['verdict'] != 'holds' else ''}</td>"
                    f"<td>{html.escape(_source(c))}</td></tr>")
        rows += [_figure_row(c["id"], t) for t in sorted(c.get("tests", []), key=lambda t: t["nodeid"])]
    badge_dir = badge_dir or Path()
    badge_imgs = " ".join(
        f"<img class='badge' alt='{html.escape(p.stem)}' src='data:image/svg+xml;base64,{_base64(p)}'>"
        for p in sorted(badge_dir.glob("*.svg"), key=lambda p: (p.stem != "overall", p.stem)))
    figs = "".join(
        f"<figure><img alt='{html.escape(p.stem)}' src='data:image/png;base64,{_base64(p)}'>"
        f"<figcaption>{html.escape(p.name)}</figcaption></figure>" for p in plots)
    view = (f"<a href='{html.escape(chapter_view)}'>Read the chapter with every figure marked in place</a> "
            "(its verdict, our measurement on hover); <a href='#figures'>the figures, one row each</a>."
            if chapter_view
            else "The chapter view was not built: " + html.escape(chapter_missing or "no chapter text"))
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>attention-claims report</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:1400px}}table{{border-collapse:collapse;width:100%}}
td,th{{border:1px solid #ccc;padding:4px;font-size:13px;vertical-align:top}}tr.holds{{background:#e9f7ea}}
tr.refuted{{background:#fdf1dc}}tr.stale{{background:#eee8f5}}tr.fails{{background:#fbe0e0}}tr.not-run,tr.not-encoded{{color:#777}}
tr.section th{{background:#eef;text-align:left}}tr.figure td{{font-size:12px;color:#333}}
td.figure-name{{padding-left:1.5em}}figure{{display:inline-block;margin:1em}}figure img{{max-width:640px}}img.badge{{margin:2px}}</style></head><body>
<h1>Which of the chapter's claims hold</h1>
{"<p id='smoke'><b>Smoke scale</b>: every trained recipe ran a handful of steps; these verdicts check that the tests run, and say nothing about the chapter.</p>" if is_smoke(report) else ""}
<p id="summary">{html.escape(summary_text(s))}.</p>
<p id="accounting">{html.escape(accounting_line(report))}</p>
{badge_imgs}
<p id="chapter-view">{view}</p>
<table id="claims"><tr><th>claim</th><th>the chapter</th><th>measured</th><th>tolerance</th><th>verdict</th><th>source</th></tr>
{''.join(rows)}</table>
{_figures_table(report)}<h2>Plots</h2>{figs or '<p>No plots yet: run the slow or gpu tier.</p>'}
{tables_html}</body></html>"""




def _base64(path: Path) -> str:
    import base64
    return base64.b64encode(path.read_bytes()).decode()


def _figures_table(report: dict) -> str:
    """One row per figure of the chapter, id="fig-<figure ID>" (the chapter view's marks link here)."""
    import html
    rows = report.get("figures") or []
    if not rows:
        return ""
    body = "".join(
        f"<tr class='{html.escape(r['label'].split(':')[0].replace(' ', '-'))}' id='fig-{html.escape(r['id'])}'>"
        f"<td><code>{html.escape(r['id'])}</code></td><td><code>{html.escape(r['claim'])}</code></td>"
        f"<td>{html.escape(r['printed'])}</td><td>{html.escape(cell(r.get('measured')))}</td>"
        f"<td>{html.escape(cell(r.get('tolerance')))}</td><td><b>{html.escape(r['label'])}</b></td>"
        f"<td>{html.escape((r.get('test') or '').split('::')[-1])}</td></tr>" for r in rows)
    return ("<h2 id='figures'>The chapter's figures, one row each (" + str(len(rows)) + ")</h2>"
            "<table class='figures'><tr><th>figure</th><th>claim</th><th>the chapter</th><th>measured</th><th>tolerance</th>"
            "<th>verdict</th><th>test</th></tr>" + body + "</table>")


def _figure_row(cid: str, t: dict) -> str:
    """One row per test of a claim, that is per figure it checks: its stated, measured and
    tolerance, its outcome and why."""
    import html
    rec = t["records"][0] if t.get("records") else {}
    name = figure_name(t)
    cells = [html.escape(cell(rec[k])) if k in rec and rec[k] is not None
             else NOT_RECORDED for k in ("stated", "measured", "tolerance")]
    outcome = outcome_label(t)
    reason = html.escape(t.get("reason") or "") if outcome != "holds" else ""
    src = html.escape(f"{t.get('source')}: {t.get('tier')}, {t.get('device')}, {str(t.get('timestamp'))[:10]}")
    cls = html.escape(outcome.split(":")[0].replace(" ", "-"))
    return (f"<tr class='figure {cls}' data-claim='{html.escape(cid)}'>"
            f"<td class='figure-name'>&#8627; {html.escape(name)}</td><td>{cells[0]}</td><td>{cells[1]}</td>"
            f"<td>{cells[2]}</td><td><b>{html.escape(outcome)}</b> {reason}</td><td>{src}</td></tr>")


def _source(c: dict) -> str:
    if c["verdict"] not in DECIDED:
        return ""
    return (f"{c.get('source')}: {c.get('tier')}, {c.get('device')}, seeds {c.get('seeds')}, "
            f"{str(c.get('timestamp'))[:10]}, torch {c.get('torch')}")


# The generated blocks: (file, start marker, end marker).  The README shows the badges and the
# summary line; docs/claims.md the table of every claim.
