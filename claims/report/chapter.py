"""The chapter view: report/chapter.html and report/chapter.md, the chapter itself with every
asserted figure marked where it is printed.

Built by `python -m claims.report` from the chapter's text (data/chapter.py), the merged report's
figure rows (claims/verdicts.py figure_rows: each of claims/chapter_figures.py's figures with its
verdict, found by figure ID) and the errata.  Each mark shows its verdict by colour and by a
symbol (readable without colour), our measurement on hover or focus, and links to its figure row
in index.html; each refuted sentence the errata quote is marked, with the suggested sentence
after its paragraph and a link to its erratum.  The header gives the verdict counts, the badges
and the accounting of every number in the chapter (claims/accounting.py).  The math is typeset as
MathML (chapter_math.py: a mark inside a formula wraps the whole formula); our regenerated tables
and the plots sit in place (chapter_inserts.py: a table cell restating a printed figure carries a
secondary mark linking to its one mark in the text).  The text, cut: chapter_text.py.  The
reading aids: the contents (chapter_toc.py), keys to the refuted figures, permalinks and the
print stylesheet (chapter_page.py), and since when each verdict has stood (chapter_since.py).  The
Markdown version (chapter_md.py) puts the marks as footnotes, so it renders on a forge.  Imports
no torch.
"""
from __future__ import annotations

import base64
import html
from pathlib import Path

from claims import accounting
from claims.formats import cell, over_seeds
from claims.report import chapter_inserts, chapter_math, chapter_page, chapter_since, chapter_toc
from claims.report.chapter_text import Block, Mark, Quote, blocks, marks, quotes  # noqa: F401  (the text, cut)
from claims.report.markdown import accounting_text
from claims.verdicts import is_smoke, summary_text

# a verdict's symbol, so that a mark reads without colour
SYMBOL = {"holds": "✓", "refuted": "✗", "fails": "‼", "stale": "↻", "not run": "○", "device-specific": "◇"}
LEGEND = {"holds": "holds", "refuted": "refuted (the chapter's figure is contradicted by our measurement)",
          "fails": "fails (a broken test)", "stale": "stale (decided under an older rule)",
          "not run": "not run here", "device-specific": "not run: device-specific (a figure of the chapter's "
                                                         "CUDA laptop card; ours is a reading beside it)"}


def kind_of(row: dict) -> str:
    """The mark's kind: its verdict, or "device-specific" for a reading of a CUDA figure."""
    return "device-specific" if row["label"] == "not run: device-specific" else row["verdict"]


def _details(row: dict) -> list[tuple[str, str]]:
    """What a reader sees on hover or focus: the chapter's figure, ours, the tolerance, the source."""
    src = ", ".join(str(x) for x in (row.get("source"), row.get("measured_on"), str(row.get("timestamp") or "")[:10])
                    if x and x != "None")
    measured = row.get("measured")
    if row["printed"].endswith("%") and isinstance(measured, dict) and measured.get("per seed"):
        ours = over_seeds([100 * v for v in measured["per seed"]], " %")      # as the chapter writes it
    else:
        ours = cell(measured) or "not measured"
    out = [("figure", f"{row['id']} (claim {row['claim']})"), ("verdict", row["label"]),
           ("the chapter", row["printed"]), ("ours", ours),
           ("tolerance", cell(row.get("tolerance")) or "-"), ("seeds", str(row.get("seeds") or "-")),
           ("source", src or "-")]
    if row.get("since"):                     # the evidence's date and commit (claims/report/chapter_since.py)
        out.append(("since", row["since"]))
    if row.get("reason") and row["verdict"] != "holds":
        out.append(("why", row["reason"]))
    return [(k, v if len(v) <= 400 else v[:397] + "...") for k, v in out]


def _anchor(fid: str) -> str:
    return f"fig-{fid}"


# ------------------------------------------------------------------------------------------ HTML

CSS = """body{font-family:Georgia,serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.55;color:#222}
header{font-family:sans-serif;font-size:14px;border-bottom:1px solid #ccc;margin-bottom:1.5em;padding-bottom:1em}
header h1{font-size:20px}img.badge{margin:2px}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:13px;line-height:1.4}
main p,main pre{position:relative}
a.fig{text-decoration:none;color:inherit;border-bottom:2px solid;padding:0 1px;border-radius:2px}
a.fig .sym{font-size:.75em;vertical-align:super;margin-left:1px;font-family:sans-serif}
a.fig.holds{background:#dff3e1;border-color:#2e7d32}a.fig.holds .sym{color:#2e7d32}
a.fig.refuted{background:#fde2c8;border-color:#c62828}a.fig.refuted .sym{color:#c62828}
a.fig.fails{background:#f8c9c9;border-color:#8e0000}a.fig.stale{background:#ece3f5;border-color:#6a1b9a}
a.fig.not-run{background:#eee;border-color:#999}a.fig.device-specific{background:#e3eef9;border-color:#1565c0;border-bottom-style:dashed}
a.fig .tip{display:none;position:absolute;z-index:10;left:1em;margin-top:1.7em;width:30em;max-width:90%;background:#fff;border:1px solid #888;
box-shadow:0 2px 8px rgba(0,0,0,.25);padding:.5em;font:12px/1.4 sans-serif;white-space:normal;color:#222}
a.fig:hover .tip,a.fig:focus .tip{display:block}a.fig .tip b{display:inline-block;min-width:6em}
pre a.fig .tip{white-space:normal}
span.refuted-sentence{text-decoration:underline wavy #c62828;text-decoration-skip-ink:none}
aside.suggested{font-family:sans-serif;font-size:14px;background:#fff8e1;border-left:4px solid #c62828;padding:.5em .8em;margin:.5em 0 1.2em}
.legend span{margin-right:1.2em}"""
CSS += "\n" + chapter_inserts.CSS          # math, our tables and plots in place (claims/report/chapter_inserts.py)


def _mark_html(m: Mark, text: str, render=html.escape) -> str:
    row, kind, details = m.row, kind_of(m.row), _details(m.row)
    cls, anchor = html.escape(kind.replace(" ", "-")), html.escape(_anchor(row["id"]))
    tip = "".join(f"<b>{html.escape(k)}:</b> {html.escape(v)}<br>" for k, v in details)
    tip += f"<b>permalink:</b> chapter.html#{anchor}"      # opens this tooltip (claims/report/chapter_page.py)
    return (f"<a class='fig {cls}' id='{anchor}' href='index.html#{anchor}' "
            f"data-figure='{html.escape(row['id'])}' data-verdict='{html.escape(row['verdict'])}' "
            f"data-kind='{cls}' data-ours='{html.escape(dict(details)['ours'])}' "
            f"aria-label='{html.escape(row['printed'])}: {html.escape(row['label'])}'>"
            f"{render(text)}<span class='sym' aria-hidden='true'>{SYMBOL[kind]}</span>"
            f"<span class='tip' role='tooltip'>{tip}</span></a>")


def _ref_html(row: dict, text: str) -> str:
    """A secondary mark, in one of our tables (claims/report/chapter_inserts.py): a cell restating
    a figure the chapter prints, with its verdict, linking to the figure's one mark in the text."""
    kind = kind_of(row)
    cls, anchor = html.escape(kind.replace(" ", "-")), html.escape(_anchor(row["id"]))
    return (f"<a class='figref {cls}' href='#{anchor}' data-ref='{html.escape(row['id'])}' "
            f"data-verdict='{html.escape(row['verdict'])}' title='the chapter prints "
            f"{html.escape(row['printed'])} in the text: {html.escape(row['label'])}'>{html.escape(text)}"
            f"<span class='sym' aria-hidden='true'>{SYMBOL[kind]}</span></a>")


def _render_span(chapter: str, start: int, end: int, ms: list[Mark], qs: list[Quote], text=html.escape) -> str:
    """Text of [start, end) with its marks and refuted sentences (quotes hold whole marks), each
    piece written by `text`: escaped, or, in prose, with its math typeset (chapter_math.render)."""
    events = []
    for q in qs:
        if q.start < end and q.end > start:
            events.append((max(q.start, start), 0, "open", q))
            events.append((min(q.end, end), 1, "close", q))
    for m in ms:
        if start <= m.start and m.end <= end:
            events.append((m.start, 2, "mark", m))
    out, at = [], start
    for pos, _, what, obj in sorted(events, key=lambda e: (e[0], e[1])):
        if what == "mark" and pos < at:
            continue                          # inside an earlier mark (never, anchors do not overlap)
        out.append(text(chapter[at:pos]))
        at = pos
        if what == "open":
            out.append(f"<span class='refuted-sentence' data-claims='{html.escape(' '.join(obj.claims))}' "
                       f"title='refuted: {html.escape(', '.join(obj.claims))}'>")
        elif what == "close":
            out.append("</span>")
        else:
            out.append(_mark_html(obj, chapter[obj.start:obj.end], text))
            at = obj.end
    out.append(text(chapter[at:end]))
    return "".join(out)


def suggestion(e: dict) -> str:
    return e.get("suggested") or "no suggested sentence yet: " + (e.get("cause") or "not yet diagnosed")


def _suggested_html(q: Quote, entries: dict[str, dict], shown: dict[str, str]) -> str:
    """The suggested sentence of each refuted claim quoted here; one several claims share is
    written once, and pointed to after that (`shown`: sentence -> the claim it was written for)."""
    parts = []
    for cid in q.claims:
        text, c = suggestion(entries[cid]), html.escape(cid)
        if text in shown:
            first = html.escape(shown[text])
            body = f"Suggested: the sentence suggested for <a href='#suggested-{first}'><code>{first}</code></a>."
        else:
            shown[text] = cid
            body = f"Suggested: {chapter_math.render(text)}"          # escaped, its math typeset
        parts.append(f"<aside class='suggested' id='suggested-{c}' data-claim='{c}'><b>Refuted: <code>{c}</code>.</b> "
                     f"{body} <a href='index.html#erratum-{c}'>the erratum</a></aside>")
    return "".join(parts)


def header_counts(report: dict, chapter: str) -> dict:
    fs = report.get("figure_summary") or {}
    acc = report.get("accounting") if "numbers" in (report.get("accounting") or {}) else accounting.accounting(chapter)
    return {"claims": summary_text(report["summary"]), "figures": fs, "accounting": acc}


def render_html(chapter: str, report: dict, entries: list[dict], badge_dir: Path | None = None,
                inserts: chapter_inserts.Inserts | None = None) -> str:
    ms = marks(chapter, report)
    qs, unplaced = quotes(chapter, entries)
    # a formula is an atom: a mark or a quote that cuts one covers it whole (chapter_math.widen)
    math = chapter_math.spans(chapter, blocks(chapter))
    ms, qs = chapter_math.widen(ms, math), chapter_math.widen(qs, math)
    rows = {r["id"]: r for r in report.get("figures", [])}
    ref = lambda fid, text: _ref_html(rows[fid], text) if fid in rows else html.escape(text)
    places = chapter_inserts.placed(chapter, blocks(chapter)) if inserts is not None else {}
    by_id = {e["id"]: e for e in entries}
    counts = header_counts(report, chapter)
    badges = " ".join(
        f"<img class='badge' alt='{html.escape(p.stem)}' "
        f"src='data:image/svg+xml;base64,{base64.b64encode(p.read_bytes()).decode()}'>"
        for p in sorted((badge_dir or Path("/nonexistent")).glob("*.svg"), key=lambda p: (p.stem != "overall", p.stem)))
    legend = "".join(f"<span><a class='fig {k.replace(' ', '-')}'>&#8201;<span class='sym'>{SYMBOL[k]}</span></a> "
                     f"{html.escape(v)}</span>" for k, v in LEGEND.items())
    toc, starts = chapter_toc.contents(chapter, [b.start for b in blocks(chapter)],
                                       [(m.start, kind_of(m.row)) for m in ms], SYMBOL)
    body, shown = [], {}
    for b in blocks(chapter):
        body.append(starts.get(b.start, ""))               # a section's marker (claims/report/chapter_toc.py)
        inner = _render_span(chapter, b.start, b.end, ms, qs, html.escape if b.kind == "pre" else chapter_math.render)
        if b.kind == "title":
            body.append(f"<h1>{inner}</h1>")
        elif b.kind == "pre":
            body.append(f"<pre>{inner}</pre>")
        else:
            body.append(f"<p>{inner}</p>")
        body += [_suggested_html(q, by_id, shown) for q in qs if b.start <= q.start < b.end]
        body += chapter_inserts.html_after(places.get(b.start, []), inserts, ref) if inserts is not None else []
    missing = "".join(f"<li><code>{html.escape(e['id'])}</code>: {html.escape(e.get('suggested') or e['statement'])} "
                      f"<a href='index.html#erratum-{html.escape(e['id'])}'>the erratum</a></li>" for e in unplaced)
    fs = {k: html.escape(str(v)) for k, v in counts["figures"].items()}     # a smoke run's, from its file
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>The chapter, checked in place: attention-claims</title><style>{CSS}{chapter_page.CSS}</style></head><body>
<header><h1>The chapter, checked in place</h1>
{"<p id='smoke'><b>Smoke scale</b>: every trained recipe ran a handful of steps; these marks check that the tests run, and say nothing about the chapter.</p>" if is_smoke(report) else ""}
<p id="claim-counts">Claims: {html.escape(counts['claims'])}.</p>
<p id="figure-counts" data-holds="{fs.get('holds', 0)}" data-refuted="{fs.get('refuted', 0)}"
 data-fails="{fs.get('fails', 0)}" data-not-run="{fs.get('not run', 0)}" data-stale="{fs.get('stale', 0)}"
 data-device-specific="{fs.get('device-specific', 0)}">Figures: {fs.get('holds', 0)} hold, {fs.get('refuted', 0)}
 refuted, {fs.get('fails', 0)} fail, {fs.get('stale', 0)} stale, {fs.get('not run', 0)} not run (of which
 {fs.get('device-specific', 0)} device-specific), of {fs.get('total', 0)}.</p>
<p id="accounting">{html.escape(accounting_text(counts['accounting'], counts['figures']))}.</p>
<p>{badges}</p><p class="legend">{legend}</p>
<p>Hover over or focus a marked number for our measurement; it links to its row in
<a href="index.html">the report</a>. A wavy underline is a refuted sentence; the suggested one follows its paragraph.
Keys <kbd>n</kbd> and <kbd>p</kbd> go to the next and the previous refuted figure; chapter.html#fig-&lt;figure ID&gt;
opens a figure's tooltip.</p>{toc}
{f"<p>Refuted claims whose erratum quotes no sentence of the text:</p><ul id='unplaced'>{missing}</ul>" if missing else ""}
</header><main>
{chr(10).join(body)}
</main>{chapter_page.KEYS_HINT}{chapter_page.JS}</body></html>
"""


def build(out: Path, chapter: str | None, why_absent: str, report: dict, entries: list[dict],
          built_tables=None) -> list[Path]:
    """Write report/chapter.html and report/chapter.md; without the chapter, write neither and
    say why in report/chapter-not-built.txt (index.html reads it)."""
    missing = out / "chapter-not-built.txt"
    if chapter is None:
        for name in ("chapter.html", "chapter.md"):
            (out / name).unlink(missing_ok=True)
        missing.write_text(f"The chapter view was not built: {why_absent}\n")
        return []
    missing.unlink(missing_ok=True)
    report = chapter_since.annotate(report)         # each figure row's "since": its evidence's date and commit
    inserts = chapter_inserts.gather(out, report, chapter, built=built_tables)   # our tables and plots, in place
    (out / "chapter.html").write_text(render_html(chapter, report, entries, out / "badges", inserts),
                                      encoding="utf-8")
    from claims.report.chapter_md import render_markdown  # it imports this module
    (out / "chapter.md").write_text(render_markdown(chapter, report, entries, inserts, out), encoding="utf-8")
    return [out / "chapter.html", out / "chapter.md"]
